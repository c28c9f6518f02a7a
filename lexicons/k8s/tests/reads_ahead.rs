//! `declared_for_reads`: a command whose reads follow binds and connects while its YAML
//! is parsed, and sends the LISTs those reads are certain to make; the reads then take
//! those answers and ask the server for nothing twice.

mod common;

use chant_lexicon::{
    DeclaredEntity, Observation, ObserveRequest, ReadPath, ReadsAhead, UnobservedReason,
};
use chant_testkit::kube_api::{FakeKubeApi, KubeconfigSpec};
use common::{OURS, Project, config_map, project_with, reads_of, request};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const PINNED: &str = "context = \"fake\"\nnamespace = \"shop\"";
const THIN_AND_DEEP: &[ReadPath] = &[ReadPath::DescribeResources, ReadPath::ObserveResourcesDeep];

fn deployment(namespace: &str) -> String {
    format!(
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: {namespace}\n  labels:\n    {OURS}\nspec:\n  replicas: 2\n"
    )
}

/// Two ConfigMaps in each of `a` and `b`, a lone one in `solo`, a Deployment in `a`.
fn estate(server: &FakeKubeApi) -> String {
    let mut declared = String::new();
    for (name, ns) in [
        ("a1", "a"),
        ("a2", "a"),
        ("b1", "b"),
        ("b2", "b"),
        ("s", "solo"),
    ] {
        declared.push_str(&config_map(name, Some(ns), OURS));
    }
    declared.push_str(&deployment("a"));
    server.seed_yaml(&declared);
    declared
}

fn tls_project(server: &FakeKubeApi, declared: &str) -> Project {
    server.require_token("t0ken");
    let spec = KubeconfigSpec::new("fake").namespace("shop").token("t0ken");
    project_with(server, declared, PINNED, "", &spec)
}

/// Wait (up to 5 s) until the server has logged `count` requests.
async fn until_logged(server: &FakeKubeApi, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.request_count() < count && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// LISTs without a label selector, by path, and how often each was sent.
fn plain_lists(server: &FakeKubeApi) -> BTreeMap<String, usize> {
    let mut lists = BTreeMap::new();
    for logged in server.requests() {
        if logged.query.contains_key("limit") && !logged.query.contains_key("labelSelector") {
            *lists.entry(logged.path).or_default() += 1;
        }
    }
    lists
}

/// Bind `p`'s session with a read of nothing, so that a parse after it sends its LISTs
/// itself (a binding made beside the parse may finish after a parse this small).
async fn bind(p: &Project) {
    p.lexicon
        .describe_resources(&reads_of(Vec::new()))
        .await
        .unwrap();
}

/// `p`'s declared side, for a command whose `reads` follow.
async fn declare_for(p: &Project, reads: &[ReadPath]) -> Vec<DeclaredEntity> {
    let ahead = ReadsAhead::for_reads(&reads_of(Vec::new()), reads);
    p.lexicon.clone().declared_for_reads(ahead).await.unwrap()
}

async fn describe(p: &Project, entities: Vec<DeclaredEntity>) -> Observation {
    p.lexicon
        .describe_resources(&reads_of(entities))
        .await
        .unwrap()
        .normalize()
}

async fn thin_and_deep(p: &Project, request: &ObserveRequest) -> (Observation, usize) {
    let (thin, deep) = tokio::join!(
        p.lexicon.describe_resources(request),
        p.lexicon.observe_resources_deep(request)
    );
    (thin.unwrap().normalize(), deep.unwrap().resources.len())
}

#[tokio::test]
async fn the_lists_the_reads_will_make_go_out_while_the_yaml_is_parsed_and_are_sent_once() {
    let server = FakeKubeApi::start_tls();
    let declared = estate(&server);
    let p = tls_project(&server, &declared);
    bind(&p).await;
    server.clear_requests();

    let entities = declare_for(&p, THIN_AND_DEEP).await;
    until_logged(&server, 5).await;
    let expected: BTreeMap<String, usize> = [
        "/api/v1/namespaces/a/configmaps",
        "/api/v1/namespaces/b/configmaps",
        // The Deployment's namespace is swept for its runtime children.
        "/api/v1/namespaces/a/pods",
        "/apis/apps/v1/namespaces/a/replicasets",
        "/apis/batch/v1/namespaces/a/jobs",
    ]
    .into_iter()
    .map(|path| (path.to_owned(), 1))
    .collect();
    assert_eq!(plain_lists(&server), expected, "sent before any read asked");
    assert_eq!(server.request_count(), 5, "{:?}", server.requests());

    let (thin, deep) = thin_and_deep(&p, &reads_of(entities)).await;
    assert_eq!(
        plain_lists(&server),
        expected,
        "the reads took those answers"
    );
    assert_eq!(deep, 6);

    // The same reads without lists ahead answer the same.
    let fresh = tls_project(&server, &declared);
    let (plain, plain_deep) = thin_and_deep(&fresh, &request(&fresh).await).await;
    assert_eq!(thin.resources, plain.resources);
    assert_eq!(thin.unobserved, plain.unobserved);
    assert_eq!(deep, plain_deep);
}

#[tokio::test]
async fn a_command_that_reads_nothing_declared_only_connects() {
    let server = FakeKubeApi::start_tls();
    let declared = estate(&server);
    let p = tls_project(&server, &declared);
    let entities = declare_for(&p, &[]).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.connections() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(server.connections(), 1, "connected while the YAML was read");
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    let obs = describe(&p, entities).await;
    assert_eq!(obs.resources.len(), 6, "{:?}", obs.unobserved);
    assert_eq!(server.connections(), 1, "the reads used that connection");
}

#[tokio::test]
async fn an_unreachable_cluster_leaves_the_reason_to_the_reads() {
    let server = FakeKubeApi::start_tls();
    let declared = format!(
        "{}{}",
        config_map("a", Some("shop"), OURS),
        config_map("b", Some("shop"), OURS)
    );
    let p = tls_project(&server, &declared);
    drop(server);
    let entities = declare_for(&p, THIN_AND_DEEP).await;
    let obs = describe(&p, entities).await;
    for name in ["configMapA", "configMapB"] {
        assert_eq!(obs.unobserved[name].reason, UnobservedReason::NoBinding);
    }
    assert!(obs.resources.is_empty());
}

#[tokio::test]
async fn a_new_command_does_not_take_what_an_earlier_one_listed_ahead() {
    let server = FakeKubeApi::start_tls();
    let declared = estate(&server);
    let p = tls_project(&server, &declared);
    bind(&p).await;
    declare_for(&p, THIN_AND_DEEP).await;
    until_logged(&server, 5).await;
    // The next command changes the cluster behind chant's back, and reads.
    server.seed_yaml(&config_map("a3", Some("a"), OURS));
    server.clear_requests();
    let obs = describe(&p, p.lexicon.declared().await.unwrap()).await;
    assert!(
        obs.resources.contains_key("configMapA3"),
        "{:?}",
        obs.resources.keys()
    );
    assert_eq!(plain_lists(&server)["/api/v1/namespaces/a/configmaps"], 1);
}
