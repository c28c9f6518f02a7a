//! describe_resources against the fake API server: the LIST fast path and its GET
//! fallback, queried addresses, namespace defaulting, orphans, runtime children, and the
//! binding's refusals.

mod common;

use chant_lexicon::{DescribeResult, Observation, OwnerChain, Ownership, UnobservedReason};
use chant_testkit::kube_api::{FakeKubeApi, Fault, KubeconfigSpec};
use common::{OURS, config_map, project, project_with, request};

const PINNED: &str = "context = \"fake\"\nnamespace = \"shop\"";

fn observed(result: DescribeResult) -> Observation {
    result.normalize()
}

#[tokio::test]
async fn objects_sharing_a_kind_and_namespace_are_read_with_one_list() {
    let server = FakeKubeApi::start();
    let declared: String = (0..5)
        .map(|i| config_map(&format!("c{i}"), None, OURS))
        .collect();
    let live: String = (0..5)
        .map(|i| config_map(&format!("c{i}"), Some("shop"), OURS))
        .collect();
    server.seed_yaml(&live);
    server.seed_yaml(&config_map("stray", Some("shop"), OURS));
    let p = project(&server, &declared, PINNED);
    let req = request(&p).await;
    server.clear_requests();
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    for i in 0..5 {
        assert_eq!(obs.resources[&format!("configMapC{i}")].status, "PRESENT");
    }
    assert_eq!(
        obs.queried["configMapC0"],
        "/api/v1/namespaces/shop/configmaps"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].path, "/api/v1/namespaces/shop/configmaps");
    assert!(!requests[0].query.contains_key("labelSelector"));
    // The undeclared object the LIST returned is reported, owned, so plan can delete it.
    let stray = &obs.resources["configMapStray"];
    assert_eq!(stray.ownership(), Ownership::Owned);
}

#[tokio::test]
async fn an_owned_orphan_beside_one_declared_object_is_found_by_its_marker() {
    let server = FakeKubeApi::start();
    server.seed_yaml(&config_map("settings", Some("shop"), OURS));
    server.seed_yaml(&config_map("retired", Some("shop"), OURS));
    server.seed_yaml(&config_map("theirs", Some("shop"), common::SIBLING));
    server.seed_yaml(&config_map("unmarked", Some("shop"), ""));
    let p = project(&server, &config_map("settings", None, OURS), PINNED);
    let req = request(&p).await;
    server.clear_requests();
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());

    // The one declared object is still read with a GET, at its own address.
    assert_eq!(obs.resources["configMapSettings"].status, "PRESENT");
    assert_eq!(
        obs.queried["configMapSettings"],
        "/api/v1/namespaces/shop/configmaps/settings"
    );
    // The owned object nothing declares any more is reported, owned, so plan deletes it;
    // another stack's and an unmarked one are not listed at all.
    assert_eq!(
        obs.resources["configMapRetired"].ownership(),
        Ownership::Owned
    );
    assert!(!obs.resources.contains_key("configMapTheirs"));
    assert!(!obs.resources.contains_key("configMapUnmarked"));
    assert_eq!(obs.resources.len(), 2, "{:?}", obs.resources.keys());

    let requests = server.requests();
    let listed: Vec<_> = requests
        .iter()
        .filter(|r| r.path == "/api/v1/namespaces/shop/configmaps")
        .collect();
    assert_eq!(listed.len(), 1, "{requests:?}");
    assert_eq!(
        listed[0].query.get("labelSelector").map(String::as_str),
        Some(
            "app.kubernetes.io/managed-by=chant,chant.intentius.io/stack=shop,chant.intentius.io/env=dev"
        )
    );
}

#[tokio::test]
async fn a_failed_orphan_listing_is_a_note_and_never_hides_the_declared_read() {
    let server = FakeKubeApi::start();
    server.seed_yaml(&config_map("settings", Some("shop"), OURS));
    server.fault(
        Fault::on("/api/v1/namespaces/shop/configmaps")
            .method("GET")
            .status(403, "Forbidden", "list is forbidden"),
    );
    let p = project(&server, &config_map("settings", None, OURS), PINNED);
    let req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    assert_eq!(obs.resources["configMapSettings"].status, "PRESENT");
    assert!(
        obs.notes
            .iter()
            .any(|n| n.contains("configmaps") && n.contains("no longer declared")),
        "{:?}",
        obs.notes
    );
}

