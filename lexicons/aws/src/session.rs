//! The transport seam: one resolved binding (region, profile, endpoint, credentials
//! chain) per environment and region, and the SDK clients built from it.
//!
//! Every hook reads through a [`Session`], so describe, whoami and teardown cannot
//! disagree about where they read: [`Session::endpoint`] is the one helper that names the
//! address, and the same resolution configures each client. Tests replace the transport
//! by pointing it at moto or a stub ([`Overrides`]), never by mocking the SDK.

use crate::settings::EnvironmentBinding;
use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region, SdkConfig};
use aws_credential_types::Credentials;
use aws_credential_types::credential_feature::AwsCredentialFeature;
use aws_credential_types::provider::{ProvideCredentials, SharedCredentialsProvider};
use chant_lexicon::UnobservedReason;
use std::collections::BTreeMap;
use std::time::Duration;

/// The AWS services this lexicon talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Service {
    CloudFormation,
    Sts,
    Iam,
    Tagging,
    CloudControl,
    Ec2,
    S3,
    Sqs,
    Sns,
    Lambda,
}

impl Service {
    /// The endpoint prefix (`https://<prefix>.<region>.amazonaws.com`).
    pub fn prefix(self) -> &'static str {
        match self {
            Service::CloudFormation => "cloudformation",
            Service::Sts => "sts",
            Service::Iam => "iam",
            Service::Tagging => "tagging",
            Service::CloudControl => "cloudcontrolapi",
            Service::Ec2 => "ec2",
            Service::S3 => "s3",
            Service::Sqs => "sqs",
            Service::Sns => "sns",
            Service::Lambda => "lambda",
        }
    }

    /// The suffix of the SDK's service-specific endpoint variable, `AWS_ENDPOINT_URL_<ID>`.
    pub fn env_id(self) -> &'static str {
        match self {
            Service::CloudFormation => "CLOUDFORMATION",
            Service::Sts => "STS",
            Service::Iam => "IAM",
            Service::Tagging => "RESOURCE_GROUPS_TAGGING_API",
            Service::CloudControl => "CLOUDCONTROL",
            Service::Ec2 => "EC2",
            Service::S3 => "S3",
            Service::Sqs => "SQS",
            Service::Sns => "SNS",
            Service::Lambda => "LAMBDA",
        }
    }
}

/// What tests (and only tests) change about the transport.
#[derive(Clone, Debug)]
pub struct Overrides {
    /// Per-service endpoints, above every other source (a stub in front of one service).
    pub service_endpoints: BTreeMap<Service, String>,
    /// Fixed credentials instead of the default chain.
    pub credentials: Option<Credentials>,
    pub max_attempts: u32,
    pub initial_backoff: Duration,
    /// Read `AWS_ENDPOINT_URL*`, `AWS_PROFILE`, `AWS_REGION` from the process environment.
    pub read_process_env: bool,
}

impl Default for Overrides {
    fn default() -> Self {
        Overrides {
            service_endpoints: BTreeMap::new(),
            credentials: None,
            max_attempts: 5,
            initial_backoff: Duration::from_millis(500),
            read_process_env: true,
        }
    }
}

/// Why no session could be made: a reason for every entity it would have read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindError {
    pub reason: UnobservedReason,
    pub detail: String,
}

/// One environment's resolved binding in one region.
#[derive(Clone, Debug)]
pub struct Session {
    pub environment: String,
    pub region: String,
    /// Where the region came from, in the project's vocabulary.
    pub region_source: String,
    pub profile: Option<String>,
    pub profile_source: Option<String>,
    pub sdk: SdkConfig,
    endpoint_override: Option<String>,
    service_endpoints: BTreeMap<Service, String>,
    timeout: Duration,
    env_endpoints: BTreeMap<String, String>,
    retry: RetryConfig,
}

