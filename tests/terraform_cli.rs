//! The chant binary end to end with the terraform lexicon on real terraform: one healthy
//! root (a local backend, applied by the test's setup) beside one whose http backend
//! nothing answers. `diff --live` and `plan` classify exactly as the observation seed
//! says, and nothing from the state or a plan reaches stdout, stderr or the snapshot branch.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

const SECRET: &str = "hunter2-do-not-leak";

const MODULE: &str =
    "variable \"n\" {}\nresource \"terraform_data\" \"inner\" {\n  input = var.n\n}\n";

fn network(plain: &str, secret: &str) -> String {
    format!(
        r#"terraform {{
  backend "local" {{
    path = "state/terraform.tfstate"
  }}
}}
variable "secret" {{
  default   = "{secret}"
  sensitive = true
}}
resource "terraform_data" "one" {{
  input = var.secret
}}
resource "terraform_data" "many" {{
  count = 2
  input = count.index
}}
module "inner" {{
  source = "../../modules/inner"
  n      = "x"
}}
output "secret_out" {{
  value     = var.secret
  sensitive = true
}}
output "plain" {{
  value = "{plain}"
}}
"#
    )
}

struct Estate {
    dir: tempfile::TempDir,
}

impl Estate {
    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn isolation(&self) -> [(&'static str, String); 3] {
        [
            ("HOME", self.path().join(".home").display().to_string()),
            (
                "TF_CLI_CONFIG_FILE",
                self.path().join(".terraformrc").display().to_string(),
            ),
            ("CHECKPOINT_DISABLE", "1".to_owned()),
        ]
    }

    fn terraform(&self, root: &str, args: &[&str]) {
        let output = std::process::Command::new("terraform")
            .args(args)
            .current_dir(self.path().join(root))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .envs(self.isolation())
            .output()
            .expect("terraform is installed (see .ci/install.d/terraform.sh)");
        assert!(
            output.status.success(),
            "terraform {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    fn chant(&self, args: &[&str]) -> Run {
        let output = Command::new(env!("CARGO_BIN_EXE_chant"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("NO_COLOR", "1")
            .env("COLUMNS", "120")
            .envs(self.isolation())
            .arg("-C")
            .arg(self.path())
            .args(args)
            .output()
            .expect("the chant binary runs");
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn lifecycle_files(&self) -> Vec<(String, String)> {
        let repo = git2::Repository::open(self.path()).unwrap();
        let Ok(reference) = repo.find_reference("refs/heads/chant/lifecycle") else {
            return Vec::new();
        };
        let tree = reference.peel_to_tree().unwrap();
        let mut files = Vec::new();
        tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
            if let Ok(blob) = entry.to_object(&repo).and_then(|o| o.peel_to_blob()) {
                files.push((
                    format!("{dir}{}", entry.name().unwrap_or_default()),
                    String::from_utf8_lossy(blob.content()).into_owned(),
                ));
            }
            git2::TreeWalkResult::Ok
        })
        .unwrap();
        files
    }
}

/// `network` applied with a `retired` block the configuration then drops, and a
/// `pending` resource added after the apply; `edge` behind an http backend on a closed
/// port, its URL carrying a password.
fn estate() -> Estate {
    let estate = Estate {
        dir: tempfile::tempdir().unwrap(),
    };
    std::fs::create_dir_all(estate.path().join(".home")).unwrap();
    estate.write(".terraformrc", "");
    estate.write(".gitignore", ".home/\n.terraform/\nstate/\n*.tfstate\n");
    estate.write("modules/inner/main.tf", MODULE);
    estate.write("infra/network/main.tf", &network("v1", SECRET));
    estate.write(
        "infra/network/retired.tf",
        "resource \"terraform_data\" \"retired\" {}\n",
    );
    estate.terraform("infra/network", &["init", "-input=false", "-no-color"]);
    estate.terraform(
        "infra/network",
        &["apply", "-auto-approve", "-input=false", "-no-color"],
    );
    std::fs::remove_file(estate.path().join("infra/network/retired.tf")).unwrap();
    estate.write(
        "infra/network/pending.tf",
        "resource \"terraform_data\" \"pending\" {}\n",
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    estate.write(
        "infra/edge/main.tf",
        &format!(
            "terraform {{\n  backend \"http\" {{\n    address   = \"http://ops:s3cret@127.0.0.1:{port}/state\"\n    retry_max = 0\n  }}\n}}\nresource \"terraform_data\" \"gateway\" {{}}\nresource \"terraform_data\" \"routes\" {{\n  count = 3\n}}\n"
        ),
    );
    estate.write(
        "chant.toml",
        "[ownership]\nstack = \"shop\"\n\n[lexicons.terraform]\nroots = [\"infra/network\", \"infra/edge\"]\n\n[environments.dev.terraform]\ndrift = true\n",
    );
    let repo = git2::Repository::init(estate.path()).unwrap();
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = git2::Signature::now("test", "test@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &signature, &signature, "fixture", &tree, &[])
        .unwrap();
    estate
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn transcript(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.transcript()))
    }
}

fn snapshot(name: &str, estate: &Estate, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.add_filter(
        &regex::escape(&estate.path().display().to_string()),
        "[PROJECT]",
    );
    settings.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]");
    settings.add_filter(
        r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
        "[UUID]",
    );
    settings.add_filter(
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})",
        "[TIMESTAMP]",
    );
    settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// `(name, action)` for every change-set entry in a plan's JSON.
fn actions(value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            if let (Some(Value::String(name)), Some(Value::String(action))) =
                (map.get("name"), map.get("action"))
            {
                out.push((name.clone(), action.clone()));
            }
            map.values().for_each(|v| actions(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| actions(v, out)),
        _ => {}
    }
}

#[test]
fn diff_live_and_plan_classify_a_healthy_root_beside_a_broken_one() {
    let estate = estate();
    let diff = estate.chant(&["lifecycle", "diff", "dev", "--live"]);
    assert_eq!(diff.code, 0, "{}", diff.transcript());
    snapshot("terraform_diff_live", &estate, &diff.transcript());

    let plan = estate.chant(&["lifecycle", "plan", "dev"]);
    snapshot("terraform_plan", &estate, &plan.transcript());
    let json = estate.chant(&["lifecycle", "plan", "dev", "--json"]);
    assert_eq!(json.code, 0, "{}", json.transcript());
    let mut found = Vec::new();
    actions(&json.json(), &mut found);
    found.sort();
    found.dedup();
    let action_of = |name: &str| {
        found
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a.as_str())
    };
    assert_eq!(action_of("network/terraform_data.pending"), Some("create"));
    assert_eq!(action_of("network/terraform_data.retired"), Some("delete"));
    assert_eq!(action_of("network/terraform_data.one"), Some("noop"));
    assert_eq!(action_of("network/terraform_data.many"), Some("noop"));
    assert_eq!(action_of("network/module.inner"), Some("noop"));
    assert_eq!(action_of("network/var.secret"), Some("unobserved"));
    for name in [
        "edge/terraform_data.gateway",
        "edge/terraform_data.routes",
        "edge/terraform",
    ] {
        assert_eq!(action_of(name), Some("unobserved"), "{name}: {found:?}");
    }
    assert!(
        found
            .iter()
            .all(|(name, action)| !(name.starts_with("edge/") && action == "create")),
        "a root whose read failed proposed a create: {found:?}"
    );

