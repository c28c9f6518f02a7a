//! Stock roots through the exec seam: a recorded `terraform show -json` of AWS provider
//! shapes (count, for_each modules, nested modules, data sources, a tainted instance, a
//! sensitive password), and recorded failures.

mod common;

use chant_lexicon::exec::{ExecError, ExecOutput};
use chant_lexicon::{Lexicon, Observation, Ownership, UnobservedReason};
use chant_testkit::{FakeExec, Scenario, assert_observation_conformance};
use common::{Project, request};
use std::sync::Arc;

const SHOW: &str = include_str!("recorded/aws_show.json");

const NETWORK: &str = r#"
terraform {
  backend "s3" {
    bucket = "shop-tfstate"
    key    = "network.tfstate"
    region = "eu-west-1"
  }
}
provider "aws" {
  region = "eu-west-1"
}
variable "db_password" {
  sensitive = true
}
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "private" {
  count      = 2
  vpc_id     = aws_vpc.main.id
  cidr_block = cidrsubnet(aws_vpc.main.cidr_block, 8, count.index + 1)
}
resource "aws_security_group" "web" {
  vpc_id = aws_vpc.main.id
}
resource "aws_db_instance" "main" {
  identifier = "shop"
  password   = var.db_password
}
resource "aws_nat_gateway" "main" {
  subnet_id = aws_subnet.private[0].id
}
data "aws_region" "current" {}
data "aws_availability_zones" "all" {}
module "endpoints" {
  source = "./modules/endpoints"
}
module "dns" {
  for_each = toset(["public"])
  source   = "./modules/dns"
}
output "vpc_id" {
  value = aws_vpc.main.id
}
"#;

const CONFIG: &str = "[lexicons.terraform]\nroots = [\"infra/network\"]\n";

fn project() -> Project {
    let project = Project::new();
    project.write("infra/network/main.tf", NETWORK);
    project
}