/// Build a session: the region is the first of `explicit` (a stack's own), the
/// environment's binding, then the SDK's chain (`AWS_REGION`, the profile). With none, it
/// is `no-binding` — never a silent us-east-1.
pub async fn open(
    environment: &str,
    binding: &EnvironmentBinding,
    explicit_region: Option<(&str, String)>,
    overrides: &Overrides,
    timeout: Duration,
) -> Result<Session, BindError> {
    let process_env = |name: &str| {
        if overrides.read_process_env {
            std::env::var(name).ok().filter(|v| !v.is_empty())
        } else {
            None
        }
    };
    let (profile, profile_source) = match (&binding.profile, process_env("AWS_PROFILE")) {
        (Some(p), _) => (
            Some(p.clone()),
            Some(format!("[environments.{environment}.aws] profile")),
        ),
        (None, Some(p)) => (Some(p), Some("env AWS_PROFILE".to_owned())),
        (None, None) => (None, None),
    };
    let mut loader = aws_config::defaults(BehaviorVersion::latest());
    if let Some(profile) = &profile {
        loader = loader.profile_name(profile);
    }
    let configured_region = match explicit_region {
        Some((source, region)) => Some((region, source.to_owned())),
        None => binding
            .region
            .clone()
            .map(|r| (r, format!("[environments.{environment}.aws] region"))),
    };
    if let Some((region, _)) = &configured_region {
        loader = loader.region(Region::new(region.clone()));
    }
    if let Some(credentials) = &overrides.credentials {
        loader = loader.credentials_provider(credentials.clone());
    }
    let sdk = loader.load().await;
    let (region, region_source) = match configured_region {
        Some(found) => found,
        None => match sdk.region().filter(|_| overrides.read_process_env) {
            Some(r) => (
                r.to_string(),
                if process_env("AWS_REGION").is_some() {
                    "env AWS_REGION".to_owned()
                } else {
                    "the AWS profile's region".to_owned()
                },
            ),
            None => {
                return Err(BindError {
                    reason: UnobservedReason::NoBinding,
                    detail: format!(
                        "no AWS region for environment `{environment}`: set region under [environments.{environment}.aws] (or AWS_REGION)"
                    ),
                });
            }
        },
    };
    let mut env_endpoints = BTreeMap::new();
    for name in std::iter::once("AWS_ENDPOINT_URL".to_owned()).chain(
        ALL_SERVICES
            .iter()
            .map(|s| format!("AWS_ENDPOINT_URL_{}", s.env_id())),
    ) {
        if let Some(value) = process_env(&name) {
            env_endpoints.insert(name, value);
        }
    }
    let retry = RetryConfig::standard()
        .with_max_attempts(overrides.max_attempts.max(1))
        .with_initial_backoff(overrides.initial_backoff);
    Ok(Session {
        environment: environment.to_owned(),
        region,
        region_source,
        profile,
        profile_source,
        sdk,
        endpoint_override: binding.endpoint.clone(),
        service_endpoints: overrides.service_endpoints.clone(),
        timeout,
        env_endpoints,
        retry,
    })
}

/// A client of one service, configured from the session: its timeouts, its retry policy
/// (throttling backs off), and its endpoint from [`Session::configured_endpoint`].
macro_rules! client {
    ($name:ident, $sdk:ident, $service:expr) => {
        pub fn $name(&self) -> $sdk::Client {
            let mut b = $sdk::config::Builder::from(&self.sdk)
                .timeout_config(self.timeouts())
                .retry_config(self.retry.clone());
            if let Some(e) = self.configured_endpoint($service) {
                b = b.endpoint_url(e);
            }
            $sdk::Client::from_conf(b.build())
        }
    };
}

const ALL_SERVICES: [Service; 10] = [
    Service::CloudFormation,
    Service::Sts,
    Service::Iam,
    Service::Tagging,
    Service::CloudControl,
    Service::Ec2,
    Service::S3,
    Service::Sqs,
    Service::Sns,
    Service::Lambda,
];

