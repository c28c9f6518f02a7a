//! The type ↔ apiVersion/kind/plural/scope table.
//!
//! Every built-in entry is read from k8s-openapi's own `Resource` constants; the list of
//! types in `generated.rs` is written by `tools/gen-resource-types.sh`. Kinds that are not
//! built in (CRDs) are resolved through the cluster's own discovery (`discovery.rs`).
//!
//! Entity types are `K8s::<Group>::<Kind>`: the core group is `Core`; a few well-known
//! groups have fixed names (`argoproj.io` → `Argo`, the Flux toolkit groups → `Flux`, …);
//! any other group is its first DNS label, split on `-`, each part capitalised
//! (`rbac.authorization.k8s.io` → `Rbac`, `cert-manager.io` → `CertManager`). The version
//! is not part of the type.

use k8s_openapi::{ClusterResourceScope, NamespaceResourceScope, ResourceScope};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Where objects of one kind live on the API server.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KindInfo {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub plural: String,
    pub namespaced: bool,
}

impl KindInfo {
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    pub fn entity_type(&self) -> String {
        entity_type(&self.group, &self.kind)
    }

    /// `/api/v1` or `/apis/<group>/<version>`.
    pub fn prefix(&self) -> String {
        api_prefix(&self.group, &self.version)
    }

    /// The collection path, in one namespace or cluster-wide.
    pub fn collection_path(&self, namespace: Option<&str>) -> String {
        match namespace.filter(|_| self.namespaced) {
            Some(ns) => format!(
                "{}/namespaces/{}/{}",
                self.prefix(),
                encode(ns),
                self.plural
            ),
            None => format!("{}/{}", self.prefix(), self.plural),
        }
    }

    pub fn object_path(&self, namespace: Option<&str>, name: &str) -> String {
        format!("{}/{}", self.collection_path(namespace), encode(name))
    }
}

pub fn api_prefix(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    }
}

/// `apps/v1` → (`apps`, `v1`); `v1` → (``, `v1`).
pub fn split_api_version(api_version: &str) -> (&str, &str) {
    api_version.split_once('/').unwrap_or(("", api_version))
}

/// Percent-encode a path segment (names are DNS-ish, but never trust input).
pub fn encode(segment: &str) -> String {
    percent_encode(segment, b"-._~:")
}

/// Percent-encode everything but ASCII alphanumerics and `keep`.
pub fn percent_encode(text: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || keep.contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

trait Scope {
    const NAMESPACED: bool;
}
impl Scope for NamespaceResourceScope {
    const NAMESPACED: bool = true;
}
impl Scope for ClusterResourceScope {
    const NAMESPACED: bool = false;
}

fn info<T>() -> KindInfo
where
    T: k8s_openapi::Resource,
    T::Scope: Scope + ResourceScope,
{
    KindInfo {
        group: T::GROUP.to_owned(),
        version: T::VERSION.to_owned(),
        kind: T::KIND.to_owned(),
        plural: T::URL_PATH_SEGMENT.to_owned(),
        namespaced: <T::Scope as Scope>::NAMESPACED,
    }
}

macro_rules! resource_types {
    ($($($segment:ident)::+),* $(,)?) => {
        fn generated() -> Vec<KindInfo> {
            vec![$(info::<k8s_openapi::$($segment)::+>()),*]
        }
    };
}

include!("generated.rs");

/// Every built-in listable kind of the pinned Kubernetes version, all versions.
pub fn builtin() -> &'static [KindInfo] {
    static TABLE: OnceLock<Vec<KindInfo>> = OnceLock::new();
    TABLE.get_or_init(generated)
}

/// A built-in kind at exactly this apiVersion.
pub fn builtin_at(api_version: &str, kind: &str) -> Option<&'static KindInfo> {
    type Index = HashMap<(&'static str, &'static str, &'static str), &'static KindInfo>;
    // Asked once per declared object: an index, not a scan of the table.
    static INDEX: OnceLock<Index> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = Index::new();
        for k in builtin() {
            index
                .entry((k.group.as_str(), k.version.as_str(), k.kind.as_str()))
                .or_insert(k);
        }
        index
    });
    let (group, version) = split_api_version(api_version);
    index.get(&(group, version, kind)).copied()
}

/// The preferred built-in version of a group's kind: stable over beta over alpha, then
/// the highest number.
pub fn preferred(group: &str, kind: &str) -> Option<&'static KindInfo> {
    builtin()
        .iter()
        .filter(|k| k.group == group && k.kind == kind)
        .max_by_key(|k| version_rank(&k.version))
}

/// Resolve an entity type to its preferred built-in kind.
pub fn for_entity_type(entity_type: &str) -> Option<&'static KindInfo> {
    builtin()
        .iter()
        .filter(|k| k.entity_type() == entity_type)
        .max_by_key(|k| version_rank(&k.version))
}