#[tokio::test]
async fn a_forbidden_list_falls_back_to_gets() {
    let server = FakeKubeApi::start();
    let declared = format!("{}{}", config_map("a", None, ""), config_map("b", None, ""));
    server.seed_yaml(&config_map("a", Some("shop"), ""));
    server.fault(
        Fault::on("/api/v1/namespaces/shop/configmaps")
            .method("GET")
            .status(403, "Forbidden", "list is forbidden"),
    );
    let p = project(&server, &declared, PINNED);
    let req = request(&p).await;
    server.clear_requests();
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    assert!(obs.resources.contains_key("configMapA"));
    assert!(
        !obs.resources.contains_key("configMapB") && !obs.unobserved.contains_key("configMapB")
    );
    assert_eq!(
        obs.queried["configMapB"],
        "/api/v1/namespaces/shop/configmaps/b"
    );
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
}

#[tokio::test]
async fn namespace_defaulting_is_visible_and_the_cli_namespace_is_only_a_default() {
    let server = FakeKubeApi::start();
    let declared = format!(
        "{}{}",
        config_map("a", None, ""),
        config_map("b", Some("pinned"), "")
    );
    let p = project(&server, &declared, "context = \"fake\"");
    let mut req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    // Context namespace (the kubeconfig says shop) for a, the declared one for b.
    assert_eq!(
        obs.queried["configMapA"],
        "/api/v1/namespaces/shop/configmaps/a"
    );
    assert_eq!(
        obs.queried["configMapB"],
        "/api/v1/namespaces/pinned/configmaps/b"
    );
    req.namespace = Some("cli".into());
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    assert_eq!(
        obs.queried["configMapA"],
        "/api/v1/namespaces/cli/configmaps/a"
    );
    assert_eq!(
        obs.queried["configMapB"],
        "/api/v1/namespaces/pinned/configmaps/b"
    );
}

#[tokio::test]
async fn status_words_conditions_and_runtime_children() {
    let server = FakeKubeApi::start();
    let deployment = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 3\n";
    server.seed_yaml(&format!(
        "{deployment}status:\n  replicas: 3\n  readyReplicas: 1\n  conditions:\n  - type: Available\n    status: \"False\"\n    reason: MinimumReplicasUnavailable\n"
    ));
    let web = server
        .object("apps/v1", "Deployment", "shop", "web")
        .unwrap();
    let uid = web["metadata"]["uid"].as_str().unwrap().to_owned();
    server.seed_yaml(&format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-abc\n  namespace: shop\n  uid: rs-1\n  ownerReferences:\n  - {{apiVersion: apps/v1, kind: Deployment, name: web, uid: {uid}, controller: true}}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-abc-1\n  namespace: shop\n  ownerReferences:\n  - {{apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, uid: rs-1, controller: true}}\nstatus:\n  phase: Running\n  containerStatuses:\n  - state: {{waiting: {{reason: CrashLoopBackOff}}}}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: loner\n  namespace: shop\nstatus:\n  phase: Running\n"
    ));
    let p = project(&server, deployment, PINNED);
    let req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    let web = &obs.resources["deploymentWeb"];
    assert_eq!(web.status, "PROGRESSING(1/3)");
    assert_eq!(
        web.attributes["conditions"][0],
        "Available=MinimumReplicasUnavailable"
    );
    assert_eq!(web.ownership(), Ownership::Foreign);
    let declared = OwnerChain::Declared {
        entity: "deploymentWeb".into(),
    };
    assert_eq!(
        obs.resources["ReplicaSet/shop/web-abc"].owner_chain,
        Some(declared.clone())
    );
    let pod = &obs.resources["Pod/shop/web-abc-1"];
    assert_eq!(pod.owner_chain, Some(declared));
    assert_eq!(pod.status, "CrashLoopBackOff");
    assert_eq!(
        obs.resources["Pod/shop/loner"].owner_chain,
        Some(OwnerChain::Unowned)
    );
}

#[tokio::test]
async fn a_missing_pinned_context_is_no_binding_and_never_another_context() {
    let server = FakeKubeApi::start();
    server.seed_yaml(&config_map("a", Some("shop"), ""));
    let p = project(&server, &config_map("a", None, ""), "context = \"prod\"");
    let req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    let entry = &obs.unobserved["configMapA"];
    assert_eq!(entry.reason, UnobservedReason::NoBinding);
    assert!(
        entry
            .detail
            .as_deref()
            .unwrap()
            .contains("no context named \"prod\" (it has \"fake\")")
    );
    assert_eq!(server.request_count(), 0);
}

#[tokio::test]
async fn an_unpinned_environment_reads_the_current_context_and_says_so() {
    let server = FakeKubeApi::start();
    server.seed_yaml(&config_map("a", Some("shop"), ""));
    let p = project(&server, &config_map("a", None, ""), "");
    let req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    assert!(obs.resources.contains_key("configMapA"));
    assert_eq!(obs.notes.len(), 1);
    assert!(obs.notes[0].contains("no cluster binding for environment \"dev\""));
}