impl Session {
    /// The endpoint a configured source names for `service`, most specific first: a test's
    /// per-service stub, `AWS_ENDPOINT_URL_<SERVICE>`, the environment's `endpoint`,
    /// `AWS_ENDPOINT_URL`.
    fn configured_endpoint(&self, service: Service) -> Option<String> {
        self.service_endpoints
            .get(&service)
            .cloned()
            .or_else(|| {
                self.env_endpoints
                    .get(&format!("AWS_ENDPOINT_URL_{}", service.env_id()))
                    .cloned()
            })
            .or_else(|| self.endpoint_override.clone())
            .or_else(|| self.env_endpoints.get("AWS_ENDPOINT_URL").cloned())
            .map(|e| e.trim_end_matches('/').to_owned())
    }

    /// The address reads of `service` go to.
    pub fn endpoint(&self, service: Service) -> String {
        self.configured_endpoint(service)
            .unwrap_or_else(|| match service {
                Service::Iam => "https://iam.amazonaws.com".to_owned(),
                _ => format!("https://{}.{}.amazonaws.com", service.prefix(), self.region),
            })
    }

    /// `cloudformation:DescribeStackResources(StackName=x) @ eu-west-1 https://…`
    pub fn address(&self, service: Service, call: &str) -> String {
        format!(
            "{}:{call} @ {} {}",
            service.prefix(),
            self.region,
            self.endpoint(service)
        )
    }

    fn timeouts(&self) -> TimeoutConfig {
        TimeoutConfig::builder()
            .connect_timeout(self.timeout.min(Duration::from_secs(10)))
            .operation_attempt_timeout(self.timeout)
            .build()
    }

    client!(
        cloudformation,
        aws_sdk_cloudformation,
        Service::CloudFormation
    );
    client!(sts, aws_sdk_sts, Service::Sts);
    client!(iam, aws_sdk_iam, Service::Iam);
    client!(tagging, aws_sdk_resourcegroupstagging, Service::Tagging);
    client!(cloudcontrol, aws_sdk_cloudcontrol, Service::CloudControl);
    client!(ec2, aws_sdk_ec2, Service::Ec2);
    client!(sqs, aws_sdk_sqs, Service::Sqs);
    client!(sns, aws_sdk_sns, Service::Sns);
    client!(lambda, aws_sdk_lambda, Service::Lambda);

    pub fn s3(&self) -> aws_sdk_s3::Client {
        let mut b = aws_sdk_s3::config::Builder::from(&self.sdk)
            .timeout_config(self.timeouts())
            .retry_config(self.retry.clone());
        if let Some(e) = self.configured_endpoint(Service::S3) {
            // An emulator on an IP address cannot serve virtual-hosted buckets.
            b = b.endpoint_url(e).force_path_style(true);
        }
        aws_sdk_s3::Client::from_conf(b.build())
    }

    /// Resolve credentials through the chain; `Err` is `no-credentials` with the chain's word.
    pub async fn credentials(&self) -> Result<Credentials, BindError> {
        let Some(provider) = self.sdk.credentials_provider() else {
            return Err(BindError {
                reason: UnobservedReason::NoCredentials,
                detail: "no AWS credentials provider is configured".to_owned(),
            });
        };
        resolve(&provider).await.map_err(|detail| BindError {
            reason: UnobservedReason::NoCredentials,
            detail,
        })
    }

