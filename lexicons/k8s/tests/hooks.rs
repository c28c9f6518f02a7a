//! whoami, teardown, export + generate (import then plan is all noop), deep observation
//! and kustomize roots, against the fake API server.

mod common;

use chant::lifecycle::change_set::{Action, PlanInput, build_change_set};
use chant_k8s::K8sLexicon;
use chant_k8s::settings::{EnvironmentSettings, SourceSettings};
use chant_lexicon::{
    ExportRequest, IdentityAnswer, IdentityRequest, Lexicon, ProjectMarker, ResourceSelector,
    StackStatusRequest, TeardownRequest, UnobservedReason,
};
use chant_testkit::FakeExec;
use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use common::{OURS, SIBLING, config_map, project, project_with, request};
use std::collections::BTreeMap;
use std::sync::Arc;

const PINNED: &str = "context = \"fake\"\nnamespace = \"shop\"";

#[tokio::test]
async fn whoami_reports_the_subject_and_the_server_the_reads_use() {
    let server = FakeKubeApi::start_tls();
    server.require_token("t0ken-value").user(
        "t0ken-value",
        "system:serviceaccount:shop:deployer",
        &["system:serviceaccounts"],
    );
    server.seed_yaml(&config_map("a", Some("shop"), ""));
    let spec = KubeconfigSpec::new("fake")
        .namespace("shop")
        .token("t0ken-value");
    let p = project_with(&server, &config_map("a", None, ""), PINNED, "", &spec);
    let answer = whoami(&p.lexicon).await;
    let IdentityAnswer::Resolved(identity) = answer else {
        panic!("unresolved: {answer:?}");
    };
    assert!(
        identity
            .identity
            .starts_with("system:serviceaccount:shop:deployer")
    );
    assert_eq!(identity.endpoint.as_deref(), Some(server.url().as_str()));
    assert!(identity.scope.contains("context fake") && identity.scope.contains("namespace shop"));
    assert!(identity.source.contains("environments.dev.k8s.context"));
    let printed = serde_json::to_string(&identity).unwrap();
    assert!(!printed.contains("t0ken-value"));

    // The reads go to the same server.
    server.clear_requests();
    let req = request(&p).await;
    let obs = p
        .lexicon
        .describe_resources(&req)
        .await
        .unwrap()
        .normalize();
    assert!(obs.resources.contains_key("configMapA"));
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert!(
        paths.contains(&"/api/v1/namespaces/shop/configmaps/a".to_owned()),
        "{paths:?}"
    );

    let wrong = project_with(
        &server,
        &config_map("a", None, ""),
        PINNED,
        "",
        &KubeconfigSpec::new("fake").token("nope"),
    );
    let answer = whoami(&wrong.lexicon).await;
    assert!(
        matches!(
            answer,
            IdentityAnswer::Unresolved {
                reason: UnobservedReason::NoCredentials,
                ..
            }
        ),
        "{answer:?}"
    );
}

async fn whoami(lexicon: &Arc<dyn Lexicon>) -> IdentityAnswer {
    lexicon
        .describe_identity(&IdentityRequest {
            environment: "dev".into(),
            region: None,
        })
        .await
        .unwrap()
}

fn teardown_request(declared: &[&str]) -> TeardownRequest {
    TeardownRequest {
        environment: "dev".into(),
        project: ProjectMarker::new("shop", "dev"),
        declared: declared.iter().map(|d| (*d).to_owned()).collect(),
        stack: None,
        region: None,
    }
}

