//! `lifecycle predict` for the k8s lexicon: the declared estate's edges, read from the
//! by-name references inside each object (its props are the whole manifest), and the
//! estate sent to the behaviour engine in the example engine's wire version.
//!
//! Kubernetes references an object by kind (implied by the field) and name, within the
//! referencing object's namespace (ClusterRoles are cluster-scoped; a binding's
//! ServiceAccount subject may name its own namespace). Each reference is resolved to the
//! entity name of the declared object with that kind, namespace and name; one that names
//! no declared object dangles, with the value `Kind/namespace/name` (never an entity
//! name, so it cannot resolve by accident).

use chant_lexicon::DeclaredEntity;
use chant_lexicon::behaviour::{Edges, edges_from_references, labelled_values_at};
use serde_json::Value;
use std::collections::BTreeMap;

/// Where each kind keeps its pod spec.
const POD_SPECS: &[(&str, &str)] = &[
    ("Pod", "spec"),
    ("Deployment", "spec.template.spec"),
    ("StatefulSet", "spec.template.spec"),
    ("DaemonSet", "spec.template.spec"),
    ("ReplicaSet", "spec.template.spec"),
    ("Job", "spec.template.spec"),
    ("CronJob", "spec.jobTemplate.spec.template.spec"),
];

/// References inside a pod spec: (path below the spec, the kind it names).
const POD_REFS: &[(&str, &str)] = &[
    ("serviceAccountName", "ServiceAccount"),
    ("containers[].envFrom[].configMapRef.name", "ConfigMap"),
    ("containers[].envFrom[].secretRef.name", "Secret"),
    (
        "containers[].env[].valueFrom.configMapKeyRef.name",
        "ConfigMap",
    ),
    ("containers[].env[].valueFrom.secretKeyRef.name", "Secret"),
    ("initContainers[].envFrom[].configMapRef.name", "ConfigMap"),
    ("initContainers[].envFrom[].secretRef.name", "Secret"),
    (
        "initContainers[].env[].valueFrom.configMapKeyRef.name",
        "ConfigMap",
    ),
    (
        "initContainers[].env[].valueFrom.secretKeyRef.name",
        "Secret",
    ),
    ("volumes[].configMap.name", "ConfigMap"),
    ("volumes[].secret.secretName", "Secret"),
    (
        "volumes[].persistentVolumeClaim.claimName",
        "PersistentVolumeClaim",
    ),
];

/// Other references by a fixed kind: (referencing kind, path, the kind it names).
const OBJECT_REFS: &[(&str, &str, &str)] = &[
    ("StatefulSet", "spec.serviceName", "Service"),
    (
        "Ingress",
        "spec.rules[].http.paths[].backend.service.name",
        "Service",
    ),
    ("Ingress", "spec.defaultBackend.service.name", "Service"),
];

/// References that carry their own kind: (referencing kind, path of a `{kind, name}`).
const TYPED_REFS: &[(&str, &str)] = &[
    ("RoleBinding", "roleRef"),
    ("ClusterRoleBinding", "roleRef"),
    ("HorizontalPodAutoscaler", "spec.scaleTargetRef"),
];

/// Kinds that live in no namespace (among those a reference can name).
const CLUSTER_SCOPED: &[&str] = &["ClusterRole"];

pub fn declared_edges(entities: &[DeclaredEntity]) -> Edges {
    let index: BTreeMap<(&str, &str, &str), &str> = entities
        .iter()
        .map(|e| {
            let (kind, namespace, name) = identity(&e.props);
            ((kind, namespace, name), e.name.as_str())
        })
        .collect();
    edges_from_references(entities, |entity| {
        let (_, namespace, _) = identity(&entity.props);
        references(&entity.props)
            .into_iter()
            .map(|found| {
                let namespace = match found.namespace {
                    _ if CLUSTER_SCOPED.contains(&found.kind) => "",
                    Some(ns) => ns,
                    None => namespace,
                };
                let to = index
                    .get(&(found.kind, namespace, found.name))
                    .map(|n| (*n).to_owned())
                    .unwrap_or_else(|| missing(found.kind, namespace, found.name));
                (found.path, to)
            })
            .collect()
    })
}

/// An object's kind, namespace (`""` when it names none) and name.
fn identity(object: &Value) -> (&str, &str, &str) {
    fn text(v: &Value) -> &str {
        v.as_str().unwrap_or_default()
    }
    let meta = &object["metadata"];
    (
        text(&object["kind"]),
        text(&meta["namespace"]),
        text(&meta["name"]),
    )
}

fn missing(kind: &str, namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        format!("{kind}/{name}")
    } else {
        format!("{kind}/{namespace}/{name}")
    }
}

/// One by-name reference: where it is written, the kind it names, and the namespace when
/// the reference says so itself.
struct Found<'a> {
    path: String,
    kind: &'a str,
    namespace: Option<&'a str>,
    name: &'a str,
}

