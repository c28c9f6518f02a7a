//! Entity names: the annotation `chant.intentius.io/entity` where present, else
//! lowerFirst(kind) + PascalCase(name) (`Deployment` `my-app` → `deploymentMyApp`), with
//! `.<namespace>` appended when two objects would share a name, then `~2`, `~3`, … if
//! that still collides. The declared reader, the orphan report and the export generator
//! all name through here, so an import followed by a plan is all `noop`.

use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;

pub const ENTITY_ANNOTATION: &str = "chant.intentius.io/entity";

/// What naming needs to know about one object.
#[derive(Clone, Debug)]
pub struct Nameable<'a> {
    pub annotation: Option<&'a str>,
    pub kind: &'a str,
    pub name: &'a str,
    pub namespace: Option<&'a str>,
}

impl<'a> Nameable<'a> {
    pub fn of(object: &'a serde_json::Value) -> Self {
        let meta = &object["metadata"];
        Nameable {
            annotation: meta["annotations"][ENTITY_ANNOTATION].as_str(),
            kind: object["kind"].as_str().unwrap_or_default(),
            name: meta["name"].as_str().unwrap_or_default(),
            namespace: meta["namespace"].as_str(),
        }
    }
}

/// `deploymentMyApp`.
pub fn base_name(kind: &str, name: &str) -> String {
    let mut out = String::new();
    let mut chars = kind.chars();
    if let Some(first) = chars.next() {
        out.extend(first.to_lowercase());
        out.push_str(chars.as_str());
    }
    for part in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

/// Names for a set of objects, in input order. Names in `taken` (already used by
/// something else) count as collisions too.
pub fn assign(objects: &[Nameable<'_>], taken: &BTreeSet<String>) -> Vec<String> {
    let bases: Vec<Base<'_>> = objects.iter().map(Nameable::base).collect();
    settle(&bases, taken)
}

/// An object's name before collisions are settled: its annotation, else its base name.
#[derive(Clone, Debug)]
pub struct Base<'a> {
    pub base: String,
    pub annotated: bool,
    pub namespace: Option<&'a str>,
}

impl<'a> Nameable<'a> {
    pub fn base(&self) -> Base<'a> {
        Base {
            base: match self.annotation {
                Some(a) => a.to_owned(),
                None => base_name(self.kind, self.name),
            },
            annotated: self.annotation.is_some(),
            namespace: self.namespace,
        }
    }
}

/// [`assign`] for objects whose bases are worked out already (each object's base is its
/// own; only the collisions need them all).
pub fn settle(bases: &[Base<'_>], taken: &BTreeSet<String>) -> Vec<String> {
    let mut counts: FxHashMap<&str, usize> = FxHashMap::default();
    for b in bases.iter().filter(|b| !b.annotated) {
        *counts.entry(&b.base).or_default() += 1;
    }
    let mut used: FxHashSet<String> = taken.iter().cloned().collect();
    let mut out = Vec::with_capacity(bases.len());
    for Base {
        base,
        annotated,
        namespace,
    } in bases
    {
        if *annotated {
            used.insert(base.clone());
            out.push(base.clone());
            continue;
        }
        let mut name = base.clone();
        if (counts[base.as_str()] > 1 || taken.contains(base))
            && let Some(ns) = namespace
        {
            name = format!("{base}.{ns}");
        }
        let mut candidate = name.clone();
        let mut n = 1;
        while used.contains(&candidate) {
            n += 1;
            candidate = format!("{name}~{n}");
        }
        used.insert(candidate.clone());
        out.push(candidate);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj<'a>(kind: &'a str, name: &'a str, ns: Option<&'a str>) -> Nameable<'a> {
        Nameable {
            annotation: None,
            kind,
            name,
            namespace: ns,
        }
    }

    #[test]
    fn names_follow_the_design_rule() {
        assert_eq!(base_name("Deployment", "my-app"), "deploymentMyApp");
        assert_eq!(
            base_name("ConfigMap", "app.config_v2"),
            "configMapAppConfigV2"
        );
        let names = assign(
            &[
                obj("Deployment", "web", Some("a")),
                obj("Deployment", "web", Some("b")),
                obj("Service", "web", Some("a")),
                Nameable {
                    annotation: Some("frontDoor"),
                    ..obj("Ingress", "web", Some("a"))
                },
            ],
            &BTreeSet::new(),
        );
        assert_eq!(
            names,
            [
                "deploymentWeb.a",
                "deploymentWeb.b",
                "serviceWeb",
                "frontDoor"
            ]
        );
    }

    #[test]
    fn a_name_already_taken_gets_the_namespace_then_a_counter() {
        let taken = BTreeSet::from(["serviceWeb".to_owned()]);
        let names = assign(&[obj("Service", "web", Some("b"))], &taken);
        assert_eq!(names, ["serviceWeb.b"]);
        let names = assign(
            &[
                obj("ClusterRole", "a-b", None),
                obj("ClusterRole", "a.b", None),
            ],
            &BTreeSet::new(),
        );
        assert_eq!(names, ["clusterRoleAB", "clusterRoleAB~2"]);
    }
}