#[tokio::test]
async fn teardown_plans_owned_undeclared_objects_and_deletes_them_after_a_dry_run() {
    let server = FakeKubeApi::start();
    let deployment = format!(
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: old\n  namespace: shop\n  labels:\n    {OURS}\n"
    );
    server.seed_yaml(&format!(
        "{}{}{}{}{deployment}",
        config_map("kept", Some("shop"), OURS),
        config_map("orphan", Some("shop"), OURS),
        config_map("sibling", Some("shop"), SIBLING),
        config_map("unmarked", Some("shop"), ""),
    ));
    let p = project(&server, &config_map("kept", None, OURS), PINNED);
    let request = teardown_request(&["configMapKept"]);
    let plan = p.lexicon.teardown_owned(&request).await.unwrap();
    let names: Vec<&str> = plan.candidates.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["deploymentOld", "configMapOrphan"],
        "workloads go first"
    );
    assert_eq!(plan.candidates[0].depends_on, ["configMapOrphan"]);
    assert!(plan.holes.is_empty(), "{:?}", plan.holes);

    server.clear_requests();
    let outcome = p.lexicon.execute_teardown(&request, &plan).await.unwrap();
    assert_eq!(outcome.deleted, ["deploymentOld", "configMapOrphan"]);
    let deletes: Vec<String> = server
        .requests()
        .iter()
        .filter(|r| r.method == "DELETE")
        .map(|r| {
            format!(
                "{} {}",
                r.path,
                r.query.get("dryRun").map_or("real", |_| "dry")
            )
        })
        .collect();
    assert_eq!(
        deletes,
        [
            "/apis/apps/v1/namespaces/shop/deployments/old dry",
            "/api/v1/namespaces/shop/configmaps/orphan dry",
            "/apis/apps/v1/namespaces/shop/deployments/old real",
            "/api/v1/namespaces/shop/configmaps/orphan real",
        ]
    );
    assert!(
        server
            .requests()
            .iter()
            .filter(|r| r.method == "DELETE")
            .all(|r| r.query["propagationPolicy"] == "Foreground")
    );
    assert!(
        server
            .object("v1", "ConfigMap", "shop", "sibling")
            .is_some()
    );
    assert!(server.object("v1", "ConfigMap", "shop", "kept").is_some());
}

#[tokio::test]
async fn teardown_reports_unlistable_kinds_as_holes_and_refuses_other_targets() {
    let server = FakeKubeApi::start();
    server.fault(
        chant_testkit::kube_api::Fault::on("/api/v1/secrets").status(
            403,
            "Forbidden",
            "secrets is forbidden",
        ),
    );
    let p = project(
        &server,
        &config_map("kept", None, OURS),
        &format!("{PINNED}\nallowed_targets = [\"https://prod.example:6443\"]"),
    );
    let request = teardown_request(&["configMapKept"]);
    let plan = p.lexicon.teardown_owned(&request).await.unwrap();
    let hole = plan
        .holes
        .iter()
        .find(|h| h.kind == "K8s::Core::Secret")
        .expect("a hole for secrets");
    assert_eq!(hole.reason, UnobservedReason::NoCredentials);
    let refused = p
        .lexicon
        .execute_teardown(&request, &plan)
        .await
        .unwrap_err();
    assert!(
        refused.to_string().contains("not in its allowed_targets"),
        "{refused}"
    );
}

#[tokio::test]
async fn an_import_followed_by_a_plan_is_all_noop() {
    let server = FakeKubeApi::start();
    server.seed_yaml(&format!(
        "{}{}{}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    {OURS}\nspec:\n  replicas: 2\nstatus:\n  replicas: 2\n  readyReplicas: 2\n---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-1\n  namespace: shop\n  ownerReferences: [{{uid: x, controller: true, kind: Deployment, name: web, apiVersion: apps/v1}}]\n",
        config_map("app", Some("shop"), OURS),
        config_map("app", Some("other"), OURS),
        config_map("foreign", Some("shop"), SIBLING),
    ));
    let p = project(&server, &config_map("placeholder", None, ""), PINNED);
    let export = p
        .lexicon
        .export_resources(&ExportRequest {
            environment: "dev".into(),
            project: ProjectMarker::new("shop", "dev"),
            selector: ResourceSelector::default(),
            owned: true,
            verbatim: false,
            stack: None,
            region: None,
        })
        .await
        .unwrap();
    let names: Vec<&str> = export
        .ir()
        .resources
        .iter()
        .map(|r| r.logical_id.as_str())
        .collect();
    assert_eq!(
        names,
        ["configMapApp.other", "configMapApp.shop", "deploymentWeb"]
    );
    let files = p.lexicon.generate_source(&export).unwrap();
    assert_eq!(files.len(), 1);
    assert!(!files[0].content.contains("resourceVersion"));

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("imported.yaml"), &files[0].content).unwrap();
    let settings: SourceSettings = toml::from_str("source = [\"imported.yaml\"]").unwrap();
    let env: EnvironmentSettings = toml::from_str(&format!(
        "kubeconfig = \"{}\"\ncontext = \"fake\"",
        p.dir.path().join("kubeconfig").display()
    ))
    .unwrap();
    let imported = K8sLexicon::new(
        dir.path().to_path_buf(),
        settings,
        BTreeMap::from([("dev".to_owned(), env)]),
        Arc::new(FakeExec::new()),
    );
    let declared = imported.declared().await.unwrap();
    let declared_names: Vec<String> = declared.iter().map(|e| e.name.clone()).collect();
    assert_eq!(declared_names, names);
    let mut req = request(&p).await;
    req.entities = Arc::new(declared);
    let obs = imported.describe_resources(&req).await.unwrap().normalize();
    let entries = build_change_set(&PlanInput {
        lexicon: "k8s",
        declared: &declared_names,
        now: &obs,
        then: None,
        property_drift: None,
    });
    let declared_entries: Vec<_> = entries
        .iter()
        .filter(|e| declared_names.contains(&e.name))
        .collect();
    assert_eq!(declared_entries.len(), 3);
    assert!(
        declared_entries.iter().all(|e| e.action == Action::Noop),
        "{entries:?}"
    );
}

