use crate::support::{Project, snapshot};

#[test]
fn snapshot_show_and_log_round_trip() {
    let project = Project::shop();
    let taken = project.chant(&["lifecycle", "snapshot", "dev", "--deep"]);
    assert_eq!(taken.code, 0, "{}", taken.transcript());
    assert!(
        taken.stderr.contains("Snapshot saved to chant/lifecycle"),
        "{}",
        taken.stderr
    );
    let files = project.lifecycle_files();
    assert_eq!(
        files.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        vec!["dev/scripted.json"]
    );
    let stored: serde_json::Value = serde_json::from_str(&files[0].1).unwrap();
    assert_eq!(stored["schema"], "chant.snapshot/v1");
    assert_eq!(stored["depth"], "deep");
    assert_eq!(stored["unobserved"]["queue"]["reason"], "read-failed");
    assert!(files[0].1.ends_with("}\n"));
    assert_eq!(
        stored["resources"]["shared-network"]["referencedBy"],
        serde_json::json!(["web", "worker"])
    );
    assert!(
        stored["resources"].get("the-whole-account").is_none(),
        "a dependency with no referrer is dropped"
    );
    assert!(
        taken
            .stderr
            .contains("dropped dependency the-whole-account"),
        "{}",
        taken.stderr
    );

    let show = project.chant(&["lifecycle", "show", "dev"]);
    assert_eq!(show.code, 0, "{}", show.transcript());
    snapshot("show_dev", &project, &show.transcript());

    let log = project.chant(&["lifecycle", "log"]);
    assert_eq!(log.code, 0);
    snapshot("log", &project, &log.transcript());
}

#[test]
fn an_environment_where_nothing_could_be_read_is_never_snapshotted() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "snapshot", "prod"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("not snapshotting an unread environment as empty"),
        "{}",
        run.stderr
    );
    assert!(project.lifecycle_files().is_empty());
    snapshot("snapshot_prod_refused", &project, &run.transcript());
}

#[test]
fn show_and_log_say_when_there_is_nothing() {
    let project = Project::shop();
    let show = project.chant(&["lifecycle", "show", "dev"]);
    assert_eq!(show.code, 1);
    assert!(
        show.stderr
            .contains("No snapshots found for environment \"dev\""),
        "{}",
        show.stderr
    );
    let log = project.chant(&["lifecycle", "log"]);
    assert_eq!(log.code, 1);
    assert!(log.stderr.contains("No state snapshots found"));
}

#[test]
fn the_snapshot_branch_never_moves_head_or_the_work_tree() {
    let project = Project::shop();
    let repo = git2::Repository::open(project.path()).unwrap();
    let head = repo.head().unwrap();
    let (branch, commit) = (head.name().unwrap().to_owned(), head.target().unwrap());
    project.write("scratch.txt", "uncommitted");
    assert_eq!(project.chant(&["lifecycle", "snapshot", "dev"]).code, 0);
    let head = repo.head().unwrap();
    assert_eq!(
        (head.name().unwrap(), head.target().unwrap()),
        (branch.as_str(), commit)
    );
    assert_eq!(project.read("scratch.txt"), "uncommitted");
    assert!(
        repo.statuses(None)
            .unwrap()
            .iter()
            .all(|s| s.path().ok() == Some("scratch.txt"))
    );
}
