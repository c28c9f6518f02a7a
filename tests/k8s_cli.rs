//! The chant binary end to end with the k8s lexicon against the testkit's fake API server
//! (real HTTPS, a bearer token, the real kube client): diff --live, plan, whoami,
//! teardown and import --from, human and JSON output snapshotted.

#[allow(dead_code)]
#[path = "cli/support.rs"]
mod support;

use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use support::Project;

const MARKER: &str = "    app.kubernetes.io/managed-by: chant\n    chant.intentius.io/stack: shop\n    chant.intentius.io/env: dev\n";

fn config_map(name: &str, marked: bool) -> String {
    let labels = if marked {
        format!("  labels:\n{MARKER}")
    } else {
        String::new()
    };
    format!(
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: shop\n{labels}data:\n  color: blue\n"
    )
}

struct Cluster {
    server: FakeKubeApi,
    project: Project,
}

/// The `k8s` fixture declares web, settings, flags (live, ours) and missing (absent);
/// the cluster also holds an owned orphan and an unmarked object. HTTPS with a token.
fn cluster() -> Cluster {
    let server = FakeKubeApi::start_tls();
    server.require_token("cli-token").user(
        "cli-token",
        "system:serviceaccount:shop:deployer",
        &["system:serviceaccounts"],
    );
    server.seed_yaml(&format!(
        "{}{}{}{}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n{MARKER}spec:\n  replicas: 2\nstatus:\n  replicas: 2\n  readyReplicas: 2\n",
        config_map("settings", true),
        config_map("flags", true),
        config_map("orphan", true),
        config_map("blog", false),
    ));
    let project = Project::fixture("k8s");
    project.write(
        "kubeconfig",
        &server.kubeconfig(
            &KubeconfigSpec::new("fake")
                .namespace("shop")
                .token("cli-token"),
        ),
    );
    project.write(
        "chant.toml",
        &format!(
            "[ownership]\nstack = \"shop\"\n\n[lexicons.k8s]\nsource = [\"dist/*.yaml\"]\n\n[environments.dev.k8s]\ncontext = \"fake\"\nnamespace = \"shop\"\nkubeconfig = \"kubeconfig\"\nallowed_targets = [\"{}\"]\n",
            server.url()
        ),
    );
    project.commit_all("bind to the fake cluster");
    Cluster { server, project }
}

fn chant(cluster: &Cluster, args: &[&str]) -> support::Run {
    cluster.project.chant(args)
}

/// The shared snapshot filters, plus the fake server's port.
fn snapshot(name: &str, cluster: &Cluster, text: &str) {
    let port = cluster.server.addr().port().to_string();
    support::snapshot(name, &cluster.project, &text.replace(&port, "[PORT]"));
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
fn diff_live_sends_each_list_once_for_the_thin_and_the_deep_read() {
    let cluster = cluster();
    // Latency keeps each LIST under way while the other read asks for the same one.
    cluster
        .server
        .latency(std::time::Duration::from_millis(100));
    let json = chant(&cluster, &["lifecycle", "diff", "dev", "--live", "--json"]);
    assert!(json.stdout.contains("\"deep\""), "{}", json.stdout);
    let lists: Vec<String> = cluster
        .server
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET" && r.query.contains_key("limit"))
        .map(|r| format!("{}?{:?}", r.path, r.query))
        .collect();
    let configmaps = "/api/v1/namespaces/shop/configmaps";
    assert!(
        lists.iter().any(|l| l.starts_with(configmaps)),
        "{lists:#?}"
    );
    let unique: std::collections::BTreeSet<&String> = lists.iter().collect();
    assert_eq!(
        unique.len(),
        lists.len(),
        "a LIST was sent twice: {lists:#?}"
    );
}

#[test]
fn diff_live_reads_thin_and_deep_in_the_namespace_given() {
    let cluster = cluster();
    cluster.server.seed_yaml(
        &[config_map("settings", true), config_map("flags", true)]
            .concat()
            .replace("namespace: shop", "namespace: staging"),
    );
    cluster.server.clear_requests();
    let args = [
        "lifecycle",
        "diff",
        "dev",
        "--live",
        "--json",
        "--namespace",
        "staging",
    ];
    let json = chant(&cluster, &args).json();
    let paths: Vec<String> = cluster
        .server
        .requests()
        .into_iter()
        .map(|r| r.path)
        .collect();
    assert!(
        paths.iter().all(|p| !p.contains("/namespaces/shop/")),
        "the fixture declares no namespace: {paths:#?}"
    );
    let deep = &json["lexicons"]["k8s"]["deep"];
    assert_eq!(
        deep["unchanged"],
        serde_json::json!(["configMapFlags", "configMapSettings"]),
        "the deep read found them where the thin read did: {deep:#}"
    );
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
    let unlabelled: Vec<String> = cluster
        .server
        .requests()
        .into_iter()
        .filter(|r| r.query.contains_key("limit") && !r.query.contains_key("labelSelector"))
        .map(|r| r.path)
        .collect();
    assert!(
        unlabelled.is_empty(),
        "teardown lists by marker only, so nothing is listed ahead: {unlabelled:?}"
    );
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
    let out = cluster.project.file("imported");
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
