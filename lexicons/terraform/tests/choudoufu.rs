//! Live roots through the exec seam: recorded `choudoufu live-plan -json` and
//! `choudoufu live-ls -estate -json -consistent` documents (shapes in the crate README),
//! mapped by the seed's table.

mod common;

use chant_lexicon::{
    AmbientRequest, HookError, IdentityAnswer, IdentityRequest, Lexicon, Observation, Ownership,
    OwnershipMarker, ProjectMarker, TeardownRequest, UnobservedReason,
};
use chant_testkit::{FakeExec, Scenario, assert_observation_conformance};
use common::{Project, request};
use std::collections::BTreeMap;
use std::sync::Arc;

const PLAN: &str = include_str!("recorded/live_plan.json");
const LISTING: &str = include_str!("recorded/live_ls.json");
const CORE_BINARY: &str = "/opt/core/choudoufu";

const EDGE: &str = r#"
resource "aws_s3_bucket" "assets" {}
resource "aws_route53_record" "www" {}
resource "aws_sqs_queue" "workers" {
  for_each = toset(["a", "b"])
}
module "cdn" {
  source = "./modules/cdn"
}
resource "aws_iam_role" "mixed" {
  count = 2
}
resource "aws_s3_bucket" "logs" {}
resource "aws_sns_topic" "alerts" {}
resource "aws_lambda_function" "worker" {}
resource "aws_kms_key" "main" {}
resource "aws_wafv2_web_acl" "edge" {}
resource "aws_dynamodb_table" "silent" {}
data "aws_caller_identity" "me" {}
variable "x" {}
"#;

fn config(edge_estate: &str) -> String {
    format!(
        "[lexicons.terraform.roots]\nedge = {{ path = \"infra/edge\", binary = \"choudoufu\", estate = \"{edge_estate}\" }}\ncore = {{ path = \"infra/core\", binary = \"{CORE_BINARY}\", estate = \"shop-core-{{env}}\" }}\n"
    )
}

fn project() -> Project {
    let project = Project::new();
    project.write("infra/edge/main.tf", EDGE);
    project.write(
        "infra/core/main.tf",
        "resource \"aws_iam_role\" \"ci\" {}\n",
    );
    project
}

const NO_CREDENTIALS: &str =
    "Error: no valid credential sources for the AWS provider found (NoCredentialProviders)";

fn recorded() -> FakeExec {
    FakeExec::new()
        .ok("choudoufu live-plan -json", PLAN)
        .ok("choudoufu live-ls -estate -json -consistent", LISTING)
        .fails(CORE_BINARY, 1, NO_CREDENTIALS)
}

async fn observe(lexicon: &Arc<dyn Lexicon>) -> Observation {
    let request = request(lexicon, false).await;
    lexicon
        .describe_resources(&request)
        .await
        .unwrap()
        .normalize()
}

#[tokio::test]
async fn live_plan_maps_by_the_table_and_conforms() {
    let project = project();
    let lexicon = project.lexicon_with(&config("shop-edge-{env}"), Arc::new(recorded()));
    let plain = request(&lexicon, false).await;
    let owned = request(&lexicon, true).await;
    let channel = lexicon.ownership_channel();
    let scenarios = vec![
        Scenario::new(
            "live-plan sections",
            plain.entities.to_vec(),
            lexicon.describe_resources(&plain),
        )
        .present(&[
            "edge/aws_s3_bucket.assets",
            "edge/aws_route53_record.www",
            "edge/module.cdn",
            "edge/aws_iam_role.mixed",
            "edge/aws_s3_bucket.logs",
            "edge/aws_sns_topic.alerts",
        ])
        .absent(&["edge/aws_lambda_function.worker"])
        .unobserved(&["edge/aws_kms_key.main"], UnobservedReason::NoCredentials)
        .unobserved(
            &["edge/aws_sqs_queue.workers"],
            UnobservedReason::ReadFailed,
        )
        .unobserved(
            &["edge/aws_dynamodb_table.silent"],
            UnobservedReason::ReadFailed,
        )
        .unobserved(
            &[
                "edge/aws_wafv2_web_acl.edge",
                "edge/data.aws_caller_identity.me",
                "edge/var.x",
            ],
            UnobservedReason::UnsupportedKind,
        )
        .unobserved(&["core/aws_iam_role.ci"], UnobservedReason::NoCredentials)
        .ownership("edge/aws_s3_bucket.assets", Ownership::Owned)
        .marker("edge/aws_s3_bucket.assets", "shop-edge-dev", None)
        .ownership("edge/aws_route53_record.www", Ownership::Owned)
        .no_marker(&["edge/aws_route53_record.www", "edge/aws_sns_topic.alerts"])
        .ownership("edge/aws_s3_bucket.logs", Ownership::Foreign)
        .marker("edge/aws_s3_bucket.logs", "blog-prod", None)
        .ownership("edge/aws_iam_role.mixed", Ownership::Foreign)
        .ownership("edge/aws_sns_topic.alerts", Ownership::Unknown)
        .ownership("edge/module.cdn", Ownership::Unknown),
        Scenario::new(
            "--owned",
            owned.entities.to_vec(),
            lexicon.describe_resources(&owned),
        )
        .owned()
        .present(&["edge/aws_s3_bucket.assets", "edge/aws_route53_record.www"])
        .unobserved(
            &[
                "edge/aws_s3_bucket.logs",
                "edge/aws_sns_topic.alerts",
                "edge/aws_iam_role.mixed",
                "edge/module.cdn",
            ],
            UnobservedReason::Filtered,
        )
        .absent(&["edge/aws_lambda_function.worker"]),
    ];
    assert_observation_conformance("terraform", channel.as_ref(), scenarios).await;
}

