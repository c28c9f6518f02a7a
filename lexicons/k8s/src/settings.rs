//! `[lexicons.k8s]` and `[environments.<env>.k8s]` in chant.toml.
//!
//! ```toml
//! [lexicons.k8s]
//! source = ["dist/k8s/*.yaml"]            # files, directories and globs
//! kustomize = ["deploy/overlays/dev"]     # roots rendered with `kubectl kustomize`
//! allowed_exec_plugins = ["aws"]          # replaces the default allow-list
//!
//! [environments.dev.k8s]
//! context = "kind-dev"                    # pinned kubeconfig context
//! namespace = "shop"                      # default for objects that declare none
//! kubeconfig = "~/.kube/dev.yaml"         # optional; else KUBECONFIG or ~/.kube/config
//! allowed_targets = ["https://127.0.0.1:6443", "kind-dev"]
//! ```
//!
//! `allowed_targets` names the API servers (by URL) or context names teardown may act
//! on; anything else is refused.

use chant_lexicon::settings::OneOrMany;
use serde::Deserialize;

/// The exec credential plugins a kubeconfig may run unless chant.toml says otherwise.
pub const DEFAULT_EXEC_ALLOWLIST: [&str; 5] = [
    "aws",
    "aws-iam-authenticator",
    "gke-gcloud-auth-plugin",
    "kubelogin",
    "kubectl",
];

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSettings {
    #[serde(default)]
    pub source: OneOrMany,
    #[serde(default)]
    pub kustomize: Vec<String>,
    #[serde(default)]
    pub allowed_exec_plugins: Option<Vec<String>>,
    /// The read pool (default 16).
    #[serde(default)]
    pub concurrency: Option<usize>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentSettings {
    #[serde(default)]
    pub context: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub kubeconfig: Option<String>,
    #[serde(default)]
    pub allowed_targets: Option<Vec<String>>,
}