/// `v1` > `v1beta2` > `v1beta1` > `v1alpha1`; higher majors first.
pub fn version_rank(version: &str) -> (u8, u32, u32) {
    let rest = version.strip_prefix('v').unwrap_or(version);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let major = digits.parse().unwrap_or(0);
    let tail = &rest[digits.len()..];
    let (stability, minor) = if tail.is_empty() {
        (2, 0)
    } else if let Some(n) = tail.strip_prefix("beta") {
        (1, n.parse().unwrap_or(0))
    } else if let Some(n) = tail.strip_prefix("alpha") {
        (0, n.parse().unwrap_or(0))
    } else {
        (0, 0)
    };
    (stability, major, minor)
}

/// `K8s::<Group>::<Kind>`.
pub fn entity_type(group: &str, kind: &str) -> String {
    format!("K8s::{}::{kind}", group_segment(group))
}

/// The `<Group>` of an entity type.
pub fn group_segment(group: &str) -> String {
    let fixed = match group {
        "" => Some("Core"),
        "argoproj.io" => Some("Argo"),
        "source.toolkit.fluxcd.io"
        | "kustomize.toolkit.fluxcd.io"
        | "helm.toolkit.fluxcd.io"
        | "notification.toolkit.fluxcd.io"
        | "image.toolkit.fluxcd.io"
        | "fluxcd.controlplane.io" => Some("Flux"),
        "postgresql.cnpg.io" | "barmancloud.cnpg.io" => Some("Cnpg"),
        "helm.cattle.io" | "k3s.cattle.io" => Some("K3s"),
        _ => None,
    };
    if let Some(fixed) = fixed {
        return fixed.to_owned();
    }
    let first = group.split('.').next().unwrap_or(group);
    first.split('-').map(capitalise).collect()
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_read_from_k8s_openapi() {
        let deployment = builtin_at("apps/v1", "Deployment").unwrap();
        assert_eq!(deployment.plural, "deployments");
        assert!(deployment.namespaced);
        assert_eq!(deployment.entity_type(), "K8s::Apps::Deployment");
        let namespace = builtin_at("v1", "Namespace").unwrap();
        assert!(!namespace.namespaced);
        assert_eq!(namespace.entity_type(), "K8s::Core::Namespace");
        assert_eq!(
            builtin_at("networking.k8s.io/v1", "Ingress")
                .unwrap()
                .plural,
            "ingresses"
        );
        assert_eq!(
            builtin_at("rbac.authorization.k8s.io/v1", "ClusterRole")
                .unwrap()
                .entity_type(),
            "K8s::Rbac::ClusterRole"
        );
        assert!(builtin().len() >= 80, "{}", builtin().len());
        assert!(builtin_at("apiextensions.k8s.io/v1", "CustomResourceDefinition").is_some());
    }

    #[test]
    fn the_preferred_version_is_the_most_stable() {
        assert_eq!(
            preferred("autoscaling", "HorizontalPodAutoscaler")
                .unwrap()
                .version,
            "v2"
        );
        assert_eq!(
            for_entity_type("K8s::Autoscaling::HorizontalPodAutoscaler")
                .unwrap()
                .version,
            "v2"
        );
        assert!(version_rank("v1") > version_rank("v1beta2"));
        assert!(version_rank("v1beta2") > version_rank("v1beta1"));
        assert!(version_rank("v1beta1") > version_rank("v2alpha1"));
        assert!(version_rank("v2") > version_rank("v1"));
    }

    #[test]
    fn group_segments_follow_the_naming_rule() {
        assert_eq!(group_segment(""), "Core");
        assert_eq!(group_segment("apps"), "Apps");
        assert_eq!(group_segment("rbac.authorization.k8s.io"), "Rbac");
        assert_eq!(group_segment("cert-manager.io"), "CertManager");
        assert_eq!(group_segment("kustomize.toolkit.fluxcd.io"), "Flux");
        assert_eq!(group_segment("argoproj.io"), "Argo");
        assert_eq!(group_segment("example.com"), "Example");
    }

    #[test]
    fn paths_encode_namespace_defaulting_and_scope() {
        let cm = builtin_at("v1", "ConfigMap").unwrap();
        assert_eq!(
            cm.object_path(Some("shop"), "web"),
            "/api/v1/namespaces/shop/configmaps/web"
        );
        assert_eq!(cm.collection_path(None), "/api/v1/configmaps");
        let ns = builtin_at("v1", "Namespace").unwrap();
        assert_eq!(
            ns.object_path(Some("ignored"), "shop"),
            "/api/v1/namespaces/shop"
        );
        assert_eq!(encode("a b/c"), "a%20b%2Fc");
    }
}
