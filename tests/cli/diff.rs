use crate::support::{Project, snapshot};

#[test]
fn diff_live_reports_identity_and_property_drift() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "diff", "dev", "--live"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("diff_live_dev", &project, &run.transcript());
}

#[test]
fn diff_live_json_has_the_reference_shape_and_more() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "diff", "dev", "--live", "--json"]);
    let diff = run.json();
    assert_eq!(diff["schema"], "chant.diff/v1");
    let scripted = &diff["lexicons"]["scripted"];
    assert_eq!(
        scripted["resources"]["missing"],
        serde_json::json!(["cache"])
    );
    assert_eq!(
        scripted["resources"]["orphan"],
        serde_json::json!(["old-worker", "their-bucket"])
    );
    assert_eq!(
        scripted["resources"]["runtimeChildren"][0]["owner"],
        "worker"
    );
    assert_eq!(
        scripted["resources"]["unobserved"][0]["queried"],
        "/queues/queue"
    );
    assert_eq!(
        scripted["deep"]["drifted"][0]["changes"][0]["owner"],
        "hpa-controller"
    );
    assert_eq!(
        scripted["deep"]["unclaimed"][0]["changes"][0]["source"],
        "field-manager"
    );
    assert_eq!(
        scripted["observed"]["db"]["attributes"]["masterPassword"],
        "[REDACTED]"
    );
    snapshot("diff_live_dev_json", &project, &run.stdout);
}

#[test]
fn an_all_unobserved_estate_is_unknown_not_clean() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "diff", "prod", "--live", "--detailed-exitcode"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(run.stderr.contains("unknown, not clean"), "{}", run.stderr);
}

#[test]
fn drift_sets_the_detailed_exit_code() {
    let project = Project::shop();
    assert_eq!(
        project
            .chant(&["lifecycle", "diff", "dev", "--live", "--detailed-exitcode"])
            .code,
        2
    );
}

#[test]
fn the_accepted_baseline_silences_what_was_accepted_and_only_that() {
    let project = Project::shop();
    let accept = project.chant(&["lifecycle", "diff", "dev", "--live", "--update-baseline"]);
    assert_eq!(accept.code, 0, "{}", accept.transcript());
    assert!(
        accept
            .stderr
            .contains("accepted 2 deviation(s) into dev/observation-baseline.json"),
        "{}",
        accept.stderr
    );
    let files = project.lifecycle_files();
    let baseline = &files
        .iter()
        .find(|(p, _)| p == "dev/observation-baseline.json")
        .unwrap()
        .1;
    assert!(baseline.contains("\"path\": \"replicas\""), "{baseline}");

    let after = project
        .chant(&["lifecycle", "diff", "dev", "--live", "--json"])
        .json();
    let deep = &after["lexicons"]["scripted"]["deep"];
    assert_eq!(deep["drifted"], serde_json::json!([]), "{deep}");
    assert_eq!(deep["accepted"][0]["name"], "web");

    // A change away from the accepted value is drift again, with all three axes.
    project.write(
        "live/dev.json",
        &project
            .read("live/dev.json")
            .replace("\"replicas\": 3", "\"replicas\": 5"),
    );
    let moved = project
        .chant(&["lifecycle", "diff", "dev", "--live", "--json"])
        .json();
    let row = &moved["lexicons"]["scripted"]["deep"]["drifted"][0]["changes"][0];
    assert_eq!(
        (
            row["declared"].clone(),
            row["live"].clone(),
            row["baseline"].clone()
        ),
        (2.into(), 5.into(), 3.into())
    );
}

#[test]
fn nothing_to_accept_writes_nothing() {
    let project = Project::shop();
    project.write("live/dev.json", r#"{"resources": {}, "deep": {}}"#);
    let run = project.chant(&["lifecycle", "diff", "dev", "--live", "--update-baseline"]);
    assert!(run.stderr.contains("nothing to accept"), "{}", run.stderr);
    assert!(project.lifecycle_files().is_empty());
}

#[test]
fn the_digest_diff_compares_declarations_with_the_last_snapshot() {
    let project = Project::shop();
    assert_eq!(project.chant(&["lifecycle", "snapshot", "dev"]).code, 0);
    project.write(
        "declared.json",
        &project
            .read("declared.json")
            .replace("\"nodes\": 1", "\"nodes\": 2"),
    );
    let run = project.chant(&["lifecycle", "diff", "dev"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("diff_digest_dev", &project, &run.transcript());
    let json = project
        .chant(&["lifecycle", "diff", "dev", "--json"])
        .json();
    assert_eq!(
        json["lexicons"]["scripted"]["changed"],
        serde_json::json!(["cache"])
    );
}

#[test]
fn between_compares_two_recorded_snapshots() {
    let project = Project::shop();
    assert_eq!(project.chant(&["lifecycle", "snapshot", "dev"]).code, 0);
    project.write(
        "live/dev.json",
        &project
            .read("live/dev.json")
            .replace("\"status\": \"AVAILABLE\"", "\"status\": \"REBOOTING\""),
    );
    assert_eq!(project.chant(&["lifecycle", "snapshot", "dev"]).code, 0);
    let run = project.chant(&[
        "lifecycle",
        "diff",
        "dev",
        "--between",
        "chant/lifecycle~1",
        "chant/lifecycle",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("diff_between", &project, &run.transcript());
    let json = project
        .chant(&[
            "lifecycle",
            "diff",
            "dev",
            "--between",
            "chant/lifecycle~1",
            "chant/lifecycle",
            "--json",
        ])
        .json();
    assert_eq!(json["lexicons"]["scripted"]["changed"][0]["name"], "db");
}