#[tokio::test]
async fn deep_observation_carries_field_owners_and_no_managed_fields() {
    let server = FakeKubeApi::start();
    server.seed_yaml(&format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: shop\n  labels:\n    {OURS}\n  managedFields:\n  - manager: chant:shop\n    operation: Apply\n    fieldsV1:\n      f:data:\n        f:k: {{}}\n  - manager: kubectl-edit\n    operation: Update\n    fieldsV1:\n      f:data:\n        f:extra: {{}}\ndata:\n  k: v\n  extra: x\n"
    ));
    let p = project(&server, &config_map("a", None, OURS), PINNED);
    let req = request(&p).await;
    let deep = p.lexicon.observe_resources_deep(&req).await.unwrap();
    let a = &deep.resources["configMapA"];
    assert_eq!(a.field_owners["data.k"], "chant:shop");
    assert_eq!(a.field_owners["data.extra"], "kubectl-edit");
    assert!(a.properties["metadata"].get("managedFields").is_none());
    assert_eq!(a.properties["data"]["extra"], "x");
}

#[tokio::test]
async fn kustomize_roots_render_through_the_exec_seam() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("overlay")).unwrap();
    std::fs::write(
        dir.path().join("overlay/kustomization.yaml"),
        "resources: []\n",
    )
    .unwrap();
    let rendered =
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-kustomize\n  namespace: shop\n";
    let exec = FakeExec::new().ok("kubectl kustomize", rendered);
    let settings: SourceSettings = toml::from_str("kustomize = [\"overlay\"]").unwrap();
    let lexicon = K8sLexicon::new(
        dir.path().to_path_buf(),
        settings,
        BTreeMap::new(),
        Arc::new(exec),
    );
    let declared = lexicon.declared().await.unwrap();
    assert_eq!(declared[0].name, "configMapFromKustomize");
    assert!(declared[0].origin.as_ref().unwrap().ends_with("overlay"));

    let failing = FakeExec::new().fails(
        "kubectl kustomize",
        1,
        "error: accumulating resources: boom\n",
    );
    let settings: SourceSettings = toml::from_str("kustomize = [\"overlay\"]").unwrap();
    let lexicon = K8sLexicon::new(
        dir.path().to_path_buf(),
        settings,
        BTreeMap::new(),
        Arc::new(failing),
    );
    let err = lexicon.declared().await.unwrap_err();
    assert!(
        err.message.contains("accumulating resources: boom"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn stack_status_counts_ready_workloads_by_the_stack_label() {
    let server = FakeKubeApi::start();
    let deployment = |name: &str, ready: u32| {
        format!(
            "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: shop\n  labels:\n    {OURS}\nspec:\n  replicas: 2\nstatus:\n  replicas: 2\n  readyReplicas: {ready}\n"
        )
    };
    server.seed_yaml(&format!(
        "{}{}{}",
        deployment("a", 2),
        deployment("b", 1),
        config_map("other", Some("shop"), SIBLING)
    ));
    let p = project(&server, &config_map("a", None, ""), PINNED);
    let status = |stack: &str| StackStatusRequest {
        environment: "dev".into(),
        stack: stack.into(),
    };
    let shop = p
        .lexicon
        .describe_stack_status(&status("shop"))
        .await
        .unwrap()
        .unwrap();
    assert!(shop.present);
    assert_eq!(shop.status.as_deref(), Some("1/2 workloads ready"));
    assert_eq!(shop.healthy, Some(false));
    let none = p
        .lexicon
        .describe_stack_status(&status("nothing"))
        .await
        .unwrap()
        .unwrap();
    assert!(!none.present);
    server.fault(chant_testkit::kube_api::Fault::under("/api").status(
        500,
        "InternalError",
        "down",
    ));
    assert_eq!(
        p.lexicon
            .describe_stack_status(&status("shop"))
            .await
            .unwrap(),
        None
    );
}
