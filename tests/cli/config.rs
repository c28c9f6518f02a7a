//! Bad input: a diagnostic naming the file and line, exit 1, nothing written.

use crate::support::{Project, snapshot};

fn assert_diagnostic(project: &Project, args: &[&str], file: &str, line: usize) -> String {
    let run = project.chant(args);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(run.stderr.contains(file), "names {file}: {}", run.stderr);
    assert!(
        run.stderr.contains(&format!("{file}:{line}:")),
        "points at line {line}: {}",
        run.stderr
    );
    assert!(project.lifecycle_files().is_empty(), "nothing was written");
    run.stderr
}

#[test]
fn malformed_toml_names_the_file_and_line() {
    let project = Project::shop();
    project.write("chant.toml", "[ownership]\nstack = \"shop\n");
    let stderr = assert_diagnostic(&project, &["lifecycle", "snapshot", "dev"], "chant.toml", 2);
    snapshot("config_malformed", &project, &stderr);
}

#[test]
fn an_unknown_key_is_named_where_it_is() {
    let project = Project::shop();
    let text = project.read("chant.toml").replace(
        "live = \"live/dev.json\"",
        "live = \"live/dev.json\"\nregoin = \"eu\"",
    );
    project.write("chant.toml", &text);
    let stderr = assert_diagnostic(&project, &["lifecycle", "plan", "dev"], "chant.toml", 10);
    assert!(stderr.contains("regoin"), "{stderr}");
}

#[test]
fn a_wrong_type_is_named_where_it_is() {
    let project = Project::shop();
    project.write(
        "chant.toml",
        &project
            .read("chant.toml")
            .replace("stack = \"shop\"", "stack = 7"),
    );
    assert_diagnostic(&project, &["lifecycle", "plan", "dev"], "chant.toml", 3);
}

#[test]
fn an_unknown_lexicon_is_refused() {
    let project = Project::shop();
    project.write(
        "chant.toml",
        &format!("{}\n[lexicons.nimbus]\n", project.read("chant.toml")),
    );
    let stderr = assert_diagnostic(&project, &["lifecycle", "plan", "dev"], "chant.toml", 22);
    assert!(stderr.contains("unknown lexicon `nimbus`"), "{stderr}");
}

#[test]
fn an_unknown_environment_lists_the_defined_ones() {
    let project = Project::shop();
    let stderr = assert_diagnostic(
        &project,
        &["lifecycle", "snapshot", "staging"],
        "chant.toml",
        8,
    );
    assert!(stderr.contains("unknown environment `staging`"), "{stderr}");
    assert!(
        stderr.contains("defined environments: broken, dev, elsewhere, prod"),
        "{stderr}"
    );
    snapshot("config_unknown_env", &project, &stderr);
}

#[test]
fn a_missing_source_file_is_named() {
    let project = Project::shop();
    std::fs::remove_file(project.file("declared.json")).unwrap();
    let run = project.chant(&["lifecycle", "snapshot", "dev"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("declared.json"), "{}", run.stderr);
    assert!(project.lifecycle_files().is_empty());
}

#[test]
fn malformed_declared_json_names_the_file_and_line() {
    let project = Project::shop();
    project.write("declared.json", "[\n  {\"name\": \"web\", \"type\": \"Demo::Service\"},\n  {\"name\": \"db\" \"type\": \"x\"}\n]\n");
    assert_diagnostic(
        &project,
        &["lifecycle", "snapshot", "dev"],
        "declared.json",
        3,
    );
}

#[test]
fn no_project_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let run = crate::support::run_chant(Some(dir.path()), &["lifecycle", "plan", "dev"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("no chant.toml"), "{}", run.stderr);
}