fn recorded() -> FakeExec {
    FakeExec::new().ok("terraform show -json", SHOW)
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
async fn aws_shapes_conform() {
    let project = project();
    let lexicon = project.lexicon_with(CONFIG, Arc::new(recorded()));
    let plain = request(&lexicon, false).await;
    let owned = request(&lexicon, true).await;
    let failing = project.lexicon_with(
        CONFIG,
        Arc::new(FakeExec::new().fails(
            "terraform show",
            1,
            "╷\n│ Error: No valid credential sources found\n│\n│ Please see https://registry.terraform.io/providers/hashicorp/aws\n╵\n",
        )),
    );
    let failing_request = request(&failing, false).await;
    let channel = lexicon.ownership_channel();
    let scenarios = vec![
        Scenario::new(
            "recorded AWS state",
            plain.entities.to_vec(),
            lexicon.describe_resources(&plain),
        )
        .present(&[
            "network/aws_vpc.main",
            "network/aws_subnet.private",
            "network/aws_security_group.web",
            "network/aws_db_instance.main",
            "network/data.aws_region.current",
            "network/module.endpoints",
            "network/module.dns",
            "network/aws_iam_role.retired",
            "network/module.legacy.aws_s3_bucket.logs",
        ])
        .absent(&[
            "network/aws_nat_gateway.main",
            "network/data.aws_availability_zones.all",
        ])
        .unobserved(
            &[
                "network/terraform",
                "network/provider.aws",
                "network/var.db_password",
                "network/output.vpc_id",
            ],
            UnobservedReason::UnsupportedKind,
        )
        .ownership("network/aws_vpc.main", Ownership::Owned)
        .ownership("network/aws_iam_role.retired", Ownership::Owned)
        .ownership("network/module.endpoints", Ownership::Unknown)
        .ownership("network/module.dns", Ownership::Unknown)
        .no_marker(&["network/aws_vpc.main", "network/aws_iam_role.retired"]),
        Scenario::new(
            "--owned",
            owned.entities.to_vec(),
            lexicon.describe_resources(&owned),
        )
        .owned()
        .present(&["network/aws_vpc.main", "network/aws_subnet.private"])
        .unobserved(
            &["network/module.endpoints", "network/module.dns"],
            UnobservedReason::Filtered,
        ),
        Scenario::new(
            "missing credentials",
            failing_request.entities.to_vec(),
            failing.describe_resources(&failing_request),
        )
        .unobserved(
            &[
                "network/aws_vpc.main",
                "network/module.dns",
                "network/output.vpc_id",
            ],
            UnobservedReason::NoCredentials,
        ),
    ];
    assert_observation_conformance("terraform", channel.as_ref(), scenarios).await;
}

#[tokio::test]
async fn aws_rows_are_reduced_to_their_identity() {
    let project = project();
    let lexicon = project.lexicon_with(CONFIG, Arc::new(recorded()));
    let observation = observe(&lexicon).await;

    let vpc = &observation.resources["network/aws_vpc.main"];
    assert_eq!(vpc.entity_type, "Terraform::Resource::aws_vpc");
    assert_eq!(vpc.physical_id.as_deref(), Some("vpc-0a1b2c3d4e5f60718"));
    assert_eq!(vpc.status, "PRESENT");
    assert_eq!(
        serde_json::Value::Object(vpc.attributes.clone()),
        serde_json::json!({
            "address": "aws_vpc.main",
            "type": "aws_vpc",
            "mode": "managed",
            "provider": "registry.terraform.io/hashicorp/aws",
            "root": "network"
        })
    );
    let subnets = &observation.resources["network/aws_subnet.private"];
    assert_eq!(
        subnets.attributes["instances"],
        serde_json::json!({"aws_subnet.private[0]": "subnet-0aaa", "aws_subnet.private[1]": "subnet-0bbb"})
    );
    assert_eq!(
        observation.resources["network/aws_security_group.web"].status,
        "TAINTED"
    );
    let region = &observation.resources["network/data.aws_region.current"];
    assert_eq!(region.entity_type, "Terraform::Data::aws_region");
    assert_eq!(region.attributes["mode"], "data");
    assert_eq!(
        observation.resources["network/module.dns"].attributes["resources"],
        1
    );
    assert_eq!(
        observation.resources["network/module.endpoints"].attributes["resources"],
        2
    );
    let legacy = &observation.resources["network/module.legacy.aws_s3_bucket.logs"];
    assert_eq!(legacy.entity_type, "Terraform::Resource::aws_s3_bucket");
    assert!(
        !observation
            .resources
            .contains_key("network/data.aws_caller_identity.retired"),
        "an undeclared data source is not an orphan"
    );
    assert_eq!(
        observation.queried["network/aws_nat_gateway.main"],
        "network: s3 s3://shop-tfstate/network.tfstate"
    );

    let everything = serde_json::to_string(&observation).unwrap();
    for secret in [
        "Sup3rS3cret-db-pw",
        "10.0.1.0/24",
        "arn:aws:iam",
        "0.0.0.0/0",
        "shop.abcdefghij",
        "team",
    ] {
        assert!(
            !everything.contains(secret),
            "`{secret}` from the state left the process"
        );
    }
}

#[tokio::test]
async fn terraform_init_runs_only_when_terraform_asks_for_it() {
    let project = project();
    let asks = FakeExec::new()
        .fails(
            "terraform show",
            1,
            "Error: Backend initialization required, please run \"terraform init\"",
        )
        .ok(
            "terraform init -input=false -no-color",
            "Terraform has been successfully initialized!",
        );
    let exec = Arc::new(asks);
    let lexicon = project.lexicon_with(CONFIG, exec.clone());
    let observation = observe(&lexicon).await;
    assert_eq!(
        exec.lines(),
        [
            "terraform show -json -no-color",
            "terraform init -input=false -no-color",
            "terraform show -json -no-color"
        ]
    );
    // The second show failed too: still every entity unobserved, never absent.
    let entry = &observation.unobserved["network/aws_vpc.main"];
    assert_eq!(entry.reason, UnobservedReason::ReadFailed);
    assert!(
        entry
            .detail
            .as_deref()
            .unwrap()
            .starts_with("root network: terraform show failed (exit 1)")
    );

    let healthy = Arc::new(recorded());
    let lexicon = project.lexicon_with(CONFIG, healthy.clone());
    observe(&lexicon).await;
    assert_eq!(
        healthy.lines(),
        ["terraform show -json -no-color"],
        "no init when none is needed"
    );
    let call = &healthy.calls()[0];
    assert_eq!(
        call.cwd.as_deref(),
        Some(project.path().join("infra/network").as_path())
    );
    assert!(call.env.contains(&("TF_IN_AUTOMATION".into(), "1".into())));
    assert!(call.timeout.is_some());
}

#[tokio::test]
async fn failures_map_to_reasons_and_never_to_absence() {
    let cases: [(FakeExec, UnobservedReason, &str); 4] = [
        (
            FakeExec::new().fails(
                "terraform show",
                1,
                "Error: Error acquiring the state lock\n\nLock Info:\n  ID: 1234\n",
            ),
            UnobservedReason::ReadFailed,
            "Error acquiring the state lock",
        ),
        (
            FakeExec::new().fails(
                "terraform show",
                1,
                "Error: Failed to get existing workspaces: operation error S3: ListObjectsV2, ExpiredToken: The provided token has expired.",
            ),
            UnobservedReason::NoCredentials,
            "ExpiredToken",
        ),
        (
            FakeExec::new().on("terraform show", Err(ExecError::NotFound("terraform".into()))),
            UnobservedReason::ReadFailed,
            "`terraform` was not found on PATH",
        ),
        (
            FakeExec::new().ok("terraform show", "{\"format_version\": \"1.0\", \"values\": {\"root_module\": 7}}"),
            UnobservedReason::ReadFailed,
            "a document this lexicon cannot read",
        ),
    ];
    for (exec, reason, needle) in cases {
        let project = project();
        let lexicon = project.lexicon_with(CONFIG, Arc::new(exec));
        let observation = observe(&lexicon).await;
        assert!(observation.resources.is_empty());
        for entity in lexicon.declared().await.unwrap() {
            let entry = observation
                .unobserved
                .get(&entity.name)
                .unwrap_or_else(|| panic!("{} is not unobserved", entity.name));
            let detail = entry.detail.as_deref().unwrap();
            if entity.entity_type.starts_with("Terraform::Resource") {
                assert_eq!(entry.reason, reason, "{detail}");
                assert!(detail.contains(needle), "{detail}");
                assert!(detail.starts_with("root network: "), "{detail}");
            }
        }
    }
}

#[tokio::test]
async fn a_throttled_read_is_retried() {
    let project = project();
    let exec = Arc::new(FakeExec::new().fails(
        "terraform show",
        1,
        "Error: ThrottlingException: Rate exceeded",
    ));
    let lexicon = project.lexicon_with(CONFIG, exec.clone());
    let observation = observe(&lexicon).await;
    assert_eq!(exec.lines().len(), 3);
    assert_eq!(
        observation.unobserved["network/aws_vpc.main"].reason,
        UnobservedReason::ReadFailed
    );
}

#[tokio::test]
async fn the_drift_plan_is_refresh_only_unlocked_and_never_json() {
    let project = project();
    project.write("env/dev.tfvars", "db_password = \"x\"\n");
    let render = "aws_vpc.main: Refreshing state... [id=vpc-0a1b2c3d4e5f60718]\n\nNote: Objects have changed outside of Terraform\n\n  # aws_vpc.main has changed\n  ~ resource \"aws_vpc\" \"main\" {\n      ~ tags = {\n          + \"owner\" = \"console\"\n        }\n    }\n";
    let exec = Arc::new(FakeExec::new().ok("terraform show -json", SHOW).on(
        "terraform plan",
        Ok(ExecOutput {
            code: Some(2),
            stdout: render.into(),
            stderr: String::new(),
        }),
    ));
    let config = format!(
        "{CONFIG}[environments.dev.terraform]\ndrift = true\nvar_files = [\"env/dev.tfvars\"]\n"
    );
    let lexicon = project.lexicon_with(&config, exec.clone());
    let observation = observe(&lexicon).await;
    let var_file = project.path().join("env/dev.tfvars");
    assert_eq!(
        exec.lines()[1],
        format!(
            "terraform plan -detailed-exitcode -lock=false -input=false -refresh-only -no-color -var-file={}",
            var_file.display()
        )
    );
    assert!(
        exec.lines()
            .iter()
            .filter(|l| l.contains(" plan "))
            .all(|l| !l.contains("-out") && !l.contains("-json"))
    );
    let note = observation
        .notes
        .iter()
        .find(|n| n.contains("drift"))
        .unwrap();
    assert!(
        note.starts_with("terraform root network: drift (plan -refresh-only found changes)\n"),
        "{note}"
    );
    assert!(note.contains("+ \"owner\" = \"console\""), "{note}");

    // Exit 1 is no answer, not "no drift".
    let broken = Arc::new(FakeExec::new().ok("terraform show -json", SHOW).fails(
        "terraform plan",
        1,
        "Error: Failed to load plugin schemas",
    ));
    let lexicon = project.lexicon_with(&config, broken);
    let observation = observe(&lexicon).await;
    assert!(
        observation.notes.iter().any(|n| n.contains(
            "drift not known: terraform plan failed (exit 1): Failed to load plugin schemas"
        )),
        "{:?}",
        observation.notes
    );

    // Off by default: no plan runs.
    let quiet = Arc::new(recorded());
    let lexicon = project.lexicon_with(CONFIG, quiet.clone());
    observe(&lexicon).await;
    assert!(quiet.lines().iter().all(|l| !l.contains("plan")));
}
