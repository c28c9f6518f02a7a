//! Owner chains and the runtime-children sweep: objects no one declared but a declared
//! object made at runtime (a Deployment's ReplicaSets and Pods, a CronJob's Jobs), found
//! through `ownerReferences`, and objects a declared GitOps controller applied, found
//! through Flux and Argo labels. They are reported as `runtime`, never as deletes.

use crate::kinds::builtin_at;
use crate::reader::{ListJob, Listed, list_collections, will_list};
use crate::session::{Session, Target, Unaddressable};
use chant_lexicon::{DeclaredEntity, OwnerChain};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// Kinds whose objects make children at runtime.
const WORKLOADS: [&str; 6] = [
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Job",
    "CronJob",
];

/// The kinds the sweep lists in each namespace holding a declared workload.
pub const CHILD_KINDS: [(&str, &str); 3] = [
    ("apps/v1", "ReplicaSet"),
    ("batch/v1", "Job"),
    ("v1", "Pod"),
];

const MAX_DEPTH: usize = 8;

/// Whether a declared object in `namespace` makes runtime children.
pub fn makes_children(entity_type: &str) -> bool {
    WORKLOADS
        .iter()
        .any(|w| entity_type.ends_with(&format!("::{w}")))
        || matches!(
            entity_type,
            "K8s::Flux::Kustomization" | "K8s::Flux::HelmRelease" | "K8s::Argo::Application"
        )
}

/// Whether the sweep lists this target's kind in its namespace.
pub fn sweeps(target: &Target, namespaces: &BTreeSet<String>) -> bool {
    CHILD_KINDS
        .iter()
        .any(|(api_version, kind)| builtin_at(api_version, kind) == Some(&target.info))
        && target
            .namespace
            .as_ref()
            .is_some_and(|ns| namespaces.contains(ns))
}

/// LIST the child kinds in each namespace (skipping ones the declared reads already
/// listed). Failures come back as notes: a sweep hole never hides a declared verdict.
pub async fn sweep(
    session: &Session,
    namespaces: &BTreeSet<String>,
    targets: &[Result<Target, Unaddressable>],
    pool: usize,
) -> (Vec<Listed>, Vec<String>) {
    let mut jobs = Vec::new();
    for ns in namespaces {
        for (api_version, kind) in CHILD_KINDS {
            let Some(info) = builtin_at(api_version, kind) else {
                continue;
            };
            if !will_list(targets, info, ns) {
                jobs.push(ListJob {
                    collection: info.collection_path(Some(ns)),
                    looking_for: format!(
                        "the runtime-children sweep could not list {} in namespace {ns}",
                        info.plural
                    ),
                    info: info.clone(),
                });
            }
        }
    }
    list_collections(session, jobs, None, pool).await
}

/// Resolves where an object's owner chain ends.
pub struct Owners<'a> {
    /// uid → declared entity name.
    declared_uids: &'a HashMap<String, String>,
    /// uid → any object read in this run.
    objects: HashMap<&'a str, &'a Value>,
    declared: &'a [DeclaredEntity],
}

impl<'a> Owners<'a> {
    pub fn new(
        declared: &'a [DeclaredEntity],
        declared_uids: &'a HashMap<String, String>,
        objects: impl IntoIterator<Item = &'a Value>,
    ) -> Self {
        let objects = objects
            .into_iter()
            .filter_map(|o| Some((o["metadata"]["uid"].as_str()?, o)))
            .collect();
        Owners {
            declared_uids,
            objects,
            declared,
        }
    }

