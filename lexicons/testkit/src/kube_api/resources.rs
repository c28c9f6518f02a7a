//! What the fake API server serves: the built-in resources of a small cluster, plus the
//! kinds of every CustomResourceDefinition it was seeded with — the same way a real
//! apiserver starts serving a CRD's kind once the CRD exists.

use serde_json::{Value, json};

/// One served resource, as discovery describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Served {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub plural: String,
    pub singular: String,
    pub namespaced: bool,
    pub verbs: Vec<&'static str>,
    pub short_names: Vec<String>,
}

impl Served {
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `/api/v1` or `/apis/<group>/<version>`.
    pub fn prefix(&self) -> String {
        api_prefix(&self.group, &self.version)
    }
}

pub fn api_prefix(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    }
}

const READ_WRITE: [&str; 8] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

fn served(group: &str, version: &str, kind: &str, plural: &str, namespaced: bool) -> Served {
    Served {
        group: group.to_owned(),
        version: version.to_owned(),
        kind: kind.to_owned(),
        plural: plural.to_owned(),
        singular: kind.to_lowercase(),
        namespaced,
        verbs: READ_WRITE.to_vec(),
        short_names: Vec::new(),
    }
}

/// The built-in kinds of the fake cluster. Written out by hand on purpose: the server
/// plays the cluster, so it must not share the lexicon's generated table.
pub fn builtin() -> Vec<Served> {
    let mut out = vec![
        served("", "v1", "Pod", "pods", true),
        served("", "v1", "Service", "services", true),
        served("", "v1", "ConfigMap", "configmaps", true),
        served("", "v1", "Secret", "secrets", true),
        served("", "v1", "Namespace", "namespaces", false),
        served("", "v1", "ServiceAccount", "serviceaccounts", true),
        served(
            "",
            "v1",
            "PersistentVolumeClaim",
            "persistentvolumeclaims",
            true,
        ),
        served("", "v1", "PersistentVolume", "persistentvolumes", false),
        served("", "v1", "Endpoints", "endpoints", true),
        served("", "v1", "Event", "events", true),
        served("", "v1", "LimitRange", "limitranges", true),
        served("", "v1", "ResourceQuota", "resourcequotas", true),
        served("apps", "v1", "Deployment", "deployments", true),
        served("apps", "v1", "StatefulSet", "statefulsets", true),
        served("apps", "v1", "DaemonSet", "daemonsets", true),
        served("apps", "v1", "ReplicaSet", "replicasets", true),
        served(
            "apps",
            "v1",
            "ControllerRevision",
            "controllerrevisions",
            true,
        ),
        served("batch", "v1", "Job", "jobs", true),
        served("batch", "v1", "CronJob", "cronjobs", true),
        served("networking.k8s.io", "v1", "Ingress", "ingresses", true),
        served(
            "networking.k8s.io",
            "v1",
            "NetworkPolicy",
            "networkpolicies",
            true,
        ),
        served(
            "policy",
            "v1",
            "PodDisruptionBudget",
            "poddisruptionbudgets",
            true,
        ),
        served("rbac.authorization.k8s.io", "v1", "Role", "roles", true),
        served(
            "rbac.authorization.k8s.io",
            "v1",
            "RoleBinding",
            "rolebindings",
            true,
        ),
        served(
            "rbac.authorization.k8s.io",
            "v1",
            "ClusterRole",
            "clusterroles",
            false,
        ),
        served(
            "rbac.authorization.k8s.io",
            "v1",
            "ClusterRoleBinding",
            "clusterrolebindings",
            false,
        ),
        served(
            "autoscaling",
            "v2",
            "HorizontalPodAutoscaler",
            "horizontalpodautoscalers",
            true,
        ),
        served(
            "storage.k8s.io",
            "v1",
            "StorageClass",
            "storageclasses",
            false,
        ),
        served(
            "apiextensions.k8s.io",
            "v1",
            "CustomResourceDefinition",
            "customresourcedefinitions",
            false,
        ),
    ];
    let mut review = served(
        "authentication.k8s.io",
        "v1",
        "SelfSubjectReview",
        "selfsubjectreviews",
        false,
    );
    review.verbs = vec!["create"];
    out.push(review);
    for s in &mut out {
        s.short_names = match s.plural.as_str() {
            "configmaps" => vec!["cm".into()],
            "services" => vec!["svc".into()],
            "deployments" => vec!["deploy".into()],
            "namespaces" => vec!["ns".into()],
            _ => Vec::new(),
        };
    }
    out
}

/// The kinds a CustomResourceDefinition object makes served (one per served version).
pub fn from_crd(crd: &Value) -> Vec<Served> {
    let spec = &crd["spec"];
    let group = spec["group"].as_str().unwrap_or_default();
    let names = &spec["names"];
    let (Some(kind), Some(plural)) = (names["kind"].as_str(), names["plural"].as_str()) else {
        return Vec::new();
    };
    let namespaced = spec["scope"].as_str() != Some("Cluster");
    spec["versions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|v| v["served"].as_bool().unwrap_or(true))
        .filter_map(|v| v["name"].as_str())
        .map(|version| {
            let mut s = served(group, version, kind, plural, namespaced);
            if let Some(singular) = names["singular"].as_str() {
                s.singular = singular.to_owned();
            }
            s
        })
        .collect()
}

/// `GET /api`.
pub fn core_versions() -> Value {
    json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [
        {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}
    ]})
}

/// `GET /apis`: one entry per group, its first version preferred.
pub fn group_list(served: &[Served]) -> Value {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for s in served.iter().filter(|s| !s.group.is_empty()) {
        match groups.iter_mut().find(|(g, _)| *g == s.group) {
            Some((_, versions)) => {
                if !versions.contains(&s.version) {
                    versions.push(s.version.clone());
                }
            }
            None => groups.push((s.group.clone(), vec![s.version.clone()])),
        }
    }
    let groups: Vec<Value> = groups
        .into_iter()
        .map(|(group, versions)| {
            let entries: Vec<Value> = versions
                .iter()
                .map(|v| json!({"groupVersion": format!("{group}/{v}"), "version": v}))
                .collect();
            json!({"name": group, "versions": entries, "preferredVersion": entries[0].clone()})
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `GET /apis/<group>`.
pub fn group(served: &[Served], group: &str) -> Option<Value> {
    group_list(served)["groups"]
        .as_array()?
        .iter()
        .find(|g| g["name"] == group)
        .map(|g| {
            let mut g = g.clone();
            g["kind"] = json!("APIGroup");
            g["apiVersion"] = json!("v1");
            g
        })
}

/// `GET /api/v1` or `/apis/<group>/<version>`; `None` when nothing is served there.
pub fn resource_list(served: &[Served], group: &str, version: &str) -> Option<Value> {
    let resources: Vec<Value> = served
        .iter()
        .filter(|s| s.group == group && s.version == version)
        .map(|s| {
            let mut r = json!({
                "name": s.plural,
                "singularName": s.singular,
                "namespaced": s.namespaced,
                "kind": s.kind,
                "verbs": s.verbs,
            });
            if !s.short_names.is_empty() {
                r["shortNames"] = json!(s.short_names);
            }
            r
        })
        .collect();
    if resources.is_empty() {
        return None;
    }
    let group_version = if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    };
    Some(json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": resources,
    }))
}
