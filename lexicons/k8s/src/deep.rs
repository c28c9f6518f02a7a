//! `observe_resources_deep`: the full live object per declared entity, with
//! `fieldOwners` from managedFields; and the normalization hooks, as data, that core
//! applies identically to the declared and the live tree.

use crate::lexicon::K8sLexicon;
use crate::managed_fields::field_owners;
use crate::ownership::verdict;
use crate::reader::{EntityRead, LiveObject, Read, read_entities};
use crate::session::bind_reason;
use chant_lexicon::deep::TypeMatch;
use chant_lexicon::{
    DeclaredEntity, DeepObservation, DeepResourceObservation, HookResult, NormalizationHooks,
    ObserveRequest, Ownership, OwnershipMarker, UnobservedEntity, UnobservedReason,
};
use serde_json::{Value, json};

pub async fn observe(
    lexicon: &K8sLexicon,
    request: &ObserveRequest,
) -> HookResult<DeepObservation> {
    let mut out = DeepObservation::default();
    let pool = lexicon.pool(request.concurrency);
    let session = match lexicon
        .session(&request.environment, request.request_timeout, pool)
        .await
    {
        Ok(s) => s,
        Err(error) => {
            for e in request.entities.iter() {
                out.unobserved.insert(
                    e.name.clone(),
                    UnobservedEntity::new(bind_reason(&error))
                        .typed(&e.entity_type)
                        .detail(error.to_string()),
                );
            }
            return Ok(out);
        }
    };
    let reads = read_entities(
        &session,
        &request.entities,
        request.namespace.as_deref(),
        pool,
        |i, read| {
            let entity = &request.entities[i];
            match (deep_answer(entity, read, request), &request.deep_sink) {
                (Some(Ok(tree)), Some(sink)) => {
                    sink.hand_over_to_make(&entity.name, move || tree.observation());
                    None
                }
                (answer, _) => answer.map(|a| a.map(LiveTree::observation)),
            }
        },
    )
    .await;
    chant_lexicon::parallel::release(reads.listed);
    for (entity, answer) in request.entities.iter().zip(reads.entities) {
        match answer {
            None => {}
            Some(Ok(resource)) => {
                out.resources.insert(entity.name.clone(), resource);
            }
            Some(Err(hole)) => {
                out.unobserved.insert(entity.name.clone(), hole);
            }
        }
    }
    Ok(out)
}

/// A declared object's live object, as its deep read found it.
struct LiveTree {
    object: LiveObject,
    entity_type: String,
    ownership: Ownership,
    marker: Option<OwnershipMarker>,
}

impl LiveTree {
    /// The object without `metadata.managedFields` (read into `fieldOwners`).
    fn observation(self) -> DeepResourceObservation {
        let properties = without_managed_fields(&self.object);
        DeepResourceObservation {
            entity_type: self.entity_type,
            physical_id: properties["metadata"]["uid"].as_str().map(str::to_owned),
            field_owners: field_owners(&self.object),
            properties,
            ownership: Some(self.ownership),
            marker: self.marker,
        }
    }
}

/// A copy of the object without `metadata.managedFields`.
fn without_managed_fields(object: &Value) -> Value {
    let Value::Object(fields) = object else {
        return object.clone();
    };
    let copy = fields
        .iter()
        .map(|(key, value)| match (key.as_str(), value) {
            ("metadata", Value::Object(meta)) => {
                let meta = meta
                    .iter()
                    .filter(|(k, _)| *k != "managedFields")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                (key.clone(), Value::Object(meta))
            }
            _ => (key.clone(), value.clone()),
        })
        .collect();
    Value::Object(copy)
}

/// One declared object's deep answer, worked out as soon as its read answered: its live
/// object, why it was not observed, or nothing (absent).
fn deep_answer(
    entity: &DeclaredEntity,
    read: EntityRead,
    request: &ObserveRequest,
) -> Option<Result<LiveTree, UnobservedEntity>> {
    match read.read {
        Read::Absent => None,
        Read::Unobserved(reason, ref detail) => {
            Some(Err(read.hole(entity, reason, detail.clone())))
        }
        Read::Present(object) => {
            let (ownership, marker) = verdict(&object, &request.project);
            if request.owned && ownership != Ownership::Owned {
                return Some(Err(UnobservedEntity::new(UnobservedReason::Filtered)
                    .typed(&entity.entity_type)
                    .detail("the live object carries no marker of this project and --owned was requested")));
            }
            Some(Ok(LiveTree {
                object,
                entity_type: entity.entity_type.clone(),
                ownership,
                marker,
            }))
        }
    }
}

const POD_OWNERS: [&str; 7] = [
    "K8s::Apps::Deployment",
    "K8s::Apps::StatefulSet",
    "K8s::Apps::DaemonSet",
    "K8s::Apps::ReplicaSet",
    "K8s::Batch::Job",
    "K8s::Batch::CronJob",
    "K8s::Core::Pod",
];

