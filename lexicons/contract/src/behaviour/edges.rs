//! The estate's edges, built the same way on both sides of a delta: from the lexicon's own
//! declared reference syntax, or rebuilt from observed identifiers through its reference
//! catalog. "Not computed" is its own state: an empty list is a claim that nothing
//! references anything, and is never passed for edges nobody worked out.

use crate::declared::DeclaredEntity;
use crate::metadata::ResourceMetadata;
use crate::reference::{ReferenceCatalog, Relation};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One edge between two entities of the request, by entity name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub relation: Relation,
    /// Where the reference was written (`props.database`, `VpcId`).
    pub label: String,
}

/// A reference that resolved to no entity of the request.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DanglingRef {
    pub from: String,
    pub path: String,
    pub value: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeOrigin {
    /// The lexicon's own reference syntax in the build output.
    Declared,
    /// Observed identifiers matched through the reference catalog.
    Rebuilt,
}

/// Edges and how complete they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edges {
    /// Nobody worked out what references what.
    NotComputed,
    Computed {
        origin: EdgeOrigin,
        edges: Vec<Edge>,
        dangling: Vec<DanglingRef>,
        /// Kinds with no reference rule: nothing was looked for on them.
        unresolved_kinds: Vec<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoverageVerdict {
    /// Every reference between the named entities is in `edges`.
    Complete,
    /// Some kinds were not looked at; `unresolvedKinds` says which.
    Partial,
    NotComputed,
}

/// What a report says about the graph it was computed over, copied from the request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EdgeCoverage {
    pub verdict: CoverageVerdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<EdgeOrigin>,
    /// How many edges the request carried (absent when not computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dangling: Vec<DanglingRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved_kinds: Vec<String>,
}

impl Edges {
    /// The list, or `None` when not computed (never an empty stand-in).
    pub fn list(&self) -> Option<&[Edge]> {
        match self {
            Edges::NotComputed => None,
            Edges::Computed { edges, .. } => Some(edges),
        }
    }

    pub fn coverage(&self) -> EdgeCoverage {
        match self {
            Edges::NotComputed => EdgeCoverage {
                verdict: CoverageVerdict::NotComputed,
                origin: None,
                edges: None,
                dangling: Vec::new(),
                unresolved_kinds: Vec::new(),
            },
            Edges::Computed {
                origin,
                edges,
                dangling,
                unresolved_kinds,
            } => EdgeCoverage {
                verdict: if unresolved_kinds.is_empty() {
                    CoverageVerdict::Complete
                } else {
                    CoverageVerdict::Partial
                },
                origin: Some(*origin),
                edges: Some(edges.len()),
                dangling: dangling.clone(),
                unresolved_kinds: unresolved_kinds.clone(),
            },
        }
    }
}

/// Declared edges from references written inside props. `target` recognises the
/// lexicon's reference syntax (`{"Ref": "db"}`, `{"ref": "db"}`) and names the entity.
pub fn edges_from_props(
    entities: &[DeclaredEntity],
    target: impl Fn(&Value) -> Option<String>,
) -> Edges {
    edges_from_references(entities, |entity| {
        let mut found = Vec::new();
        walk_refs(&entity.props, "props".to_owned(), &target, &mut found);
        found
    })
}

/// Declared edges from the `(path, name)` references a lexicon found in each entity: a
/// name that is a declared entity is an edge, any other name dangles.
pub fn edges_from_references(
    entities: &[DeclaredEntity],
    references: impl Fn(&DeclaredEntity) -> Vec<(String, String)>,
) -> Edges {
    let names: BTreeSet<&str> = entities.iter().map(|e| e.name.as_str()).collect();
    let mut edges = BTreeSet::new();
    let mut dangling = BTreeSet::new();
    for entity in entities {
        for (path, to) in references(entity) {
            if names.contains(to.as_str()) {
                edges.insert(Edge {
                    from: entity.name.clone(),
                    to,
                    relation: Relation::Reference,
                    label: path,
                });
            } else {
                dangling.insert(DanglingRef {
                    from: entity.name.clone(),
                    path,
                    value: to,
                });
            }
        }
    }
    Edges::Computed {
        origin: EdgeOrigin::Declared,
        edges: edges.into_iter().collect(),
        dangling: dangling.into_iter().collect(),
        unresolved_kinds: Vec::new(),
    }
}