#[tokio::test]
async fn binds_claims_and_omissions_carry_what_the_table_says() {
    let project = project();
    let exec = Arc::new(recorded());
    let lexicon = project.lexicon_with(&config("shop-edge-{env}"), exec.clone());
    let observation = observe(&lexicon).await;

    let www = &observation.resources["edge/aws_route53_record.www"];
    assert_eq!(
        www.bound_by.as_deref(),
        Some("derivation: Z0123456789ABCDEFGHIJ_www.example.com_A")
    );
    let alerts = &observation.resources["edge/aws_sns_topic.alerts"];
    assert_eq!(
        alerts.attributes["claim"],
        serde_json::json!({"tofu-estate": "shop-edge-dev", "tofu-address": "aws_sns_topic.alerts"})
    );
    let assets = &observation.resources["edge/aws_s3_bucket.assets"];
    assert_eq!(assets.physical_id.as_deref(), Some("shop-assets-dev"));
    assert_eq!(assets.bound_by, None);

    let kms = &observation.unobserved["edge/aws_kms_key.main"];
    let detail = kms.detail.as_deref().unwrap();
    assert!(
        detail.starts_with("root edge: live-plan omitted it: ACCESS_DENIED: AccessDeniedException"),
        "{detail}"
    );
    let workers = observation.unobserved["edge/aws_sqs_queue.workers"]
        .detail
        .as_deref()
        .unwrap();
    assert!(
        workers.contains("1 of 2 instances not observed; aws_sqs_queue.workers[\"b\"]"),
        "{workers}"
    );
    assert_eq!(
        observation.queried["edge/aws_lambda_function.worker"],
        "edge: choudoufu live-plan (estate shop-edge-dev)"
    );
    let core = &observation.unobserved["core/aws_iam_role.ci"];
    assert!(
        core.detail
            .as_deref()
            .unwrap()
            .starts_with("root core: choudoufu live-plan failed (exit 1)")
    );
    let mut lines = exec.lines();
    lines.sort();
    assert_eq!(
        lines,
        [
            format!("{CORE_BINARY} live-plan -json"),
            "choudoufu live-plan -json".to_owned()
        ]
    );
}

#[tokio::test]
async fn an_answer_for_another_estate_is_a_failed_read() {
    let project = project();
    let lexicon = project.lexicon_with(&config("shop-edge-prod"), Arc::new(recorded()));
    let observation = observe(&lexicon).await;
    let entry = &observation.unobserved["edge/aws_s3_bucket.assets"];
    assert_eq!(entry.reason, UnobservedReason::ReadFailed);
    assert!(
        entry
            .detail
            .as_deref()
            .unwrap()
            .contains("answered for estate `shop-edge-dev`, chant.toml names `shop-edge-prod`"),
        "{:?}",
        entry.detail
    );
    assert!(
        !observation
            .resources
            .contains_key("edge/aws_s3_bucket.assets")
    );
}

#[tokio::test]
async fn a_refused_configuration_is_read_failed_for_every_block() {
    let project = project();
    let exec = FakeExec::new()
        .fails(
            "choudoufu live-plan",
            1,
            "Error: Unsupported argument\n\n  on main.tf line 3",
        )
        .fails(CORE_BINARY, 1, NO_CREDENTIALS);
    let lexicon = project.lexicon_with(&config("shop-edge-{env}"), Arc::new(exec));
    let observation = observe(&lexicon).await;
    assert!(observation.resources.is_empty());
    for name in [
        "edge/aws_s3_bucket.assets",
        "edge/aws_lambda_function.worker",
        "edge/module.cdn",
    ] {
        assert_eq!(
            observation.unobserved[name].reason,
            UnobservedReason::ReadFailed,
            "{name}"
        );
    }
}

fn live_only() -> String {
    "[lexicons.terraform]\nbinary = \"choudoufu\"\nestate = \"shop-edge-{env}\"\n[lexicons.terraform.roots]\nedge = \"infra/edge\"\n".to_owned()
}

