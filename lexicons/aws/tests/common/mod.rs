//! Shared setup for the aws lexicon's tests: a project on disk, the lexicon configured
//! from its chant.toml, stacks created in moto through the real SDK, and a Cloud Control
//! stub.
//!
//! moto has no Cloud Control API (it answers HTTP 500), so Cloud Control calls — and only
//! those — go to [`CloudControlStub`], a local HTTP server wired in through the SDK's
//! per-service endpoint configuration. Everything else is real moto.
#![allow(dead_code)]

use aws_config::{BehaviorVersion, Region, SdkConfig};
use aws_credential_types::Credentials;
use chant_aws::{AwsLexicon, AwsSettings, Overrides, Service};
use chant_lexicon::{Lexicon, ObserveRequest, ProjectContext, ProjectMarker};
use chant_testkit::{FakeHttp, Reply};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const REGION: &str = "eu-west-1";
pub const PROJECT_STACK: &str = "shop";

pub fn marker_tags(stack: &str, env: &str) -> Value {
    json!([
        {"Key": "chant:managed-by", "Value": "chant"},
        {"Key": "chant:stack", "Value": stack},
        {"Key": "chant:env", "Value": env}
    ])
}

/// The shop template as `chant build` would write it for `env` (every resource stamped).
pub fn shop_template(env: &str) -> Value {
    let tags = marker_tags(PROJECT_STACK, env);
    json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "Assets": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": format!("shop-{env}-assets"), "Tags": tags}},
            "Jobs": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": format!("shop-{env}-jobs"), "VisibilityTimeout": 60, "Tags": tags}},
            "Web": {"Type": "AWS::EC2::SecurityGroup", "Properties": {
                "GroupDescription": "web tier",
                "SecurityGroupIngress": [{"IpProtocol": "tcp", "FromPort": 443, "ToPort": 443, "CidrIp": "0.0.0.0/0"}],
                "Tags": tags
            }},
            "Worker": {"Type": "AWS::IAM::Role", "Properties": {
                "RoleName": format!("shop-{env}-worker"),
                "AssumeRolePolicyDocument": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]},
                "Tags": tags
            }}
        }
    })
}

/// A project directory with chant.toml and the declared template.
pub struct Project {
    pub dir: tempfile::TempDir,
    pub chant_toml: String,
}

impl Project {
    /// `environments`: `(env, extra lines)` for each `[environments.<env>.aws]` table.
    pub fn new(template: &Value, endpoint: &str, environments: &[(&str, &str)]) -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("dist")).unwrap();
        std::fs::write(
            dir.path().join("dist/template.json"),
            serde_json::to_string_pretty(template).unwrap(),
        )
        .unwrap();
        let mut chant_toml = format!(
            "[ownership]\nstack = \"{PROJECT_STACK}\"\n\n[lexicons.aws]\nsource = \"dist/template.json\"\nstack = \"shop-{{env}}\"\n"
        );
        for (env, extra) in environments {
            chant_toml.push_str(&format!(
                "\n[environments.{env}.aws]\nregion = \"{REGION}\"\nendpoint = \"{endpoint}\"\n{extra}"
            ));
        }
        std::fs::write(dir.path().join("chant.toml"), &chant_toml).unwrap();
        Project { dir, chant_toml }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn context(&self) -> ProjectContext {
        ProjectContext {
            root: self.dir.path().to_path_buf(),
            config_path: self.dir.path().join("chant.toml"),
            config_text: Arc::from(self.chant_toml.as_str()),
            stack: PROJECT_STACK.to_owned(),
            environments: vec![],
        }
    }

    pub fn lexicon(&self, overrides: Overrides) -> AwsLexicon {
        AwsLexicon::new(AwsSettings::parse(&self.context()).unwrap()).with_overrides(overrides)
    }

    pub fn write_template(&self, template: &Value) {
        std::fs::write(
            self.dir.path().join("dist/template.json"),
            serde_json::to_string_pretty(template).unwrap(),
        )
        .unwrap();
    }

    pub fn template_path(&self) -> PathBuf {
        self.dir.path().join("dist/template.json")
    }
}

/// Fixed test credentials, no process environment, fast retries.
pub fn overrides() -> Overrides {
    Overrides {
        credentials: Some(Credentials::new("testing", "testing", None, None, "Static")),
        read_process_env: false,
        max_attempts: 4,
        initial_backoff: Duration::from_millis(5),
        ..Default::default()
    }
}

pub fn with_cloudcontrol(stub: &CloudControlStub) -> Overrides {
    let mut o = overrides();
    o.service_endpoints
        .insert(Service::CloudControl, stub.url());
    o
}