fn walk_refs(
    value: &Value,
    path: String,
    target: &impl Fn(&Value) -> Option<String>,
    found: &mut Vec<(String, String)>,
) {
    if let Some(name) = target(value) {
        found.push((path, name));
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                walk_refs(child, format!("{path}.{key}"), target, found);
            }
        }
        Value::Array(items) => {
            for child in items {
                walk_refs(child, format!("{path}[]"), target, found);
            }
        }
        _ => {}
    }
}

/// The values at `path` (`a.b`, `arr[].id`) of an attribute tree, each with the path it
/// was found at (`a.b`, `arr[].id`); `[]` steps into every element of an array.
pub fn labelled_values_at<'a>(root: &'a Value, path: &str) -> Vec<(String, &'a Value)> {
    let mut current = vec![(String::new(), root)];
    for segment in path.split('.') {
        let (key, each) = match segment.strip_suffix("[]") {
            Some(key) => (key, true),
            None => (segment, false),
        };
        current = current
            .into_iter()
            .filter_map(|(at, v)| {
                let at = if at.is_empty() {
                    key.to_owned()
                } else {
                    format!("{at}.{key}")
                };
                Some((at, v.get(key)?))
            })
            .flat_map(|(at, v)| match (each, v) {
                (true, Value::Array(items)) => {
                    items.iter().map(|i| (format!("{at}[]"), i)).collect()
                }
                _ => vec![(at, v)],
            })
            .collect();
    }
    current
}

/// The strings at `path` (a terminal array contributes its string elements).
fn values_at<'a>(root: &'a Value, path: &str) -> Vec<&'a str> {
    labelled_values_at(root, path)
        .into_iter()
        .flat_map(|(_, v)| match v {
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect::<Vec<_>>(),
            other => other.as_str().into_iter().collect(),
        })
        .collect()
}

