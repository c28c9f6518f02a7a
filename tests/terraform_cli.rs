//! The chant binary end to end with the terraform lexicon on real terraform, on the
//! `terraform` fixture: `infra/network` (a local backend, applied by the test's setup with
//! a `retired` block the configuration then drops, and a `pending` resource added after)
//! beside `infra/edge`, whose http backend nothing answers. `diff --live` and `plan`
//! classify exactly as the observation seed says, and nothing from the state or a plan
//! reaches stdout, stderr or the snapshot branch.
//!
//! The binary runs with `HOME` = the project, so terraform reads the fixture's empty
//! `.terraformrc` and nothing of the machine's.

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use support::{Project, snapshot};

const SECRET: &str = "hunter2-do-not-leak";

fn terraform(project: &Project, root: &str, args: &[&str]) {
    let output = std::process::Command::new("terraform")
        .args(args)
        .current_dir(project.file(root))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", project.path())
        .env("CHECKPOINT_DISABLE", "1")
        .output()
        .expect("terraform is installed (see .ci/install.d/terraform.sh)");
    assert!(
        output.status.success(),
        "terraform {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn estate() -> Project {
    let project = Project::fixture("terraform");
    terraform(
        &project,
        "infra/network",
        &["init", "-input=false", "-no-color"],
    );
    terraform(
        &project,
        "infra/network",
        &["apply", "-auto-approve", "-input=false", "-no-color"],
    );
    std::fs::remove_file(project.file("infra/network/retired.tf")).unwrap();
    project.write(
        "infra/network/pending.tf",
        "resource \"terraform_data\" \"pending\" {}\n",
    );
    project
}

#[test]
fn diff_live_and_plan_classify_a_healthy_root_beside_a_broken_one() {
    let project = estate();
    let diff = project.chant(&["lifecycle", "diff", "dev", "--live"]);
    assert_eq!(diff.code, 0, "{}", diff.transcript());
    snapshot("terraform_diff_live", &project, &diff.transcript());

    let plan = project.chant(&["lifecycle", "plan", "dev"]);
    snapshot("terraform_plan", &project, &plan.transcript());
    let json = project.chant(&["lifecycle", "plan", "dev", "--json"]);
    assert_eq!(json.code, 0, "{}", json.transcript());
    let json = json.json();
    let entries = json["entries"].as_array().expect("plan entries");
    let action_of = |name: &str| {
        entries
            .iter()
            .find(|e| e["name"] == name)
            .and_then(|e| e["action"].as_str())
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
        assert_eq!(action_of(name), Some("unobserved"), "{name}");
    }
    assert!(
        entries.iter().all(
            |e| !(e["name"].as_str().is_some_and(|n| n.starts_with("edge/"))
                && e["action"] == "create")
        ),
        "a root whose read failed proposed a create"
    );

    let detailed = project.chant(&["lifecycle", "plan", "dev", "--detailed-exitcode"]);
    assert_eq!(detailed.code, 2, "{}", detailed.transcript());
}

#[test]
fn no_state_value_or_plan_json_reaches_output_or_the_snapshot_branch() {
    let project = estate();
    // Move the outputs so the refresh-only plan has something to render — including a
    // sensitive one whose new value is itself a secret.
    let moved = project
        .read("infra/network/main.tf")
        .replace("\"v1\"", "\"v2\"")
        .replace(SECRET, "another-secret-value");
    project.write("infra/network/main.tf", &moved);
    let runs = [
        project.chant(&["lifecycle", "diff", "dev", "--live"]),
        project.chant(&["lifecycle", "diff", "dev", "--live", "--json"]),
        project.chant(&["lifecycle", "plan", "dev", "--json"]),
        project.chant(&["lifecycle", "snapshot", "dev"]),
        project.chant(&["lifecycle", "whoami", "dev", "--json"]),
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
    let stored = project.lifecycle_files();
    assert_eq!(
        stored.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        ["dev/terraform.json"]
    );
    let mut everything = stored;
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