pub async fn request(lexicon: &AwsLexicon, env: &str, owned: bool) -> ObserveRequest {
    let mut request = ObserveRequest::new(
        env,
        ProjectMarker::new(PROJECT_STACK, env),
        lexicon.declared().await.unwrap(),
    );
    request.owned = owned;
    request.request_timeout = Duration::from_secs(10);
    request
}

/// An SDK configuration for setting moto up from the test.
pub async fn moto_sdk(url: &str) -> SdkConfig {
    aws_config::defaults(BehaviorVersion::latest())
        .credentials_provider(Credentials::new("testing", "testing", None, None, "test"))
        .region(Region::new(REGION))
        .endpoint_url(url)
        .load()
        .await
}

/// moto with the marked `shop-dev` stack deployed from [`shop_template`].
pub async fn deploy_shop_dev(url: &str) -> SdkConfig {
    let sdk = moto_sdk(url).await;
    create_stack(
        &sdk,
        "shop-dev",
        &shop_template("dev"),
        Some(&marker_tags(PROJECT_STACK, "dev")),
    )
    .await;
    sdk
}

/// Create a stack in moto and check it completed.
pub async fn create_stack(sdk: &SdkConfig, name: &str, template: &Value, tags: Option<&Value>) {
    let cf = aws_sdk_cloudformation::Client::new(sdk);
    let mut call = cf
        .create_stack()
        .stack_name(name)
        .template_body(template.to_string());
    for tag in tags.and_then(Value::as_array).into_iter().flatten() {
        call = call.tags(
            aws_sdk_cloudformation::types::Tag::builder()
                .key(tag["Key"].as_str().unwrap())
                .value(tag["Value"].as_str().unwrap())
                .build(),
        );
    }
    call.send().await.unwrap();
    let status = cf
        .describe_stacks()
        .stack_name(name)
        .send()
        .await
        .unwrap()
        .stacks()[0]
        .stack_status()
        .unwrap()
        .as_str()
        .to_owned();
    assert_eq!(status, "CREATE_COMPLETE", "moto did not complete {name}");
}

/// A local server answering only Cloud Control's GetResource / DeleteResource, from a
/// table the test fills. Types in `unsupported` answer UnsupportedActionException.
pub struct CloudControlStub {
    pub http: FakeHttp,
    pub resources: Arc<Mutex<BTreeMap<(String, String), Value>>>,
    pub unsupported: Arc<Mutex<Vec<String>>>,
}

impl CloudControlStub {
    pub fn start() -> CloudControlStub {
        let http = FakeHttp::start();
        let resources: Arc<Mutex<BTreeMap<(String, String), Value>>> = Arc::default();
        let unsupported: Arc<Mutex<Vec<String>>> = Arc::default();
        let (r, u) = (resources.clone(), unsupported.clone());
        http.handle(move |request| {
            let target = request.header("x-amz-target").unwrap_or_default().to_owned();
            let body: Value = serde_json::from_slice(&request.body).unwrap_or_default();
            let type_name = body["TypeName"].as_str().unwrap_or_default().to_owned();
            let identifier = body["Identifier"].as_str().unwrap_or_default().to_owned();
            let error = |code: &str, message: &str| {
                Some(
                    Reply::status(400)
                        .header("content-type", "application/x-amz-json-1.0")
                        .body(json!({"__type": code, "Message": message}).to_string()),
                )
            };
            if u.lock().unwrap().contains(&type_name) {
                return error("UnsupportedActionException", &format!("{type_name} does not support this action"));
            }
            match target.as_str() {
                "CloudApiService.GetResource" => match r.lock().unwrap().get(&(type_name.clone(), identifier.clone())) {
                    Some(props) => Some(
                        Reply::status(200)
                            .header("content-type", "application/x-amz-json-1.0")
                            .body(
                                json!({"TypeName": type_name, "ResourceDescription": {"Identifier": identifier, "Properties": props.to_string()}})
                                    .to_string(),
                            ),
                    ),
                    None => error("ResourceNotFoundException", &format!("{type_name} {identifier} not found")),
                },
                _ => error("InvalidRequestException", &format!("the stub does not answer {target}")),
            }
        });
        CloudControlStub {
            http,
            resources,
            unsupported,
        }
    }

    pub fn url(&self) -> String {
        self.http.url()
    }

    pub fn put(&self, entity_type: &str, identifier: &str, properties: Value) {
        self.resources
            .lock()
            .unwrap()
            .insert((entity_type.to_owned(), identifier.to_owned()), properties);
    }

    pub fn unsupported(&self, entity_type: &str) {
        self.unsupported
            .lock()
            .unwrap()
            .push(entity_type.to_owned());
    }
}