/// Rebuild edges among observed objects: index every object by its own name, physical id
/// and identity attributes, then follow each reference rule of its kind. A value that
/// matches nothing is dangling, never a wrong edge; a kind with no rule is named.
pub fn rebuild_edges(
    catalog: &ReferenceCatalog,
    observed: &BTreeMap<String, ResourceMetadata>,
) -> Edges {
    let attrs = |meta: &ResourceMetadata| Value::Object(meta.attributes.clone());
    let mut index: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    let mut identities = Vec::new();
    for (name, meta) in observed {
        identities.push((name.as_str(), meta.entity_type.as_str(), name.clone()));
        if let Some(id) = &meta.physical_id {
            identities.push((name.as_str(), meta.entity_type.as_str(), id.clone()));
        }
        let tree = attrs(meta);
        for rule in catalog
            .identities
            .iter()
            .filter(|i| i.kind == meta.entity_type)
        {
            for path in &rule.ids {
                for value in values_at(&tree, path) {
                    identities.push((name.as_str(), meta.entity_type.as_str(), value.to_owned()));
                }
            }
        }
    }
    for (name, kind, value) in &identities {
        index.entry(value.as_str()).or_default().push((name, kind));
    }
    let mut edges = BTreeSet::new();
    let mut dangling = BTreeSet::new();
    let mut unresolved = BTreeSet::new();
    for (name, meta) in observed {
        let rules: Vec<_> = catalog
            .refs
            .iter()
            .filter(|r| r.from == meta.entity_type)
            .collect();
        if rules.is_empty() {
            unresolved.insert(meta.entity_type.clone());
            continue;
        }
        let tree = attrs(meta);
        for rule in rules {
            for value in values_at(&tree, &rule.path) {
                let targets: Vec<&str> = index
                    .get(value)
                    .into_iter()
                    .flatten()
                    .filter(|(target, kind)| {
                        *target != name.as_str()
                            && rule.target_kind.as_deref().is_none_or(|k| k == *kind)
                    })
                    .map(|(target, _)| *target)
                    .collect();
                if targets.is_empty() {
                    dangling.insert(DanglingRef {
                        from: name.clone(),
                        path: rule.path.clone(),
                        value: value.to_owned(),
                    });
                }
                for to in targets {
                    edges.insert(Edge {
                        from: name.clone(),
                        to: to.to_owned(),
                        relation: rule.relation,
                        label: rule.via_attr.clone().unwrap_or_else(|| rule.path.clone()),
                    });
                }
            }
        }
    }
    Edges::Computed {
        origin: EdgeOrigin::Rebuilt,
        edges: edges.into_iter().collect(),
        dangling: dangling.into_iter().collect(),
        unresolved_kinds: unresolved.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{IdentityPaths, ReferenceRule};
    use serde_json::json;

    #[test]
    fn declared_references_become_edges_and_unknown_targets_dangle() {
        let entities = vec![
            DeclaredEntity::new(
                "web",
                "S",
                json!({"db": {"ref": "db"}, "peers": [{"ref": "gone"}]}),
            ),
            DeclaredEntity::new("db", "D", json!({})),
        ];
        let edges = edges_from_props(&entities, |v| {
            v.get("ref").and_then(Value::as_str).map(str::to_owned)
        });
        let Edges::Computed {
            edges: list,
            dangling,
            ..
        } = &edges
        else {
            panic!("computed")
        };
        assert_eq!(list.len(), 1);
        assert_eq!((list[0].from.as_str(), list[0].to.as_str()), ("web", "db"));
        assert_eq!(list[0].label, "props.db");
        assert_eq!(dangling[0].value, "gone");
        assert_eq!(edges.coverage().verdict, CoverageVerdict::Complete);
    }

    #[test]
    fn no_references_is_an_empty_list_and_not_computed_has_none() {
        let entities = vec![DeclaredEntity::new("a", "S", json!({"x": 1}))];
        let none = edges_from_props(&entities, |_| None);
        assert_eq!(none.list(), Some(&[][..]));
        assert_eq!(Edges::NotComputed.list(), None);
        assert_eq!(
            Edges::NotComputed.coverage().verdict,
            CoverageVerdict::NotComputed
        );
    }

    #[test]
    fn observed_identifiers_rebuild_edges_through_the_catalog() {
        let catalog = ReferenceCatalog {
            identities: vec![IdentityPaths {
                kind: "Vpc".into(),
                ids: vec!["VpcId".into()],
            }],
            refs: vec![ReferenceRule {
                from: "Subnet".into(),
                path: "VpcId".into(),
                target_kind: Some("Vpc".into()),
                relation: Relation::Containment,
                label: "in VPC".into(),
                via_attr: Some("VpcId".into()),
                chained: false,
            }],
        };
        let mut observed = BTreeMap::new();
        observed.insert(
            "vpc".to_owned(),
            ResourceMetadata::new("Vpc", "OK").with_attribute("VpcId", "vpc-1"),
        );
        observed.insert(
            "subnet".to_owned(),
            ResourceMetadata::new("Subnet", "OK").with_attribute("VpcId", "vpc-1"),
        );
        observed.insert(
            "stray".to_owned(),
            ResourceMetadata::new("Subnet", "OK").with_attribute("VpcId", "vpc-9"),
        );
        let edges = rebuild_edges(&catalog, &observed);
        let Edges::Computed {
            edges: list,
            dangling,
            unresolved_kinds,
            ..
        } = &edges
        else {
            panic!("computed")
        };
        assert_eq!(list.len(), 1);
        assert_eq!(
            (list[0].from.as_str(), list[0].to.as_str()),
            ("subnet", "vpc")
        );
        assert_eq!(dangling.len(), 1);
        assert_eq!(unresolved_kinds, &vec!["Vpc".to_owned()]);
        assert_eq!(edges.coverage().verdict, CoverageVerdict::Partial);
    }
}
