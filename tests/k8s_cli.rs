//! The chant binary end to end with the k8s lexicon against the testkit's fake API server
//! (real HTTPS, a bearer token, the real kube client): diff --live, plan, whoami,
//! teardown and import --from, human and JSON output snapshotted.

use assert_cmd::Command;
use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use std::path::Path;

const MARKER: &str = "    app.kubernetes.io/managed-by: chant\n    chant.intentius.io/stack: shop\n    chant.intentius.io/env: dev\n";

fn config_map(name: &str, namespace: Option<&str>, marked: bool) -> String {
    let ns = namespace
        .map(|n| format!("  namespace: {n}\n"))
        .unwrap_or_default();
    let labels = if marked {
        format!("  labels:\n{MARKER}")
    } else {
        String::new()
    };
    format!(
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n{ns}{labels}data:\n  color: blue\n"
    )
}

struct Cluster {
    server: FakeKubeApi,
    dir: tempfile::TempDir,
}

/// Declared: web (live, ours), settings (live, ours), missing (absent). Live also holds
/// an owned orphan and a sibling stack's object.
fn cluster() -> Cluster {
    let server = FakeKubeApi::start_tls();
    server.require_token("cli-token").user(
        "cli-token",
        "system:serviceaccount:shop:deployer",
        &["system:serviceaccounts"],
    );
    server.seed_yaml(&format!(
        "{}{}{}{}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n{MARKER}spec:\n  replicas: 2\nstatus:\n  replicas: 2\n  readyReplicas: 2\n",
        config_map("settings", Some("shop"), true),
        config_map("flags", Some("shop"), true),
        config_map("orphan", Some("shop"), true),
        config_map("blog", Some("shop"), false),
    ));
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("dist")).unwrap();
    std::fs::write(
        root.join("dist/app.yaml"),
        format!(
            "{}{}{}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n{MARKER}spec:\n  replicas: 2\n",
            config_map("settings", None, true),
            config_map("flags", None, true),
            config_map("missing", None, true),
        ),
    )
    .unwrap();
    server.write_kubeconfig(
        &root.join("kubeconfig"),
        &KubeconfigSpec::new("fake")
            .namespace("shop")
            .token("cli-token"),
    );
    std::fs::write(
        root.join("chant.toml"),
        format!(
            "[ownership]\nstack = \"shop\"\n\n[lexicons.k8s]\nsource = [\"dist/*.yaml\"]\n\n[environments.dev.k8s]\ncontext = \"fake\"\nnamespace = \"shop\"\nkubeconfig = \"kubeconfig\"\nallowed_targets = [\"{}\"]\n",
            server.url()
        ),
    )
    .unwrap();
    init_repository(root);
    Cluster { server, dir }
}

fn init_repository(root: &Path) {
    let repo = git2::Repository::init(root).unwrap();
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = git2::Signature::now("test", "test@example.invalid").unwrap();
    repo.commit(Some("HEAD"), &signature, &signature, "fixture", &tree, &[])
        .unwrap();
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

    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.transcript()))
    }
}

fn chant(cluster: &Cluster, args: &[&str]) -> Run {
    let root = cluster.dir.path();
    let output = Command::new(env!("CARGO_BIN_EXE_chant"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", root)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "120")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .expect("the chant binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn snapshot(name: &str, cluster: &Cluster, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    let path = cluster.dir.path().display().to_string();
    settings.add_filter(&regex::escape(&path), "[PROJECT]");
    settings.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]");
    settings.add_filter(
        r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})",
        "[TIMESTAMP]",
    );
    settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    settings.add_filter(r"(?m)^[0-9a-f]{7}  ", "[SHORT]  ");
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn diff_live_reads_the_cluster() {
    let cluster = cluster();
    let human = chant(&cluster, &["lifecycle", "diff", "dev", "--live"]);
    snapshot("k8s_diff_live", &cluster, &human.transcript());
    let json = chant(&cluster, &["lifecycle", "diff", "dev", "--live", "--json"]);
    snapshot("k8s_diff_live_json", &cluster, &json.stdout);
    let text = json.stdout;
    assert!(
        text.contains("deploymentWeb") && text.contains("configMapMissing"),
        "{text}"
    );
    assert!(!text.contains("cli-token"));
}

#[test]
fn plan_proposes_create_for_absent_and_delete_only_for_owned_orphans() {
    let cluster = cluster();
    let human = chant(&cluster, &["lifecycle", "plan", "dev"]);
    snapshot("k8s_plan", &cluster, &human.transcript());
    let json = chant(&cluster, &["lifecycle", "plan", "dev", "--json"]);
    snapshot("k8s_plan_json", &cluster, &json.stdout);
    let plan = json.json();
    let action = |name: &str| {
        plan["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .map(|e| e["action"].as_str().unwrap().to_owned())
    };
    assert_eq!(action("configMapMissing").as_deref(), Some("create"));
    assert_eq!(action("configMapOrphan").as_deref(), Some("delete"));
    assert_eq!(
        action("configMapBlog").as_deref(),
        Some("adopt"),
        "a sibling's object is never a delete"
    );
    assert_eq!(action("deploymentWeb").as_deref(), Some("noop"));
}

#[test]
fn whoami_names_the_subject_and_the_server() {
    let cluster = cluster();
    let human = chant(&cluster, &["lifecycle", "whoami", "dev"]);
    assert_eq!(human.code, 0, "{}", human.transcript());
    assert!(
        human.stdout.contains("system:serviceaccount:shop:deployer"),
        "{}",
        human.transcript()
    );
    snapshot("k8s_whoami", &cluster, &human.transcript());
    let json = chant(&cluster, &["lifecycle", "whoami", "dev", "--json"]);
    snapshot("k8s_whoami_json", &cluster, &json.stdout);
    assert!(!json.stdout.contains("cli-token"));
}

#[test]
fn teardown_plans_then_executes_against_owned_orphans_only() {
    let cluster = cluster();
    let plan = chant(&cluster, &["lifecycle", "teardown", "dev"]);
    snapshot("k8s_teardown_plan", &cluster, &plan.transcript());
    assert!(
        plan.stdout.contains("configMapOrphan"),
        "{}",
        plan.transcript()
    );
    assert!(!plan.stdout.contains("configMapBlog"));
    let executed = chant(
        &cluster,
        &[
            "lifecycle",
            "teardown",
            "dev",
            "--execute",
            "--confirm",
            "dev",
        ],
    );
    snapshot("k8s_teardown_execute", &cluster, &executed.transcript());
    assert_eq!(cluster.server.deleted(), ["configmaps/shop/orphan"]);
}

#[test]
fn import_then_plan_is_all_noop() {
    let cluster = cluster();
    let out = cluster.dir.path().join("imported");
    let import = chant(
        &cluster,
        &[
            "import",
            "--from",
            "dev",
            "--owned",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    snapshot("k8s_import", &cluster, &import.transcript());
    assert_eq!(import.code, 0, "{}", import.transcript());
    let written = std::fs::read_to_string(out.join("k8s/imported.yaml")).unwrap();
    assert!(
        written.contains("name: orphan") && !written.contains("name: blog"),
        "{written}"
    );
}