    pub fn chain(&self, object: &Value) -> OwnerChain {
        let mut current = object;
        for _ in 0..MAX_DEPTH {
            let refs = current["metadata"]["ownerReferences"].as_array();
            let owner = refs.and_then(|refs| {
                refs.iter()
                    .find(|r| r["controller"] == true)
                    .or_else(|| refs.first())
            });
            let Some(owner) = owner else {
                return match self.gitops_owner(current) {
                    Some(entity) => OwnerChain::Declared { entity },
                    None if std::ptr::eq(current, object) => OwnerChain::Unowned,
                    None => OwnerChain::Unknown,
                };
            };
            let uid = owner["uid"].as_str().unwrap_or_default();
            if let Some(entity) = self.declared_uids.get(uid) {
                return OwnerChain::Declared {
                    entity: entity.clone(),
                };
            }
            match self.objects.get(uid) {
                Some(next) => current = next,
                None => return OwnerChain::Unknown,
            }
        }
        OwnerChain::Unknown
    }

    /// A declared Flux Kustomization/HelmRelease or Argo Application that applied it.
    fn gitops_owner(&self, object: &Value) -> Option<String> {
        let labels = &object["metadata"]["labels"];
        let find = |entity_type: &str, name: &str, namespace: Option<&str>| {
            let matches: Vec<&DeclaredEntity> = self
                .declared
                .iter()
                .filter(|e| e.entity_type == entity_type)
                .filter(|e| e.props["metadata"]["name"].as_str() == Some(name))
                .filter(|e| {
                    namespace.is_none_or(|ns| {
                        e.props["metadata"]["namespace"]
                            .as_str()
                            .unwrap_or("default")
                            == ns
                    })
                })
                .collect();
            (matches.len() == 1).then(|| matches[0].name.clone())
        };
        for (prefix, entity_type) in [
            ("kustomize.toolkit.fluxcd.io", "K8s::Flux::Kustomization"),
            ("helm.toolkit.fluxcd.io", "K8s::Flux::HelmRelease"),
        ] {
            if let Some(name) = labels[format!("{prefix}/name")].as_str() {
                let ns = labels[format!("{prefix}/namespace")].as_str();
                if let Some(found) = find(entity_type, name, ns) {
                    return Some(found);
                }
            }
        }
        let instance = labels["app.kubernetes.io/instance"].as_str()?;
        find("K8s::Argo::Application", instance, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn chains_follow_controller_references_to_a_declared_object() {
        let rs = json!({"metadata": {"uid": "rs1", "ownerReferences": [
            {"uid": "other"}, {"uid": "dep1", "controller": true}]}});
        let pod = json!({"metadata": {"uid": "p1", "ownerReferences": [{"uid": "rs1", "controller": true}]}});
        let orphan = json!({"metadata": {"uid": "p2", "ownerReferences": [{"uid": "gone"}]}});
        let bare = json!({"metadata": {"uid": "p3"}});
        let declared = vec![DeclaredEntity::new(
            "kustomizationApps",
            "K8s::Flux::Kustomization",
            json!({"metadata": {"name": "apps", "namespace": "flux-system"}}),
        )];
        let flux = json!({"metadata": {"uid": "x", "labels": {
            "kustomize.toolkit.fluxcd.io/name": "apps",
            "kustomize.toolkit.fluxcd.io/namespace": "flux-system"}}});
        let declared_uids = HashMap::from([("dep1".to_owned(), "deploymentWeb".to_owned())]);
        let owners = Owners::new(
            &declared,
            &declared_uids,
            [&rs, &pod, &orphan, &bare, &flux],
        );
        let web = OwnerChain::Declared {
            entity: "deploymentWeb".into(),
        };
        assert_eq!(owners.chain(&pod), web);
        assert_eq!(owners.chain(&rs), web);
        assert_eq!(owners.chain(&orphan), OwnerChain::Unknown);
        assert_eq!(owners.chain(&bare), OwnerChain::Unowned);
        assert_eq!(
            owners.chain(&flux),
            OwnerChain::Declared {
                entity: "kustomizationApps".into()
            }
        );
        assert!(makes_children("K8s::Apps::Deployment"));
        assert!(!makes_children("K8s::Core::ConfigMap"));
    }
}