    let detailed = estate.chant(&["lifecycle", "plan", "dev", "--detailed-exitcode"]);
    assert_eq!(detailed.code, 2, "{}", detailed.transcript());
}

#[test]
fn no_state_value_or_plan_json_reaches_output_or_the_snapshot_branch() {
    let estate = estate();
    // Move the outputs so the refresh-only plan has something to render — including a
    // sensitive one whose new value is itself a secret.
    estate.write(
        "infra/network/main.tf",
        &network("v2", "another-secret-value"),
    );
    let runs = [
        estate.chant(&["lifecycle", "diff", "dev", "--live"]),
        estate.chant(&["lifecycle", "diff", "dev", "--live", "--json"]),
        estate.chant(&["lifecycle", "plan", "dev", "--json"]),
        estate.chant(&["lifecycle", "snapshot", "dev"]),
        estate.chant(&["lifecycle", "whoami", "dev", "--json"]),
    ];
    assert!(
        runs[0]
            .stderr
            .contains("terraform root network: drift (plan -refresh-only found changes)"),
        "the drift signal did not run: {}",
        runs[0].transcript()
    );
    assert!(runs[0].stderr.contains("~ plain"), "{}", runs[0].stderr);
    assert_eq!(runs[3].code, 0, "{}", runs[3].transcript());
    let stored = estate.lifecycle_files();
    assert_eq!(
        stored.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        ["dev/terraform.json"]
    );
    let mut everything: Vec<(String, String)> = stored;
    for (i, run) in runs.iter().enumerate() {
        everything.push((format!("run {i} stdout"), run.stdout.clone()));
        everything.push((format!("run {i} stderr"), run.stderr.clone()));
    }
    for (place, text) in &everything {
        for leaked in [
            SECRET,
            "another-secret-value",
            "s3cret",
            "resource_changes",
            "planned_values",
            "output_changes",
            "\"format_version\"",
            "\"sensitive_values\"",
        ] {
            assert!(
                !text.contains(leaked),
                "`{leaked}` reached {place}:\n{text}"
            );
        }
    }
}
