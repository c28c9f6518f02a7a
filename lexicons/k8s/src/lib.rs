//! The Kubernetes lexicon.
//!
//! Declared side: multi-document YAML build output (files, directories, globs) and
//! kustomize roots. Live side: the API server through the `kube` client (kubeconfig,
//! pinned context, exec plugin allow-list), read with one paginated LIST per kind and
//! namespace where several declared objects share them.
//!
//! ```toml
//! [lexicons.k8s]
//! source = ["dist/k8s/*.yaml"]
//! [environments.dev.k8s]
//! context = "kind-dev"
//! namespace = "shop"
//! ```

pub mod api;
mod behaviour;
pub mod binding;
pub mod declared;
mod deep;
mod describe;
pub mod discovery;
mod disruption;
mod export;
mod identity;
mod in_flight;
pub mod kinds;
mod lexicon;
mod lists_ahead;
mod managed_fields;
pub mod naming;
mod owned_lists;
mod ownership;
mod reader;
mod session;
pub mod settings;
mod stack_status;
pub mod status;
mod sweep;
mod teardown;
mod transport;
mod yaml;

pub use lexicon::{DEFAULT_CONCURRENCY, K8sFactory, K8sLexicon};

/// The lexicon's name in chant.toml.
pub const NAME: &str = "k8s";
