//! The AWS lexicon: CloudFormation templates on the declared side; the live estate read
//! through the AWS SDK for Rust (CloudFormation, STS, IAM, the Resource Groups Tagging
//! API, Cloud Control and the services it deletes through).
//!
//! Credentials come from the SDK's full chain (environment, profiles, SSO, web identity,
//! IMDS); `AWS_ENDPOINT_URL` (and `AWS_ENDPOINT_URL_<SERVICE>`) are honoured; the region is
//! the stack's, the environment's, then the chain's — never a silent us-east-1. See
//! [`settings`] for `chant.toml`.

mod ambient;
mod behaviour;
mod cloudcontrol;
mod deep;
mod delete;
mod dependencies;
mod describe;
mod disruption;
mod errors;
mod export;
mod hooks;
mod identity;
mod lexicon;
mod ownership;
mod schema;
mod security_groups;
pub mod session;
pub mod settings;
mod stack;
mod stack_status;
mod teardown;
pub mod template;

pub use lexicon::{AWS_CONCURRENCY, AwsFactory, AwsLexicon};
pub use ownership::AWS_TAG_OWNERSHIP_KEYS;
pub use session::{Overrides, Service};
pub use settings::{AwsSettings, EnvironmentBinding, StackConfig};

/// The lexicon's name in `chant.toml`.
pub const NAME: &str = "aws";