#[tokio::test]
async fn a_disallowed_exec_plugin_is_refused_before_any_request() {
    let server = FakeKubeApi::start();
    let spec = KubeconfigSpec::new("fake").exec("/opt/bin/credential-thief");
    let p = project_with(&server, &config_map("a", None, ""), PINNED, "", &spec);
    let req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    let entry = &obs.unobserved["configMapA"];
    assert_eq!(entry.reason, UnobservedReason::NoCredentials);
    assert!(
        entry
            .detail
            .as_deref()
            .unwrap()
            .contains("\"/opt/bin/credential-thief\"")
    );
    assert_eq!(server.request_count(), 0);

    // chant.toml's list replaces the default one.
    let allowed = project_with(
        &server,
        &config_map("a", None, ""),
        PINNED,
        "allowed_exec_plugins = [\"aws\"]",
        &KubeconfigSpec::new("fake").exec("kubelogin"),
    );
    let req = request(&allowed).await;
    let obs = observed(allowed.lexicon.describe_resources(&req).await.unwrap());
    assert!(
        obs.unobserved["configMapA"]
            .detail
            .as_deref()
            .unwrap()
            .contains("\"kubelogin\"")
    );
}

#[tokio::test]
async fn throttling_is_retried_then_answered() {
    let server = FakeKubeApi::start();
    server.seed_yaml(&config_map("a", Some("shop"), ""));
    server.fault(
        Fault::on("/api/v1/namespaces/shop/configmaps/a")
            .status(429, "TooManyRequests", "slow down")
            .retry_after(0)
            .times(2),
    );
    let p = project(&server, &config_map("a", None, ""), PINNED);
    let req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    assert!(obs.resources.contains_key("configMapA"));
    let gets = server
        .requests()
        .into_iter()
        .filter(|r| r.path == "/api/v1/namespaces/shop/configmaps/a")
        .count();
    assert_eq!(gets, 3, "two throttled answers, then the object");
}

#[tokio::test]
async fn a_served_crd_kind_is_resolved_through_discovery() {
    let server = FakeKubeApi::start();
    server.seed_yaml("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Widget, plural: widgets}\n  versions: [{name: v1, served: true}]\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: shop}\nstatus:\n  conditions: [{type: Ready, status: \"True\"}]\n");
    server.fault(Fault::on("/apis/other.io/v1").status(
        503,
        "ServiceUnavailable",
        "aggregated API down",
    ));
    let declared = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\napiVersion: other.io/v1\nkind: Gadget\nmetadata: {name: g}\n";
    let p = project(&server, declared, PINNED);
    let req = request(&p).await;
    let obs = observed(p.lexicon.describe_resources(&req).await.unwrap());
    let widget = &obs.resources["widgetW"];
    assert_eq!(widget.entity_type, "K8s::Example::Widget");
    assert_eq!(widget.status, "READY");
    // A discovery that failed is never an absence.
    assert_eq!(
        obs.unobserved["gadgetG"].reason,
        UnobservedReason::ReadFailed
    );
}

/// Two ConfigMaps in each of six namespaces: six LISTs, all in flight at once.
fn six_namespaces(server: &FakeKubeApi) -> String {
    let mut declared = String::new();
    for ns in 0..6 {
        for i in 0..2 {
            let object = config_map(&format!("c{i}"), Some(&format!("ns{ns}")), OURS);
            server.seed_yaml(&object);
            declared.push_str(&object.replace("name: c", &format!("name: n{ns}c")));
        }
    }
    declared
}

/// [`six_namespaces`] read over HTTPS with a token, 50 ms per answer (so the LISTs overlap).
async fn read_six_namespaces(server: &FakeKubeApi) -> Observation {
    server.require_token("t0ken");
    let declared = six_namespaces(server);
    server.latency(std::time::Duration::from_millis(50));
    let spec = KubeconfigSpec::new("fake").namespace("shop").token("t0ken");
    let p = project_with(server, &declared, PINNED, "", &spec);
    let req = request(&p).await;
    observed(p.lexicon.describe_resources(&req).await.unwrap())
}

#[tokio::test]
async fn every_read_shares_one_connection_where_the_server_speaks_http2() {
    let server = FakeKubeApi::start_tls();
    let obs = read_six_namespaces(&server).await;
    assert!(obs.unobserved.is_empty(), "{:?}", obs.unobserved);
    assert!(server.requests().len() >= 6);
    // The handshake that learns the protocol made the one connection every read used
    // (over HTTP/1.1 each of the six LISTs in flight would have opened its own).
    assert_eq!(server.connections(), 1);
}

#[tokio::test]
async fn a_server_offering_only_http1_is_read_over_http1() {
    let server = FakeKubeApi::start_tls_http1();
    let obs = read_six_namespaces(&server).await;
    assert!(obs.unobserved.is_empty(), "{:?}", obs.unobserved);
    assert_eq!(obs.resources.len(), 12, "{:?}", obs.resources.keys());
    assert!(server.connections() > 2, "{}", server.connections());
}
