use crate::support::{Project, snapshot};

#[test]
fn plan_proposes_every_action_and_says_what_it_could_not_see() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "plan", "dev"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("plan_dev", &project, &run.transcript());
}

#[test]
fn plan_json_carries_a_schema_every_entry_and_the_census() {
    let project = Project::shop();
    let run = project.chant(&["lc", "plan", "dev", "--json"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let plan = run.json();
    assert_eq!(plan["schema"], "chant.plan/v1");
    assert_eq!(plan["complete"], false);
    let action = |name: &str| {
        plan["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("{name}"))["action"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(action("cache"), "create");
    assert_eq!(action("web"), "update");
    assert_eq!(action("old-worker"), "delete");
    assert_eq!(action("their-bucket"), "adopt");
    assert_eq!(action("worker-7f9c"), "runtime");
    assert_eq!(action("worker"), "noop");
    assert_eq!(action("queue"), "unobserved");
    assert_eq!(
        action("db"),
        "noop",
        "a masked secret compares by presence, never as drift"
    );
    let web = plan["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "web")
        .unwrap();
    assert_eq!(web["deltas"][0]["path"], "replicas");
    assert_eq!(web["disruption"]["disruption"], "rolling");
    assert!(
        !web["deltas"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["path"] == "labels.team"),
        "an unclaimed field is never an update"
    );
    let queue = plan["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "queue")
        .unwrap();
    assert_eq!(queue["unobservedReason"], "read-failed");
    assert_eq!(queue["queried"], "/queues/queue");
    assert_eq!(plan["census"][0]["declared"], 5);
    snapshot("plan_dev_json", &project, &run.stdout);
}

#[test]
fn the_gitlab_report_counts_only_changes() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "plan", "dev", "--report", "gitlab-mr"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, "{\"create\":1,\"update\":1,\"delete\":1}\n");
}

#[test]
fn detailed_exit_codes_say_changes_and_incomplete_apart() {
    let project = Project::shop();
    assert_eq!(
        project
            .chant(&["lifecycle", "plan", "dev", "--detailed-exitcode"])
            .code,
        2
    );
    let prod = project.chant(&["lifecycle", "plan", "prod", "--detailed-exitcode"]);
    assert_eq!(prod.code, 3, "{}", prod.transcript());
    assert_eq!(project.chant(&["lifecycle", "plan", "prod"]).code, 0);
}

#[test]
fn expired_credentials_make_every_entity_unobserved_never_a_create() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "plan", "prod", "--json"]);
    let plan = run.json();
    for entry in plan["entries"].as_array().unwrap() {
        assert_eq!(entry["action"], "unobserved", "{entry}");
        assert_eq!(entry["unobservedReason"], "no-credentials");
    }
    assert!(
        run.stderr.contains("This plan is incomplete, not clean."),
        "{}",
        run.stderr
    );
    snapshot(
        "plan_prod",
        &project,
        &project.chant(&["lifecycle", "plan", "prod"]).transcript(),
    );
}

#[test]
fn a_lexicon_that_fails_as_a_whole_is_read_failed_for_every_entity() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "plan", "broken"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("0 create"), "{}", run.stdout);
    assert!(run.stdout.contains("5 unobserved"), "{}", run.stdout);
    assert!(run.stderr.contains("not as absent"), "{}", run.stderr);
    snapshot("plan_broken", &project, &run.transcript());
}

#[test]
fn owned_withholds_what_is_not_this_projects() {
    let project = Project::shop();
    project.write(
        "live/dev.json",
        &project.read("live/dev.json").replace(
            r#""worker": {"type": "Demo::Service", "status": "READY", "physicalId": "svc-worker", "marker": {"stack": "shop", "env": "dev"}}"#,
            r#""worker": {"type": "Demo::Service", "status": "READY", "physicalId": "svc-worker", "marker": {"stack": "blog", "env": "dev"}}"#,
        ),
    );
    let plan = project
        .chant(&["lifecycle", "plan", "dev", "--owned", "--json"])
        .json();
    let worker = plan["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "worker")
        .unwrap();
    assert_eq!(worker["action"], "unobserved");
    assert_eq!(worker["unobservedReason"], "filtered");
    assert!(
        !plan["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "their-bucket")
    );
}