fn references(object: &Value) -> Vec<Found<'_>> {
    let kind = object["kind"].as_str().unwrap_or_default();
    let mut out = Vec::new();
    let pod_refs = POD_SPECS
        .iter()
        .filter(|(k, _)| *k == kind)
        .flat_map(|(_, spec)| {
            POD_REFS
                .iter()
                .map(move |(p, t)| (format!("{spec}.{p}"), *t))
        });
    let object_refs = OBJECT_REFS
        .iter()
        .filter(|(k, ..)| *k == kind)
        .map(|(_, p, t)| ((*p).to_owned(), *t));
    for (path, target) in pod_refs.chain(object_refs) {
        for (at, value) in at_path(object, &path) {
            if let Some(name) = value.as_str() {
                out.push(Found {
                    path: at,
                    kind: target,
                    namespace: None,
                    name,
                });
            }
        }
    }
    for (_, path) in TYPED_REFS.iter().filter(|(k, _)| *k == kind) {
        for (at, value) in at_path(object, path) {
            out.extend(typed(at, value, None));
        }
    }
    if kind.ends_with("RoleBinding") {
        for (at, subject) in at_path(object, "subjects[]") {
            if subject["kind"] == "ServiceAccount" {
                out.extend(typed(at, subject, subject["namespace"].as_str()));
            }
        }
    }
    out
}

/// A `{kind, name}` reference.
fn typed<'a>(path: String, value: &'a Value, namespace: Option<&'a str>) -> Option<Found<'a>> {
    Some(Found {
        path,
        kind: value["kind"].as_str()?,
        namespace,
        name: value["name"].as_str()?,
    })
}

/// The values at `path` with the label each is written at (`props.list[].c`).
fn at_path<'a>(root: &'a Value, path: &str) -> Vec<(String, &'a Value)> {
    labelled_values_at(root, path)
        .into_iter()
        .map(|(at, v)| (format!("props.{at}"), v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::behaviour::{CoverageVerdict, DanglingRef};
    use chant_testkit::behaviour::declared_edge_triples;
    use serde_json::json;

    fn object(name: &str, kind: &str, body: Value) -> DeclaredEntity {
        let mut props = json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name, "namespace": "shop"}});
        if let (Some(props), Value::Object(body)) = (props.as_object_mut(), body) {
            props.extend(body);
        }
        DeclaredEntity::new(
            crate::naming::base_name(kind, name),
            format!("K8s::Core::{kind}"),
            props,
        )
    }

    fn web(config: &str) -> DeclaredEntity {
        object(
            "web",
            "Deployment",
            json!({"spec": {"template": {"spec": {
                "serviceAccountName": "web",
                "containers": [{"name": "web", "envFrom": [{"configMapRef": {"name": config}}]}],
                "volumes": [{"name": "tls", "secret": {"secretName": "tls"}}]
            }}}}),
        )
    }

    #[test]
    fn a_deployment_references_its_service_account_config_and_secret() {
        let edges = declared_edges(&[
            web("settings"),
            object("web", "ServiceAccount", json!({})),
            object("settings", "ConfigMap", json!({})),
            object("tls", "Secret", json!({})),
        ]);
        let (list, dangling) = declared_edge_triples(&edges);
        assert_eq!(
            list,
            [
                (
                    "deploymentWeb",
                    "configMapSettings",
                    "props.spec.template.spec.containers[].envFrom[].configMapRef.name"
                ),
                (
                    "deploymentWeb",
                    "secretTls",
                    "props.spec.template.spec.volumes[].secret.secretName"
                ),
                (
                    "deploymentWeb",
                    "serviceAccountWeb",
                    "props.spec.template.spec.serviceAccountName"
                ),
            ]
        );
        assert!(dangling.is_empty());
        assert_eq!(edges.coverage().verdict, CoverageVerdict::Complete);
        assert_eq!(edges.coverage().edges, Some(3));
    }

    #[test]
    fn a_reference_to_an_undeclared_config_map_dangles() {
        let edges = declared_edges(&[
            web("gone"),
            object("web", "ServiceAccount", json!({})),
            object("tls", "Secret", json!({})),
            // Same name, another namespace: not the one the Deployment means.
            DeclaredEntity::new(
                "configMapGone",
                "K8s::Core::ConfigMap",
                json!({"kind": "ConfigMap", "metadata": {"name": "gone", "namespace": "blue"}}),
            ),
        ]);
        let (list, dangling) = declared_edge_triples(&edges);
        assert_eq!(list.len(), 2);
        assert_eq!(
            dangling,
            [DanglingRef {
                from: "deploymentWeb".into(),
                path: "props.spec.template.spec.containers[].envFrom[].configMapRef.name".into(),
                value: "ConfigMap/shop/gone".into(),
            }]
        );
    }

    #[test]
    fn a_role_binding_references_its_role_and_service_account() {
        let edges = declared_edges(&[
            object(
                "deployer",
                "RoleBinding",
                json!({
                    "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "deployer"},
                    "subjects": [
                        {"kind": "ServiceAccount", "name": "ci"},
                        {"kind": "User", "name": "alice"}
                    ]
                }),
            ),
            object("deployer", "Role", json!({})),
            object("ci", "ServiceAccount", json!({})),
        ]);
        let (list, dangling) = declared_edge_triples(&edges);
        assert_eq!(
            list,
            [
                ("roleBindingDeployer", "roleDeployer", "props.roleRef"),
                (
                    "roleBindingDeployer",
                    "serviceAccountCi",
                    "props.subjects[]"
                ),
            ]
        );
        assert!(dangling.is_empty());
    }

    #[test]
    fn an_estate_without_references_has_computed_empty_edges() {
        let edges = declared_edges(&[object("settings", "ConfigMap", json!({"data": {}}))]);
        assert_eq!(edges.list(), Some(&[][..]));
        assert_eq!(edges.coverage().verdict, CoverageVerdict::Complete);
    }
}
