use crate::support::{Project, snapshot};

#[test]
fn teardown_is_a_read_only_plan_by_default() {
    let project = Project::shop();
    let before = project.read("live/dev.json");
    let run = project.chant(&["lifecycle", "teardown", "dev"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(project.read("live/dev.json"), before);
    snapshot("teardown_dev_plan", &project, &run.transcript());
    let json = project
        .chant(&["lifecycle", "teardown", "dev", "--json"])
        .json();
    assert_eq!(json["schema"], "chant.teardown/v1");
    let candidates: Vec<&str> = json["lexicons"][0]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        candidates,
        vec!["old-worker"],
        "never a declared object, a runtime child or another stack's"
    );
    assert_eq!(json["lexicons"][0]["holes"][0]["kind"], "Demo::Queue");
}

#[test]
fn execute_needs_the_environment_typed_exactly() {
    let project = Project::shop();
    let run = project.chant(&[
        "lifecycle",
        "teardown",
        "dev",
        "--execute",
        "--confirm",
        "prod",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("--confirm must name the environment exactly: `dev`"),
        "{}",
        run.stderr
    );
    let missing = project.chant(&["lifecycle", "teardown", "dev", "--execute"]);
    assert_eq!(
        missing.code, 2,
        "clap refuses --execute without --confirm: {}",
        missing.stderr
    );
}

#[test]
fn execute_refuses_a_target_the_environment_does_not_allow() {
    let project = Project::shop();
    let before = project.read("live/elsewhere.json");
    let run = project.chant(&[
        "lifecycle",
        "teardown",
        "elsewhere",
        "--execute",
        "--confirm",
        "elsewhere",
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("acting as acct-2 is not among the allowed targets (acct-1)"),
        "{}",
        run.stderr
    );
    assert_eq!(
        project.read("live/elsewhere.json"),
        before,
        "nothing was deleted"
    );
}

#[test]
fn execute_refuses_an_environment_without_allowed_targets() {
    let project = Project::shop();
    let run = project.chant(&[
        "lifecycle",
        "teardown",
        "prod",
        "--execute",
        "--confirm",
        "prod",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("names no allowed targets"),
        "{}",
        run.stderr
    );
}

#[test]
fn execute_deletes_only_verified_candidates_and_the_next_plan_agrees() {
    let project = Project::shop();
    let run = project.chant(&[
        "lifecycle",
        "teardown",
        "dev",
        "--execute",
        "--confirm",
        "dev",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("teardown_dev_execute", &project, &run.transcript());
    let live: serde_json::Value = serde_json::from_str(&project.read("live/dev.json")).unwrap();
    assert!(live["resources"].get("old-worker").is_none());
    assert!(
        live["resources"].get("their-bucket").is_some(),
        "another stack's object is never deleted"
    );
    assert!(
        live["resources"].get("worker-7f9c").is_some(),
        "a runtime child is never deleted"
    );
    let plan = project
        .chant(&["lifecycle", "plan", "dev", "--json"])
        .json();
    assert!(
        !plan["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["action"] == "delete")
    );
}
