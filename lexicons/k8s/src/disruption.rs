//! `classify_disruption` from schema knowledge: which field changes the API server
//! rejects in place (so the object is replaced), which roll a workload's pods, and which
//! touch metadata only. A change this table does not know is unknown.

use chant_lexicon::{Disruption, DisruptionRequest, DisruptionVerdict};
use std::collections::BTreeMap;

/// (entity types, path prefix, why) — fields immutable after creation.
const IMMUTABLE: [(&[&str], &str, &str); 14] = [
    (&["*"], "metadata.name", "an object's name is its identity"),
    (
        &["*"],
        "metadata.namespace",
        "an object's namespace is its identity",
    ),
    (&["*"], "kind", "the kind is the object's type"),
    (
        &[
            "K8s::Apps::Deployment",
            "K8s::Apps::ReplicaSet",
            "K8s::Apps::DaemonSet",
        ],
        "spec.selector",
        "spec.selector is immutable (apps/v1)",
    ),
    (
        &["K8s::Apps::StatefulSet"],
        "spec.selector",
        "spec.selector is immutable (apps/v1)",
    ),
    (
        &["K8s::Apps::StatefulSet"],
        "spec.volumeClaimTemplates",
        "StatefulSet spec.volumeClaimTemplates is immutable",
    ),
    (
        &["K8s::Apps::StatefulSet"],
        "spec.serviceName",
        "StatefulSet spec.serviceName is immutable",
    ),
    (
        &["K8s::Apps::StatefulSet"],
        "spec.podManagementPolicy",
        "StatefulSet spec.podManagementPolicy is immutable",
    ),
    (
        &["K8s::Core::Service"],
        "spec.clusterIP",
        "Service spec.clusterIP is immutable once allocated",
    ),
    (
        &["K8s::Batch::Job"],
        "spec.template",
        "Job spec.template is immutable",
    ),
    (
        &["K8s::Batch::Job"],
        "spec.selector",
        "Job spec.selector is immutable",
    ),
    (
        &["K8s::Core::PersistentVolumeClaim"],
        "spec.storageClassName",
        "PersistentVolumeClaim spec.storageClassName is immutable",
    ),
    (
        &["K8s::Core::PersistentVolumeClaim"],
        "spec.accessModes",
        "PersistentVolumeClaim spec.accessModes is immutable",
    ),
    (
        &["K8s::Storage::StorageClass"],
        "provisioner",
        "StorageClass parameters are immutable",
    ),
];

const POD_TEMPLATE_OWNERS: [&str; 4] = [
    "K8s::Apps::Deployment",
    "K8s::Apps::StatefulSet",
    "K8s::Apps::DaemonSet",
    "K8s::Apps::ReplicaSet",
];

pub fn classify(request: &DisruptionRequest) -> BTreeMap<String, DisruptionVerdict> {
    let mut out = BTreeMap::new();
    for query in &request.changes {
        let Some(entity_type) = query.entity_type.as_deref() else {
            continue;
        };
        if query.deltas.is_empty() {
            continue;
        }
        let verdicts: Vec<DisruptionVerdict> = query
            .deltas
            .iter()
            .map(|d| field_verdict(entity_type, normalize(&d.path)))
            .collect();
        if let Some(worst) = verdicts.into_iter().max_by_key(|v| v.disruption.severity()) {
            out.insert(query.name.clone(), worst);
        }
    }
    out
}

/// Paths may arrive as `properties.spec…` or with `[…]` element markers.
fn normalize(path: &str) -> &str {
    path.strip_prefix("properties.").unwrap_or(path)
}

fn under(path: &str, prefix: &str) -> bool {
    path == prefix
        || path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

fn field_verdict(entity_type: &str, path: &str) -> DisruptionVerdict {
    for (types, prefix, because) in IMMUTABLE {
        let applies = types.iter().any(|t| *t == "*" || *t == entity_type);
        if applies && under(path, prefix) {
            return DisruptionVerdict::new(Disruption::Replace, because);
        }
    }
    if entity_type == "K8s::Core::Service" && under(path, "spec.clusterIPs") {
        return DisruptionVerdict::new(
            Disruption::Replace,
            "Service spec.clusterIPs is immutable once allocated",
        );
    }
    if POD_TEMPLATE_OWNERS.contains(&entity_type) && under(path, "spec.template") {
        return DisruptionVerdict::new(Disruption::Rolling, "a pod-template change rolls the pods");
    }
    if under(path, "metadata.labels") || under(path, "metadata.annotations") {
        return DisruptionVerdict::new(
            Disruption::InPlace,
            "labels and annotations update in place",
        );
    }
    if POD_TEMPLATE_OWNERS.contains(&entity_type) && under(path, "spec.replicas") {
        return DisruptionVerdict::new(
            Disruption::InPlace,
            "scaling changes replicas without replacing pods",
        );
    }
    if matches!(entity_type, "K8s::Core::ConfigMap" | "K8s::Core::Secret")
        && (under(path, "data") || under(path, "stringData") || under(path, "binaryData"))
    {
        return DisruptionVerdict::new(
            Disruption::InPlace,
            "ConfigMap and Secret data update in place (unless the object is immutable)",
        );
    }
    DisruptionVerdict::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::{AttributeChange, DisruptionQuery};

    fn query(name: &str, entity_type: &str, paths: &[&str]) -> DisruptionQuery {
        DisruptionQuery {
            name: name.into(),
            entity_type: Some(entity_type.into()),
            deltas: paths
                .iter()
                .map(|p| AttributeChange {
                    path: (*p).into(),
                    old_value: None,
                    new_value: None,
                })
                .collect(),
        }
    }

    #[test]
    fn classifies_from_schema_knowledge() {
        let request = DisruptionRequest {
            environment: "dev".into(),
            changes: vec![
                query(
                    "sel",
                    "K8s::Apps::Deployment",
                    &["spec.selector.matchLabels.app"],
                ),
                query(
                    "img",
                    "K8s::Apps::Deployment",
                    &[
                        "spec.template.spec.containers[0].image",
                        "metadata.labels.x",
                    ],
                ),
                query("ip", "K8s::Core::Service", &["spec.clusterIP"]),
                query(
                    "job",
                    "K8s::Batch::Job",
                    &["spec.template.spec.containers[0].image"],
                ),
                query(
                    "pvc",
                    "K8s::Core::PersistentVolumeClaim",
                    &["spec.storageClassName"],
                ),
                query(
                    "meta",
                    "K8s::Core::ConfigMap",
                    &["metadata.annotations.note"],
                ),
                query("odd", "K8s::Apps::Deployment", &["spec.minReadySeconds"]),
                query("untyped", "", &[]),
            ],
        };
        let v = classify(&request);
        assert_eq!(v["sel"].disruption, Disruption::Replace);
        assert_eq!(v["img"].disruption, Disruption::Rolling);
        assert_eq!(v["ip"].disruption, Disruption::Replace);
        assert_eq!(v["job"].disruption, Disruption::Replace);
        assert_eq!(v["pvc"].disruption, Disruption::Replace);
        assert_eq!(v["meta"].disruption, Disruption::InPlace);
        assert_eq!(v["odd"].disruption, Disruption::Unknown);
        assert!(!v.contains_key("untyped"));
    }
}
