//! The deep diff of `lifecycle diff --live` on its own: 2,000 declared Kubernetes objects
//! (10 kinds) against live trees carrying what an API server adds (metadata, status,
//! defaults), with the k8s lexicon's normalization hooks. No I/O: this is the CPU the
//! diff costs once every read has answered.
//!
//! Run: `cargo bench --bench deep_diff` (`BENCH_OBJECTS`, `BENCH_RUNS` change the size
//! and the number of timed runs whose median is shown).

use chant::lifecycle::deep::diff::diff_deep;
use chant_lexicon::{
    DeclaredEntity, DeepObservation, DeepResourceObservation, LexiconFactory, ProjectContext,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

// The binary's allocator, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// (entity type, apiVersion, kind, the declared body, what the server adds to it).
fn kinds() -> Vec<(&'static str, &'static str, &'static str, Value, Value)> {
    let pod_spec = json!({"containers": [{"name": "x", "image": "nginx"}]});
    let live_pod_spec = json!({"containers": [{"name": "x", "image": "nginx",
        "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
        "imagePullPolicy": "Always", "resources": {}}],
        "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler",
        "securityContext": {}, "terminationGracePeriodSeconds": 30});
    let selector = json!({"matchLabels": {"app": "x"}});
    vec![
        (
            "K8s::Core::ConfigMap",
            "v1",
            "ConfigMap",
            json!({"data": {"key": "value"}}),
            json!({}),
        ),
        (
            "K8s::Core::Secret",
            "v1",
            "Secret",
            json!({"type": "Opaque", "data": {"key": "dmFsdWU="}}),
            json!({}),
        ),
        (
            "K8s::Core::Service",
            "v1",
            "Service",
            json!({"spec": {"ports": [{"port": 80}]}}),
            json!({"spec": {"ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}],
                "clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1"], "type": "ClusterIP",
                "sessionAffinity": "None", "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
                "internalTrafficPolicy": "Cluster"}, "status": {"loadBalancer": {}}}),
        ),
        (
            "K8s::Core::ServiceAccount",
            "v1",
            "ServiceAccount",
            json!({}),
            json!({}),
        ),
        (
            "K8s::Apps::Deployment",
            "apps/v1",
            "Deployment",
            json!({"spec": {"replicas": 1, "selector": selector, "template": {"metadata": {"labels": {"app": "x"}}, "spec": pod_spec}}}),
            json!({"spec": {"replicas": 1, "selector": selector, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                "template": {"metadata": {"labels": {"app": "x"}}, "spec": live_pod_spec}},
                "status": {"replicas": 1, "readyReplicas": 1, "observedGeneration": 1,
                    "conditions": [{"type": "Available", "status": "True"}]}}),
        ),
        (
            "K8s::Apps::StatefulSet",
            "apps/v1",
            "StatefulSet",
            json!({"spec": {"serviceName": "x", "selector": selector, "template": {"metadata": {"labels": {"app": "x"}}, "spec": pod_spec}}}),
            json!({"spec": {"serviceName": "x", "selector": selector, "replicas": 1, "podManagementPolicy": "OrderedReady",
                "template": {"metadata": {"labels": {"app": "x"}}, "spec": live_pod_spec}},
                "status": {"replicas": 1, "readyReplicas": 1}}),
        ),
        (
            "K8s::Batch::Job",
            "batch/v1",
            "Job",
            json!({"spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "x", "image": "busybox"}]}}}}),
            json!({"spec": {"backoffLimit": 6, "completions": 1, "parallelism": 1,
                "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "x", "image": "busybox",
                    "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}]}}},
                "status": {"succeeded": 1}}),
        ),
        (
            "K8s::Rbac::Role",
            "rbac.authorization.k8s.io/v1",
            "Role",
            json!({"rules": []}),
            json!({}),
        ),
        (
            "K8s::Rbac::RoleBinding",
            "rbac.authorization.k8s.io/v1",
            "RoleBinding",
            json!({"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "x"}, "subjects": []}),
            json!({}),
        ),
        (
            "K8s::Networking::NetworkPolicy",
            "networking.k8s.io/v1",
            "NetworkPolicy",
            json!({"spec": {"podSelector": {}}}),
            json!({"spec": {"podSelector": {}, "policyTypes": ["Ingress"]}}),
        ),
    ]
}

/// `base` with `extra` laid over it (objects merged, anything else replaced).
fn overlay(base: &Value, extra: &Value) -> Value {
    match (base, extra) {
        (Value::Object(b), Value::Object(e)) => {
            let mut out = b.clone();
            for (k, v) in e {
                let merged = match out.get(k) {
                    Some(existing) => overlay(existing, v),
                    None => v.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Value::Object(out)
        }
        (_, extra) => extra.clone(),
    }
}

fn estate(objects: usize) -> (Vec<DeclaredEntity>, DeepObservation) {
    let kinds = kinds();
    let per_kind = objects / kinds.len();
    let mut declared = Vec::new();
    let mut live = DeepObservation::default();
    for (entity_type, api_version, kind, body, server) in &kinds {
        for i in 0..per_kind {
            let name = format!("{}-{i}", kind.to_lowercase());
            let namespace = format!("ns{}", i % 5);
            let labels = json!({"app.kubernetes.io/managed-by": "chant",
                "chant.intentius.io/stack": "bench", "chant.intentius.io/env": "dev"});
            let head = json!({"apiVersion": api_version, "kind": kind,
                "metadata": {"name": name, "namespace": namespace, "labels": labels}});
            let props = overlay(&head, body);
            let server_meta = json!({"metadata": {"uid": format!("uid-{name}-{namespace}"),
                "resourceVersion": format!("{i}"), "generation": 1,
                "creationTimestamp": "2026-01-01T00:00:00Z"}});
            let properties = overlay(&overlay(&props, server), &server_meta);
            let entity = format!("{}{i}", kind.to_lowercase());
            live.resources.insert(
                entity.clone(),
                DeepResourceObservation {
                    entity_type: (*entity_type).to_owned(),
                    properties,
                    field_owners: BTreeMap::from([("spec".to_owned(), "chant".to_owned())]),
                    ..Default::default()
                },
            );
            declared.push(DeclaredEntity::new(entity, *entity_type, props));
        }
    }
    (declared, live)
}

fn main() {
    let objects = env_number("BENCH_OBJECTS", 2000);
    let runs = env_number("BENCH_RUNS", 15).max(1);
    let (declared, live) = estate(objects);
    let project = ProjectContext {
        root: std::env::temp_dir(),
        config_path: std::env::temp_dir().join("chant.toml"),
        config_text: Arc::from("[lexicons.k8s]\nsource = []\n"),
        stack: "bench".into(),
        environments: vec!["dev".into()],
    };
    let hooks = chant_k8s::K8sFactory
        .create(&project)
        .expect("the k8s lexicon")
        .normalization_hooks();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let diff = diff_deep(&declared, &live, &hooks, None);
            let elapsed = started.elapsed();
            assert_eq!(diff.unchanged.len() + diff.drifted.len(), declared.len());
            elapsed
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    let diff = diff_deep(&declared, &live, &hooks, None);
    println!(
        "deep diff of {objects} objects: {:.2} ms (median of {runs}; {:.1} µs per object, on every core)",
        median.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e6 / objects as f64
    );
    println!(
        "  {} unchanged, {} drifted, {} with unclaimed fields",
        diff.unchanged.len(),
        diff.drifted.len(),
        diff.unclaimed.len()
    );
}