/// The k8s normalization rules.
pub fn hooks() -> NormalizationHooks {
    let any = TypeMatch::any;
    let workloads = || TypeMatch::of(&POD_OWNERS);
    let deployment = || TypeMatch::of(&["K8s::Apps::Deployment"]);
    let service = || TypeMatch::of(&["K8s::Core::Service"]);
    let mut hooks = NormalizationHooks::default()
        // Written by the server on every object of every kind.
        .prune_always(
            any(),
            &[
                "apiVersion",
                "kind",
                "status",
                "metadata.managedFields",
                "metadata.managedFields.**",
                "metadata.uid",
                "metadata.resourceVersion",
                "metadata.generation",
                "metadata.creationTimestamp",
                "metadata.selfLink",
                "metadata.deletionTimestamp",
                "metadata.deletionGracePeriodSeconds",
                "metadata.annotations.kubectl.kubernetes.io/last-applied-configuration",
                "metadata.annotations.deployment.kubernetes.io/revision",
            ],
        )
        .prune_live_undeclared(
            any(),
            &[
                "metadata.namespace",
                "metadata.labels.chant.intentius.io/stack",
                "metadata.labels.chant.intentius.io/env",
            ],
        )
        .default_value(
            any(),
            "metadata.labels.app.kubernetes.io/managed-by",
            json!("chant"),
        )
        .prune_live_undeclared(
            service(),
            &["spec.clusterIP", "spec.clusterIPs", "spec.ipFamilies"],
        );
    type Default = (fn() -> TypeMatch, &'static str, Value);
    let defaults: [Default; 19] = [
        (
            deployment,
            "spec.strategy",
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}),
        ),
        (deployment, "spec.revisionHistoryLimit", json!(10)),
        (deployment, "spec.progressDeadlineSeconds", json!(600)),
        (workloads, "**.dnsPolicy", json!("ClusterFirst")),
        (workloads, "**.restartPolicy", json!("Always")),
        (workloads, "**.terminationGracePeriodSeconds", json!(30)),
        (workloads, "**.schedulerName", json!("default-scheduler")),
        (workloads, "**.securityContext", json!({})),
        (
            workloads,
            "**.containers[].terminationMessagePath",
            json!("/dev/termination-log"),
        ),
        (
            workloads,
            "**.containers[].terminationMessagePolicy",
            json!("File"),
        ),
        (workloads, "**.containers[].ports[].protocol", json!("TCP")),
        (workloads, "**.failureThreshold", json!(3)),
        (workloads, "**.periodSeconds", json!(10)),
        (workloads, "**.successThreshold", json!(1)),
        (workloads, "**.timeoutSeconds", json!(1)),
        (service, "spec.sessionAffinity", json!("None")),
        (service, "spec.type", json!("ClusterIP")),
        (service, "spec.internalTrafficPolicy", json!("Cluster")),
        (service, "spec.ipFamilyPolicy", json!("SingleStack")),
    ];
    for (types, glob, value) in defaults {
        hooks = hooks.default_value(types(), glob, value);
    }
    hooks = hooks
        .default_value(service(), "spec.ports[].protocol", json!("TCP"))
        .order_by(any(), "**.containers", &["name"])
        .order_by(any(), "**.initContainers", &["name"])
        .order_by(any(), "**.env", &["name"])
        .order_by(any(), "**.volumes", &["name"])
        .order_by(any(), "**.volumeMounts", &["mountPath"])
        .order_by(any(), "**.imagePullSecrets", &["name"])
        .order_by(
            any(),
            "**.containers[].ports",
            &["containerPort", "protocol"],
        )
        .order_by(service(), "spec.ports", &["port", "protocol"])
        .mask(
            TypeMatch::of(&["K8s::Core::Secret"]),
            &["data.*", "stringData.*"],
        );
    hooks
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::{Counterpart, DeepNode, Side};

    #[test]
    fn server_fields_go_defaults_go_only_where_undeclared_and_secrets_are_masked() {
        let h = hooks();
        let v = json!("x");
        assert!(h.prunes(&DeepNode::at(
            "K8s::Core::ConfigMap",
            "metadata.uid",
            &v,
            Side::Declared,
            Counterpart::Unknown
        )));
        assert!(h.prunes(&DeepNode::at(
            "K8s::Core::ConfigMap",
            "status",
            &v,
            Side::Live,
            Counterpart::Unknown
        )));
        let ten = json!(10);
        assert!(h.prunes(&DeepNode::at(
            "K8s::Apps::Deployment",
            "spec.revisionHistoryLimit",
            &ten,
            Side::Live,
            Counterpart::Absent
        )));
        assert!(!h.prunes(&DeepNode::at(
            "K8s::Apps::Deployment",
            "spec.revisionHistoryLimit",
            &ten,
            Side::Live,
            Counterpart::Present
        )));
        let five = json!(5);
        assert!(!h.prunes(&DeepNode::at(
            "K8s::Apps::Deployment",
            "spec.revisionHistoryLimit",
            &five,
            Side::Live,
            Counterpart::Absent
        )));
        let tcp = json!("TCP");
        assert!(h.prunes(&DeepNode::at(
            "K8s::Apps::Deployment",
            "spec.template.spec.containers[].ports[].protocol",
            &tcp,
            Side::Live,
            Counterpart::Absent
        )));
        assert!(h.masks(&DeepNode::at(
            "K8s::Core::Secret",
            "data.password",
            &v,
            Side::Live,
            Counterpart::Present
        )));
        assert!(!h.masks(&DeepNode::at(
            "K8s::Core::ConfigMap",
            "data.password",
            &v,
            Side::Live,
            Counterpart::Present
        )));
    }
}
