use crate::support::{Project, snapshot};

#[test]
fn import_writes_the_lexicons_own_source_and_warns_about_secrets() {
    let project = Project::shop();
    let run = project.chant(&["import", "--from", "dev", "-o", "imported"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr.contains("Live import may emit sensitive values"),
        "{}",
        run.stderr
    );
    snapshot("import_dev", &project, &run.transcript());
    let written: serde_json::Value =
        serde_json::from_str(&project.read("imported/declared.json")).unwrap();
    assert_eq!(written.as_array().unwrap().len(), 2);
}

#[test]
fn import_never_overwrites_without_force() {
    let project = Project::shop();
    project.write("imported/declared.json", "keep me");
    let run = project.chant(&["import", "--from", "dev", "-o", "imported"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stderr.contains("already exists, skipping"),
        "{}",
        run.stderr
    );
    assert_eq!(project.read("imported/declared.json"), "keep me");
    assert_eq!(
        project
            .chant(&["import", "--from", "dev", "-o", "imported", "--force"])
            .code,
        0
    );
    assert_ne!(project.read("imported/declared.json"), "keep me");
}

#[test]
fn import_honours_owned_and_the_selectors() {
    let project = Project::shop();
    assert_eq!(
        project
            .chant(&["import", "--from", "dev", "-o", "owned", "--owned"])
            .code,
        0
    );
    let owned: serde_json::Value =
        serde_json::from_str(&project.read("owned/declared.json")).unwrap();
    assert_eq!(owned[0]["name"], "web");
    assert_eq!(owned.as_array().unwrap().len(), 1);
    assert_eq!(
        project
            .chant(&[
                "import",
                "--from",
                "dev",
                "-o",
                "named",
                "--name",
                "their-bucket"
            ])
            .code,
        0
    );
    assert!(project.read("named/declared.json").contains("their-bucket"));
    let none = project.chant(&[
        "import",
        "--from",
        "dev",
        "-o",
        "none",
        "--type",
        "Demo::Nothing",
    ]);
    assert_eq!(none.code, 1);
    assert!(
        none.stderr
            .contains("No resources exported from environment \"dev\""),
        "{}",
        none.stderr
    );
}

#[test]
fn imported_source_reads_back_under_the_same_names_and_plans_as_noop() {
    let project = Project::shop();
    assert_eq!(
        project
            .chant(&["import", "--from", "dev", "-o", "imported", "--owned"])
            .code,
        0
    );
    project.write(
        "chant.toml",
        &project.read("chant.toml").replace(
            "source = \"declared.json\"",
            "source = \"imported/declared.json\"",
        ),
    );
    let plan = project
        .chant(&["lifecycle", "plan", "dev", "--json"])
        .json();
    let web = plan["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "web")
        .unwrap();
    assert_eq!(web["action"], "noop", "{web}");
}
