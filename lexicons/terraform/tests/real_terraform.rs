//! Stock roots on real terraform: `terraform_data` roots with a local backend, applied by
//! the test's own setup in a temp dir, then observed through the lexicon.

mod common;

use chant_lexicon::{
    IdentityAnswer, IdentityRequest, Lexicon, Observation, Ownership, UnobservedReason,
};
use chant_testkit::{Scenario, assert_observation_conformance};
use common::{Project, closed_port, request};
use std::sync::Arc;

const SECRET: &str = "hunter2-do-not-leak";

const MODULE: &str = r#"
variable "n" {}
resource "terraform_data" "inner" {
  input = var.n
}
"#;

fn network_config() -> String {
    format!(
        r#"
terraform {{
  backend "local" {{
    path = "state/terraform.tfstate"
  }}
}}
variable "secret" {{
  default   = "{SECRET}"
  sensitive = true
}}
locals {{
  name = "net"
}}
resource "terraform_data" "one" {{
  input = var.secret
}}
resource "terraform_data" "many" {{
  count = 2
  input = count.index
}}
resource "terraform_data" "each" {{
  for_each = toset(["a", "b"])
  input    = each.key
}}
module "inner" {{
  source = "../modules/inner"
  n      = "x"
}}
data "terraform_remote_state" "peer" {{
  backend = "local"
  config = {{
    path = "peer.tfstate"
  }}
}}
output "secret_out" {{
  value     = var.secret
  sensitive = true
}}
output "plain" {{
  value = "v1"
}}
"#
    )
}

const PEER_STATE: &str = r#"{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"peer","outputs":{},"resources":[]}"#;

/// A healthy root, applied with a `retired` block that the configuration then drops, and
/// a `pending` resource and a `later` module added after the apply.
fn healthy(project: &Project) {
    project.write("modules/inner/main.tf", MODULE);
    project.write("network/main.tf", &network_config());
    project.write("network/peer.tfstate", PEER_STATE);
    project.write(
        "network/retired.tf",
        "resource \"terraform_data\" \"retired\" {}\n",
    );
    project.apply("network");
    project.remove("network/retired.tf");
    project.write(
        "network/later.tf",
        "resource \"terraform_data\" \"pending\" {}\nmodule \"later\" {\n  source = \"../modules/inner\"\n  n      = \"y\"\n}\n",
    );
}

/// A root whose backend nothing answers (and whose URL carries a password).
fn broken(project: &Project) {
    project.write(
        "edge/main.tf",
        &format!(
            "terraform {{\n  backend \"http\" {{\n    address   = \"http://user:s3cret@127.0.0.1:{}/state\"\n    retry_max = 0\n  }}\n}}\nresource \"terraform_data\" \"edge\" {{}}\nvariable \"v\" {{}}\n",
            closed_port()
        ),
    );
}

const TWO_ROOTS: &str =
    "[ownership]\nstack = \"shop\"\n[lexicons.terraform]\nroots = [\"network\", \"edge\"]\n";

