use crate::support::{Project, snapshot};

#[test]
fn whoami_prints_one_row_per_lexicon() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "whoami", "dev"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    snapshot("whoami_dev", &project, &run.transcript());
}

#[test]
fn an_unresolved_identity_is_a_row_with_its_reason_and_never_fails_the_command() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "whoami", "prod"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("unresolved: no credentials"),
        "{}",
        run.stdout
    );
    let json = project
        .chant(&["lifecycle", "whoami", "prod", "--json"])
        .json();
    assert_eq!(json["schema"], "chant.whoami/v1");
    assert_eq!(json["lexicons"][0]["state"], "unresolved");
    assert_eq!(json["lexicons"][0]["reason"], "no-credentials");
    let broken = project
        .chant(&["lifecycle", "whoami", "broken", "--json"])
        .json();
    assert_eq!(broken["lexicons"][0]["reason"], "read-failed");
}

#[test]
fn a_target_outside_the_allowed_ones_is_called_out() {
    let project = Project::shop();
    let run = project.chant(&["lifecycle", "whoami", "elsewhere"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stderr
            .contains("acct-2 is not among the allowed targets"),
        "{}",
        run.stderr
    );
    let json = project
        .chant(&["lifecycle", "whoami", "elsewhere", "--json"])
        .json();
    assert_eq!(json["lexicons"][0]["allowed"], false);
}