#[tokio::test]
async fn owned_orphans_are_ambient_and_teardown_candidates() {
    let project = project();
    let exec = Arc::new(recorded());
    let lexicon = project.lexicon_with(&live_only(), exec.clone());
    assert_eq!(lexicon.ambient_kinds(), ["Terraform::Resource"]);
    let ambient = lexicon
        .observe_ambient(&AmbientRequest {
            environment: "dev".into(),
            kinds: lexicon.ambient_kinds(),
            observed: Arc::new(BTreeMap::new()),
            stack: None,
            region: None,
        })
        .await
        .unwrap();
    assert_eq!(
        ambient.keys().collect::<Vec<_>>(),
        [
            "edge/aws_s3_bucket.old_assets",
            "edge/aws_sqs_queue.retired"
        ]
    );
    let old = &ambient["edge/aws_s3_bucket.old_assets"];
    assert!(old.ambient);
    assert_eq!(old.ownership(), Ownership::Owned);
    assert_eq!(old.marker.as_ref().unwrap().stack, "shop-edge-dev");
    assert_eq!(old.physical_id.as_deref(), Some("shop-old-assets-dev"));
    assert!(
        exec.lines()
            .iter()
            .all(|l| l == "choudoufu live-ls -estate -json -consistent")
    );

    let plan = lexicon
        .teardown_owned(&TeardownRequest {
            environment: "dev".into(),
            project: ProjectMarker::new("shop", "dev"),
            declared: vec!["edge/aws_sqs_queue.retired".into()],
            stack: None,
            region: None,
        })
        .await
        .unwrap();
    let names: Vec<&str> = plan.candidates.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["edge/aws_s3_bucket.old_assets"],
        "a declared name is never a candidate"
    );
    assert_eq!(
        plan.candidates[0].marker,
        OwnershipMarker {
            stack: "shop-edge-dev".into(),
            env: None
        }
    );
    assert_eq!(plan.holes.len(), 1);
    assert_eq!(
        plan.holes[0].kind,
        "Terraform::Resource::aws_route53_record"
    );
    assert!(plan.holes[0].detail.as_deref().unwrap().contains(
        "aws_route53_record.www cannot be reached by the tag listing (declaration rung)"
    ));
}

#[tokio::test]
async fn a_listing_that_fails_or_lags_is_a_hole_never_an_empty_estate() {
    let project = project();
    let lagging = LISTING.replace("\"consistent\": true", "\"consistent\": false");
    let exec =
        FakeExec::new()
            .ok("choudoufu live-ls", lagging)
            .fails(CORE_BINARY, 1, NO_CREDENTIALS);
    let lexicon = project.lexicon_with(&config("shop-edge-{env}"), Arc::new(exec));
    let plan = lexicon
        .teardown_owned(&TeardownRequest {
            environment: "dev".into(),
            project: ProjectMarker::new("shop", "dev"),
            declared: vec![],
            stack: None,
            region: None,
        })
        .await
        .unwrap();
    assert!(plan.candidates.is_empty());
    let reasons: Vec<(UnobservedReason, bool)> = plan
        .holes
        .iter()
        .map(|h| {
            (
                h.reason,
                h.detail.as_deref().unwrap().contains("consistent"),
            )
        })
        .collect();
    assert_eq!(
        reasons,
        [
            (UnobservedReason::NoCredentials, false),
            (UnobservedReason::ReadFailed, true)
        ],
        "roots in configuration order: core, edge"
    );
    let ambient = lexicon
        .observe_ambient(&AmbientRequest {
            environment: "dev".into(),
            kinds: vec![],
            observed: Arc::new(BTreeMap::new()),
            stack: None,
            region: None,
        })
        .await;
    assert!(
        matches!(ambient, Err(HookError::Failed(m)) if m.contains("root edge") && m.contains("root core"))
    );
}

#[tokio::test]
async fn stock_roots_are_teardown_holes_and_live_roots_name_their_estate() {
    let project = project();
    let config = "[lexicons.terraform.roots]\nedge = { path = \"infra/edge\", binary = \"choudoufu\", estate = \"shop-edge-{env}\" }\ncore = \"infra/core\"\n";
    let lexicon = project.lexicon_with(
        config,
        Arc::new(recorded().ok("terraform show", "{\"format_version\":\"1.0\"}")),
    );
    let plan = lexicon
        .teardown_owned(&TeardownRequest {
            environment: "dev".into(),
            project: ProjectMarker::new("shop", "dev"),
            declared: vec![],
            stack: None,
            region: None,
        })
        .await
        .unwrap();
    assert!(
        plan.holes.iter().any(|h| h.kind == "Terraform::Root"
            && h.detail.as_deref().unwrap().starts_with("root core:"))
    );
    let answer = lexicon
        .describe_identity(&IdentityRequest {
            environment: "dev".into(),
            region: None,
        })
        .await
        .unwrap();
    let IdentityAnswer::Resolved(identity) = answer else {
        panic!("expected resolved: {answer:?}");
    };
    assert!(
        identity
            .identity
            .contains("edge: choudoufu estate shop-edge-dev"),
        "{}",
        identity.identity
    );
    assert!(
        identity.identity.contains("core: local "),
        "{}",
        identity.identity
    );
}