#[tokio::test]
async fn a_healthy_root_next_to_a_broken_one_conforms() {
    let project = Project::new();
    healthy(&project);
    broken(&project);
    let lexicon = project.real_lexicon(TWO_ROOTS);
    let plain = request(&lexicon, false).await;
    let owned = request(&lexicon, true).await;
    let channel = lexicon.ownership_channel();
    let scenarios = vec![
        Scenario::new(
            "one healthy root, one broken backend",
            plain.entities.to_vec(),
            lexicon.describe_resources(&plain),
        )
        .present(&[
            "network/terraform_data.one",
            "network/terraform_data.many",
            "network/terraform_data.each",
            "network/module.inner",
            "network/data.terraform_remote_state.peer",
            "network/terraform_data.retired",
        ])
        .absent(&["network/terraform_data.pending", "network/module.later"])
        .unobserved(
            &[
                "network/terraform",
                "network/var.secret",
                "network/locals",
                "network/output.secret_out",
                "network/output.plain",
            ],
            UnobservedReason::UnsupportedKind,
        )
        .unobserved(
            &["edge/terraform_data.edge", "edge/terraform", "edge/var.v"],
            UnobservedReason::ReadFailed,
        )
        .ownership("network/terraform_data.one", Ownership::Owned)
        .ownership("network/terraform_data.many", Ownership::Owned)
        .ownership("network/terraform_data.retired", Ownership::Owned)
        .ownership("network/module.inner", Ownership::Unknown)
        .no_marker(&["network/terraform_data.one", "network/module.inner"]),
        Scenario::new(
            "--owned withholds the module block",
            owned.entities.to_vec(),
            lexicon.describe_resources(&owned),
        )
        .owned()
        .present(&["network/terraform_data.one"])
        .unobserved(&["network/module.inner"], UnobservedReason::Filtered),
    ];
    assert_observation_conformance("terraform", channel.as_ref(), scenarios).await;
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
async fn observed_resources_carry_identity_only_and_never_foreign() {
    let project = Project::new();
    healthy(&project);
    broken(&project);
    let lexicon = project.real_lexicon(TWO_ROOTS);
    let observation = observe(&lexicon).await;

    assert!(
        observation
            .resources
            .values()
            .all(|m| m.ownership() != Ownership::Foreign),
        "a stock root never says foreign"
    );
    let one = &observation.resources["network/terraform_data.one"];
    assert_eq!(one.entity_type, "Terraform::Resource::terraform_data");
    assert!(one.physical_id.as_ref().is_some_and(|id| id.len() == 36));
    let keys: Vec<&str> = one.attributes.keys().map(String::as_str).collect();
    assert_eq!(keys, ["address", "mode", "provider", "root", "type"]);
    assert_eq!(one.attributes["provider"], "terraform.io/builtin/terraform");

    let many = &observation.resources["network/terraform_data.many"];
    let instances = many.attributes["instances"].as_object().unwrap();
    assert_eq!(
        instances.keys().collect::<Vec<_>>(),
        ["terraform_data.many[0]", "terraform_data.many[1]"]
    );
    let each = &observation.resources["network/terraform_data.each"];
    assert_eq!(each.attributes["instances"].as_object().unwrap().len(), 2);

    let edge = &observation.unobserved["edge/terraform_data.edge"];
    let detail = edge.detail.as_deref().unwrap();
    assert!(detail.starts_with("root edge: "), "{detail}");
    assert!(
        edge.queried
            .as_deref()
            .unwrap()
            .starts_with("edge: http http://***@127.0.0.1")
    );

    let queried = &observation.queried["network/terraform_data.pending"];
    assert!(queried.starts_with("network: local "), "{queried}");
    assert!(
        queried.ends_with("network/state/terraform.tfstate"),
        "{queried}"
    );

    let everything = serde_json::to_string(&observation).unwrap();
    assert!(
        !everything.contains(SECRET),
        "a state value left the process"
    );
    assert!(
        !everything.contains("s3cret"),
        "a backend password left the process"
    );
    assert!(
        !everything.contains("\"input\""),
        "state values left the process"
    );
}

#[tokio::test]
async fn a_missing_workspace_is_no_binding_and_is_not_created() {
    let project = Project::new();
    healthy(&project);
    let config = "[lexicons.terraform]\nroots = [\"network\"]\n[environments.dev.terraform]\nworkspace = \"nope\"\n";
    let lexicon = project.real_lexicon(config);
    let observation = observe(&lexicon).await;
    let entry = &observation.unobserved["network/terraform_data.one"];
    assert_eq!(entry.reason, UnobservedReason::NoBinding);
    assert!(
        entry
            .detail
            .as_deref()
            .unwrap()
            .contains("workspace `nope` does not exist")
    );
    assert!(observation.resources.is_empty());
    assert!(
        !project
            .path()
            .join("network/terraform.tfstate.d/nope")
            .exists()
    );
}

#[tokio::test]
async fn the_drift_signal_reports_yes_no_and_the_render_only() {
    let project = Project::new();
    healthy(&project);
    let config =
        "[lexicons.terraform]\nroots = [\"network\"]\n[environments.dev.terraform]\ndrift = true\n";
    let lexicon = project.real_lexicon(config);

    // The applied configuration dropped `retired`, and a refresh-only plan of that is
    // no drift: the world did not move.
    let calm = observe(&lexicon).await;
    assert!(
        calm.notes
            .iter()
            .any(|n| n == "terraform root network: no drift (plan -refresh-only found no changes)"),
        "{:?}",
        calm.notes
    );

    // Outputs move the refresh-only plan: a changed value and a changed secret.
    let moved = network_config()
        .replace("value = \"v1\"", "value = \"v2\"")
        .replace(SECRET, "another-secret-value");
    project.write("network/main.tf", &moved);
    let drifted = observe(&lexicon).await;
    let note = drifted
        .notes
        .iter()
        .find(|n| n.starts_with("terraform root network: drift"))
        .unwrap_or_else(|| panic!("{:?}", drifted.notes));
    assert!(note.contains("~ plain"), "{note}");
    assert!(note.contains("(sensitive value)"), "{note}");
    assert!(!note.contains("Refreshing state"), "{note}");

    let everything = serde_json::to_string(&drifted).unwrap();
    for leaked in [
        SECRET,
        "another-secret-value",
        "resource_changes",
        "planned_values",
        "output_changes",
    ] {
        assert!(!everything.contains(leaked), "`{leaked}` left the process");
    }
    let plan_files: Vec<_> = std::fs::read_dir(project.path().join("network"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with("plan"))
        .collect();
    assert!(plan_files.is_empty(), "a plan file was written");
}

#[tokio::test]
async fn identity_names_the_backend_and_workspace_or_why_not() {
    let project = Project::new();
    healthy(&project);
    broken(&project);
    let healthy_only = project.real_lexicon("[lexicons.terraform]\nroots = [\"network\"]\n");
    let request = IdentityRequest {
        environment: "dev".into(),
        region: None,
    };
    let IdentityAnswer::Resolved(identity) =
        healthy_only.describe_identity(&request).await.unwrap()
    else {
        panic!("expected a resolved identity");
    };
    assert!(
        identity.identity.starts_with("network: local "),
        "{}",
        identity.identity
    );
    assert_eq!(identity.scope, "network (workspace default)");
    let state = project.path().join("network/state/terraform.tfstate");
    assert_eq!(
        identity.endpoint.as_deref(),
        Some(state.display().to_string().as_str())
    );

    let both = project.real_lexicon(TWO_ROOTS);
    match both.describe_identity(&request).await.unwrap() {
        IdentityAnswer::Unresolved { reason, detail } => {
            assert_eq!(reason, UnobservedReason::ReadFailed);
            let detail = detail.unwrap();
            assert!(
                detail.starts_with("root edge: terraform init failed"),
                "{detail}"
            );
            assert!(!detail.contains("s3cret"), "{detail}");
        }
        other => panic!("expected unresolved, got {other:?}"),
    }
}