    /// Where credentials came from: a profile, the environment, SSO, IMDS…
    pub fn credential_source(&self, credentials: &Credentials) -> String {
        let features = credentials
            .get_property::<Vec<AwsCredentialFeature>>()
            .cloned()
            .unwrap_or_default();
        let profile = || match (&self.profile, &self.profile_source) {
            (Some(p), Some(s)) => format!("profile `{p}` ({s})"),
            _ => "the default profile".to_owned(),
        };
        use AwsCredentialFeature as F;
        let has = |f: &F| features.contains(f);
        if has(&F::CredentialsSso) || has(&F::CredentialsProfileSso) {
            format!("SSO via {}", profile())
        } else if has(&F::CredentialsStsAssumeRole) {
            format!("assumed role via {}", profile())
        } else if has(&F::CredentialsProfileStsWebIdToken)
            || has(&F::CredentialsEnvVarsStsWebIdToken)
            || has(&F::CredentialsStsAssumeRoleWebId)
        {
            "web identity token (AWS_WEB_IDENTITY_TOKEN_FILE)".to_owned()
        } else if has(&F::CredentialsProcess) || has(&F::CredentialsProfileProcess) {
            format!("credential_process of {}", profile())
        } else if has(&F::CredentialsProfile) {
            profile()
        } else if has(&F::CredentialsEnvVars) {
            "env AWS_ACCESS_KEY_ID".to_owned()
        } else if has(&F::CredentialsImds) {
            "instance metadata (IMDS)".to_owned()
        } else if has(&F::CredentialsHttp) {
            "container credentials endpoint".to_owned()
        } else if features.is_empty() && credentials_are_static(credentials) {
            "fixed credentials (test configuration)".to_owned()
        } else {
            "the AWS default credential chain".to_owned()
        }
    }
}

fn credentials_are_static(credentials: &Credentials) -> bool {
    format!("{credentials:?}").contains("provider_name: \"Static\"")
}

async fn resolve(provider: &SharedCredentialsProvider) -> Result<Credentials, String> {
    provider
        .provide_credentials()
        .await
        .map_err(|e| crate::errors::chain_text(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offline() -> Overrides {
        Overrides {
            read_process_env: false,
            credentials: Some(Credentials::new("AKIDTEST", "secret", None, None, "Static")),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn the_configured_region_wins_and_endpoints_resolve_in_order() {
        let binding = EnvironmentBinding {
            region: Some("eu-west-1".into()),
            endpoint: Some("http://127.0.0.1:9/".into()),
            ..Default::default()
        };
        let mut overrides = offline();
        overrides
            .service_endpoints
            .insert(Service::CloudControl, "http://127.0.0.1:7".into());
        let s = open("dev", &binding, None, &overrides, Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(s.region, "eu-west-1");
        assert_eq!(s.region_source, "[environments.dev.aws] region");
        assert_eq!(s.endpoint(Service::CloudFormation), "http://127.0.0.1:9");
        assert_eq!(s.endpoint(Service::CloudControl), "http://127.0.0.1:7");
        let stack = open(
            "dev",
            &binding,
            Some(("stack `net` region", "us-west-2".into())),
            &overrides,
            Duration::from_secs(5),
        )
        .await
        .unwrap();
        assert_eq!(stack.region, "us-west-2");

        let plain = open(
            "dev",
            &EnvironmentBinding {
                region: Some("ap-south-1".into()),
                ..Default::default()
            },
            None,
            &offline(),
            Duration::from_secs(5),
        )
        .await
        .unwrap();
        assert_eq!(
            plain.endpoint(Service::CloudFormation),
            "https://cloudformation.ap-south-1.amazonaws.com"
        );
        assert_eq!(
            plain.address(Service::CloudFormation, "DescribeStacks(StackName=x)"),
            "cloudformation:DescribeStacks(StackName=x) @ ap-south-1 https://cloudformation.ap-south-1.amazonaws.com"
        );
    }

    #[tokio::test]
    async fn no_region_anywhere_is_no_binding_not_us_east_1() {
        let e = open(
            "dev",
            &EnvironmentBinding::default(),
            None,
            &offline(),
            Duration::from_secs(5),
        )
        .await
        .unwrap_err();
        assert_eq!(e.reason, UnobservedReason::NoBinding);
        assert!(e.detail.contains("[environments.dev.aws]"), "{}", e.detail);
    }
}
