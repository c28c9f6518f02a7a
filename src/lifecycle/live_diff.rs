//! The thin live diff: declared vs observed-now vs observed-then (the last snapshot).

use chant_lexicon::observation::Observation;
use chant_lexicon::{AttributeChange, ResourceMetadata, UnobservedReason};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceDrift {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub changes: Vec<AttributeChange>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeChild {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub owner: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnobservedResource {
    pub name: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    pub reason: UnobservedReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queried: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveDiff {
    /// Declared, observed absent.
    pub missing: Vec<String>,
    /// Live, undeclared, not a runtime child or a dependency.
    pub orphan: Vec<String>,
    pub runtime_children: Vec<RuntimeChild>,
    /// In the last snapshot, gone now (and not merely unread).
    pub disappeared: Vec<String>,
    /// Declared and observed, with no prior snapshot entry.
    pub newly_observed: Vec<String>,
    pub drifted_since_snapshot: Vec<ResourceDrift>,
    pub unchanged: Vec<String>,
    pub unobserved: Vec<UnobservedResource>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub queried: BTreeMap<String, String>,
}

impl LiveDiff {
    /// Missing, orphaned, disappeared or drifted: something an operator must look at.
    pub fn drift_count(&self) -> usize {
        self.missing.len()
            + self.orphan.len()
            + self.disappeared.len()
            + self.drifted_since_snapshot.len()
    }
}

/// Compare the identity-level fields of two readings of one object.
///
/// Attributes compare as JSON values: key order never drifts, array order does, `1` and
/// `"1"` differ. Only top-level attribute keys are reported.
pub fn compare_metadata(old: &ResourceMetadata, new: &ResourceMetadata) -> Vec<AttributeChange> {
    let mut changes = Vec::new();
    let mut field = |path: &str, a: Option<Value>, b: Option<Value>| {
        if a != b {
            changes.push(AttributeChange {
                path: path.to_owned(),
                old_value: a,
                new_value: b,
            });
        }
    };
    field(
        "status",
        Some(Value::from(old.status.clone())),
        Some(Value::from(new.status.clone())),
    );
    field(
        "physicalId",
        old.physical_id.clone().map(Value::from),
        new.physical_id.clone().map(Value::from),
    );
    field(
        "lastUpdated",
        old.last_updated.clone().map(Value::from),
        new.last_updated.clone().map(Value::from),
    );
    let keys: BTreeSet<&String> = old.attributes.keys().chain(new.attributes.keys()).collect();
    for key in keys {
        let (a, b) = (old.attributes.get(key), new.attributes.get(key));
        if a != b {
            changes.push(AttributeChange {
                path: format!("attributes.{key}"),
                old_value: a.cloned(),
                new_value: b.cloned(),
            });
        }
    }
    changes
}

/// The live diff of one lexicon.
pub fn diff_live(
    declared: &[String],
    now: &Observation,
    then: Option<&BTreeMap<String, ResourceMetadata>>,
) -> LiveDiff {
    let declared: BTreeSet<&str> = declared.iter().map(String::as_str).collect();
    let empty = BTreeMap::new();
    let then = then.unwrap_or(&empty);
    let unread: BTreeMap<&str, _> = now
        .unobserved
        .iter()
        .filter(|(name, _)| !now.resources.contains_key(*name))
        .map(|(name, entry)| (name.as_str(), entry))
        .collect();

    let mut diff = LiveDiff {
        queried: now.queried.clone(),
        ..Default::default()
    };

    for (name, entry) in &unread {
        diff.unobserved.push(UnobservedResource {
            name: (*name).to_owned(),
            entity_type: entry.entity_type.clone(),
            reason: entry.reason,
            detail: entry.detail.clone(),
            queried: now.queried_for(name).map(str::to_owned),
        });
    }

    for name in &declared {
        if !now.resources.contains_key(*name) && !unread.contains_key(name) {
            diff.missing.push((*name).to_owned());
        }
    }

    let mut runtime = BTreeSet::new();
    let mut dependencies = BTreeSet::new();
    for (name, meta) in &now.resources {
        if declared.contains(name.as_str()) {
            continue;
        }
        if meta.is_dependency() || meta.ambient {
            dependencies.insert(name.as_str());
        } else if let Some(owner) = meta.runtime_owner() {
            runtime.insert(name.as_str());
            diff.runtime_children.push(RuntimeChild {
                name: name.clone(),
                entity_type: meta.entity_type.clone(),
                owner: owner.to_owned(),
            });
        } else {
            diff.orphan.push(name.clone());
        }
    }

    for (name, meta) in then {
        let was_runtime_child = !declared.contains(name.as_str()) && meta.runtime_owner().is_some();
        let was_related =
            !declared.contains(name.as_str()) && (meta.is_dependency() || meta.ambient);
        if !now.resources.contains_key(name)
            && !unread.contains_key(name.as_str())
            && !was_runtime_child
            && !was_related
        {
            diff.disappeared.push(name.clone());
        }
    }

    for (name, meta) in &now.resources {
        if runtime.contains(name.as_str()) || dependencies.contains(name.as_str()) {
            continue;
        }
        match then.get(name) {
            None => {
                if declared.contains(name.as_str()) {
                    diff.newly_observed.push(name.clone());
                }
            }
            Some(previous) => {
                let changes = compare_metadata(previous, meta);
                if changes.is_empty() {
                    diff.unchanged.push(name.clone());
                } else {
                    diff.drifted_since_snapshot.push(ResourceDrift {
                        name: name.clone(),
                        entity_type: meta.entity_type.clone(),
                        changes,
                    });
                }
            }
        }
    }
    diff
}

/// Two snapshots compared: added, removed, changed, unchanged (artifacts and `--between`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SnapshotDiff {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<ResourceDrift>,
    pub unchanged: Vec<String>,
}

impl SnapshotDiff {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.unchanged.is_empty()
    }
}

pub fn diff_snapshots(
    previous: &BTreeMap<String, ResourceMetadata>,
    next: &BTreeMap<String, ResourceMetadata>,
) -> SnapshotDiff {
    let names: BTreeSet<&String> = previous.keys().chain(next.keys()).collect();
    let mut diff = SnapshotDiff::default();
    for name in names {
        match (previous.get(name), next.get(name)) {
            (None, Some(_)) => diff.added.push(name.clone()),
            (Some(_), None) => diff.removed.push(name.clone()),
            (Some(a), Some(b)) => {
                let changes = compare_metadata(a, b);
                if changes.is_empty() {
                    diff.unchanged.push(name.clone());
                } else {
                    diff.changed.push(ResourceDrift {
                        name: name.clone(),
                        entity_type: b.entity_type.clone(),
                        changes,
                    });
                }
            }
            (None, None) => {}
        }
    }
    diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::{OwnerChain, UnobservedEntity};
    use serde_json::json;

    fn meta(status: &str) -> ResourceMetadata {
        ResourceMetadata::new("T", status)
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn every_category_in_one_mixed_case() {
        // scenario 11
        let declared = names(&["a", "b", "c", "d"]);
        let mut now = Observation::new();
        now.present("b", meta("OK"));
        now.present("c", meta("ACTIVE"));
        now.present("d", meta("OK"));
        now.present("e", meta("OK"));
        let then = BTreeMap::from([
            ("a".to_owned(), meta("OK")),
            ("b".to_owned(), meta("OK")),
            ("c".to_owned(), meta("CREATING")),
        ]);
        let diff = diff_live(&declared, &now, Some(&then));
        assert_eq!(diff.missing, names(&["a"]));
        assert_eq!(diff.orphan, names(&["e"]));
        assert_eq!(diff.disappeared, names(&["a"]));
        assert_eq!(diff.newly_observed, names(&["d"]));
        assert_eq!(diff.drifted_since_snapshot.len(), 1);
        assert_eq!(diff.drifted_since_snapshot[0].name, "c");
        assert_eq!(
            diff.drifted_since_snapshot[0].changes,
            vec![AttributeChange {
                path: "status".into(),
                old_value: Some(json!("CREATING")),
                new_value: Some(json!("ACTIVE"))
            }]
        );
        assert_eq!(diff.unchanged, names(&["b"]));
        assert_eq!(diff.drift_count(), 4);
    }

    #[test]
    fn runtime_children_are_not_orphans() {
        // scenario 12
        let mut now = Observation::new();
        let mut child = meta("OK");
        child.owner_chain = Some(OwnerChain::Declared {
            entity: "web".into(),
        });
        now.present("web-rs", child);
        for (name, chain) in [
            ("u", OwnerChain::Unowned),
            ("f", OwnerChain::Foreign),
            ("k", OwnerChain::Unknown),
        ] {
            let mut m = meta("OK");
            m.owner_chain = Some(chain);
            now.present(name, m);
        }
        let diff = diff_live(&names(&["web"]), &now, None);
        assert_eq!(
            diff.runtime_children,
            vec![RuntimeChild {
                name: "web-rs".into(),
                entity_type: "T".into(),
                owner: "web".into()
            }]
        );
        assert_eq!(diff.orphan, names(&["f", "k", "u"]));
    }

    #[test]
    fn a_renamed_runtime_child_is_neither_disappeared_nor_drift() {
        // scenario 13
        let mut old_child = meta("OK");
        old_child.owner_chain = Some(OwnerChain::Declared {
            entity: "web".into(),
        });
        let then = BTreeMap::from([("web-abc".to_owned(), old_child.clone())]);
        let mut now = Observation::new();
        let mut new_child = old_child;
        new_child.status = "PENDING".into();
        now.present("web-def", new_child);
        let diff = diff_live(&[], &now, Some(&then));
        assert!(diff.disappeared.is_empty());
        assert!(diff.drifted_since_snapshot.is_empty() && diff.unchanged.is_empty());
        assert_eq!(diff.runtime_children.len(), 1);
    }

    #[test]
    fn unobserved_is_never_missing_nor_disappeared() {
        // scenario 14
        let mut now = Observation::new();
        now.unobserved(
            "a",
            UnobservedEntity::new(UnobservedReason::ReadFailed).detail("HTTP 500"),
        );
        let then = BTreeMap::from([("a".to_owned(), meta("OK"))]);
        let diff = diff_live(&names(&["a"]), &now, Some(&then));
        assert!(diff.missing.is_empty());
        assert!(diff.disappeared.is_empty());
        assert_eq!(diff.unobserved[0].reason, UnobservedReason::ReadFailed);
    }

    #[test]
    fn queried_passes_through_and_entries_win() {
        // scenario 15
        let mut now = Observation::new();
        now.unobserved(
            "a",
            UnobservedEntity::new(UnobservedReason::ReadFailed).queried("/entry"),
        );
        now.unobserved("b", UnobservedEntity::new(UnobservedReason::ReadFailed));
        now.queried("a", "/map-a");
        now.queried("b", "/map-b");
        let diff = diff_live(&names(&["a", "b"]), &now, None);
        assert_eq!(diff.unobserved[0].queried.as_deref(), Some("/entry"));
        assert_eq!(diff.unobserved[1].queried.as_deref(), Some("/map-b"));
        assert_eq!(diff.queried.len(), 2);
        let json = serde_json::to_value(diff_live(&[], &Observation::new(), None)).unwrap();
        assert!(json.get("queried").is_none());
    }

    #[test]
    fn attribute_key_order_is_not_drift_but_array_order_is() {
        // scenario 16
        let a = meta("OK").with_attribute("Placement", json!({"zone": "a", "rack": 1}));
        let b = meta("OK").with_attribute("Placement", json!({"rack": 1, "zone": "a"}));
        assert!(compare_metadata(&a, &b).is_empty());
        let c = meta("OK").with_attribute("Placement", json!({"rack": 2, "zone": "a"}));
        assert_eq!(compare_metadata(&a, &c)[0].path, "attributes.Placement");
        let x = meta("OK").with_attribute("L", json!([1, 2]));
        let y = meta("OK").with_attribute("L", json!([2, 1]));
        assert_eq!(compare_metadata(&x, &y).len(), 1);
        let one = meta("OK").with_attribute("n", json!(1));
        let text = meta("OK").with_attribute("n", json!("1"));
        assert_eq!(compare_metadata(&one, &text).len(), 1);
    }

    #[test]
    fn snapshots_diff_four_ways() {
        // scenario 17
        let prev = BTreeMap::from([
            ("a".to_owned(), meta("OK")),
            ("b".to_owned(), meta("OK")),
            ("c".to_owned(), meta("OK")),
        ]);
        let next = BTreeMap::from([
            ("b".to_owned(), meta("OK")),
            ("c".to_owned(), meta("BAD")),
            ("d".to_owned(), meta("OK")),
        ]);
        let diff = diff_snapshots(&prev, &next);
        assert_eq!(diff.added, names(&["d"]));
        assert_eq!(diff.removed, names(&["a"]));
        assert_eq!(diff.changed[0].name, "c");
        assert_eq!(diff.unchanged, names(&["b"]));
    }

    #[test]
    fn dependencies_and_ambient_objects_are_not_orphans() {
        let mut now = Observation::new();
        let mut dep = meta("OK");
        dep.referenced_by = vec!["web".into()];
        now.present("subnet", dep);
        let mut amb = meta("OK");
        amb.ambient = true;
        now.present("sg", amb);
        let diff = diff_live(&[], &now, None);
        assert!(diff.orphan.is_empty() && diff.unchanged.is_empty());
    }
}
