//! The change set: what a plan proposes for every name the read touched.
//!
//! Ownership comes from the live read only, never from a snapshot. An unobserved entity is
//! never a create or a delete; only an owned, undeclared, non-runtime object is a delete.

use super::live_diff::diff_live;
use chant_lexicon::observation::Observation;
use chant_lexicon::{
    AttributeChange, DisruptionVerdict, Ownership, ResourceMetadata, UnobservedReason,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Create,
    Update,
    Delete,
    Adopt,
    Runtime,
    Noop,
    Unobserved,
}

impl Action {
    /// Display and count order.
    pub const ORDER: [Action; 7] = [
        Self::Create,
        Self::Update,
        Self::Delete,
        Self::Adopt,
        Self::Runtime,
        Self::Noop,
        Self::Unobserved,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Create => "create",
            Self::Update => "update",
            Self::Delete => "delete",
            Self::Adopt => "adopt",
            Self::Runtime => "runtime",
            Self::Noop => "noop",
            Self::Unobserved => "unobserved",
        }
    }

    /// Does this action change the estate?
    pub fn is_change(self) -> bool {
        matches!(self, Self::Create | Self::Update | Self::Delete)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub declared: bool,
    pub in_snapshot: bool,
    pub live: bool,
    pub observed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeSetEntry {
    pub name: String,
    pub lexicon: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    pub action: Action,
    pub evidence: Evidence,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deltas: Vec<AttributeChange>,
    pub ownership: Ownership,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unobserved_reason: Option<UnobservedReason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unobserved_detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queried: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_owner: Option<String>,
    /// What applying an update costs, from the lexicon's `classify_disruption`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disruption: Option<DisruptionVerdict>,
}

/// Everything one lexicon's plan is computed from.
pub struct PlanInput<'a> {
    pub lexicon: &'a str,
    /// Declared names, in declaration order.
    pub declared: &'a [String],
    pub now: &'a Observation,
    /// The last snapshot's resources: evidence, never authority.
    pub then: Option<&'a BTreeMap<String, ResourceMetadata>>,
    /// Declared-and-different property paths per entity (from the claimed-field
    /// classification). Unclaimed fields never appear here.
    pub property_drift: Option<&'a BTreeMap<String, Vec<AttributeChange>>>,
}

/// Classify every name the read touched.
pub fn build_change_set(input: &PlanInput<'_>) -> Vec<ChangeSetEntry> {
    let diff = diff_live(input.declared, input.now, input.then);
    let drifted: BTreeMap<&str, &Vec<AttributeChange>> = diff
        .drifted_since_snapshot
        .iter()
        .map(|d| (d.name.as_str(), &d.changes))
        .collect();
    let declared: BTreeSet<&str> = input.declared.iter().map(String::as_str).collect();
    let empty = BTreeMap::new();
    let then = input.then.unwrap_or(&empty);
    let now = input.now;

    let names: BTreeSet<&str> = declared
        .iter()
        .copied()
        .chain(now.resources.keys().map(String::as_str))
        .chain(then.keys().map(String::as_str))
        .chain(now.unobserved.keys().map(String::as_str))
        .collect();

    names
        .into_iter()
        .map(|name| {
            let live_meta = now.resources.get(name);
            let live = live_meta.is_some();
            let is_declared = declared.contains(name);
            let unobserved = if live { None } else { now.unobserved.get(name) };
            let runtime_owner = if is_declared {
                None
            } else {
                live_meta.and_then(|m| m.runtime_owner()).map(str::to_owned)
            };
            let entity_type = live_meta
                .map(|m| m.entity_type.clone())
                .or_else(|| then.get(name).map(|m| m.entity_type.clone()))
                .or_else(|| unobserved.and_then(|u| u.entity_type.clone()));
            let ownership = live_meta
                .map(ResourceMetadata::ownership)
                .unwrap_or_default();
            let mut deltas = Vec::new();
            let action = if unobserved.is_some() {
                Action::Unobserved
            } else if is_declared && !live {
                Action::Create
            } else if is_declared {
                if let Some(changes) = drifted.get(name) {
                    deltas.extend(changes.iter().cloned());
                }
                if let Some(changes) = input.property_drift.and_then(|p| p.get(name)) {
                    deltas.extend(changes.iter().cloned());
                }
                if deltas.is_empty() {
                    Action::Noop
                } else {
                    Action::Update
                }
            } else if live && runtime_owner.is_some() {
                Action::Runtime
            } else if live {
                if ownership == Ownership::Owned {
                    Action::Delete
                } else {
                    Action::Adopt
                }
            } else {
                Action::Noop
            };
            ChangeSetEntry {
                name: name.to_owned(),
                lexicon: input.lexicon.to_owned(),
                entity_type,
                action,
                evidence: Evidence {
                    declared: is_declared,
                    in_snapshot: then.contains_key(name),
                    live,
                    observed: unobserved.is_none(),
                },
                deltas,
                ownership,
                unobserved_reason: unobserved.map(|u| u.reason),
                unobserved_detail: unobserved.and_then(|u| u.detail.clone()),
                queried: now.queried_for(name).map(str::to_owned),
                runtime_owner,
                disruption: None,
            }
        })
        .collect()
}

/// Counts per action, in display order.
pub fn summarize(entries: &[ChangeSetEntry]) -> BTreeMap<Action, usize> {
    let mut counts: BTreeMap<Action, usize> = Action::ORDER.iter().map(|a| (*a, 0)).collect();
    for entry in entries {
        *counts.entry(entry.action).or_default() += 1;
    }
    counts
}

/// `artifacts:reports:terraform` for a GitLab merge request: creates, updates, deletes only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GitlabMrReport {
    pub create: usize,
    pub update: usize,
    pub delete: usize,
}

pub fn gitlab_mr_report(entries: &[ChangeSetEntry]) -> GitlabMrReport {
    let counts = summarize(entries);
    GitlabMrReport {
        create: counts[&Action::Create],
        update: counts[&Action::Update],
        delete: counts[&Action::Delete],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::{OwnerChain, UnobservedEntity};
    use serde_json::json;

    fn meta(status: &str) -> ResourceMetadata {
        ResourceMetadata::new("T", status)
    }

    fn plan(
        declared: &[&str],
        now: &Observation,
        then: Option<&BTreeMap<String, ResourceMetadata>>,
    ) -> Vec<ChangeSetEntry> {
        let declared: Vec<String> = declared.iter().map(|s| (*s).to_owned()).collect();
        build_change_set(&PlanInput {
            lexicon: "x",
            declared: &declared,
            now,
            then,
            property_drift: None,
        })
    }

    fn action_of(entries: &[ChangeSetEntry], name: &str) -> Action {
        entries.iter().find(|e| e.name == name).unwrap().action
    }

    #[test]
    fn declared_and_not_live_is_a_create() {
        // scenario 18
        let entries = plan(&["web"], &Observation::new(), None);
        assert_eq!(entries[0].action, Action::Create);
        assert_eq!(
            entries[0].evidence,
            Evidence {
                declared: true,
                in_snapshot: false,
                live: false,
                observed: true
            }
        );
        assert_eq!(entries[0].ownership, Ownership::Unknown);
    }

    #[test]
    fn status_drift_since_the_snapshot_is_an_update_and_identical_is_noop() {
        // scenario 19
        let mut now = Observation::new();
        now.present("a", meta("ACTIVE"));
        now.present("b", meta("OK"));
        let then = BTreeMap::from([
            ("a".to_owned(), meta("CREATING")),
            ("b".to_owned(), meta("OK")),
        ]);
        let entries = plan(&["a", "b"], &now, Some(&then));
        assert_eq!(entries[0].action, Action::Update);
        assert_eq!(
            entries[0].deltas,
            vec![AttributeChange {
                path: "status".into(),
                old_value: Some(json!("CREATING")),
                new_value: Some(json!("ACTIVE"))
            }]
        );
        assert_eq!(entries[1].action, Action::Noop);
    }

    #[test]
    fn undeclared_live_objects_are_adopted_unless_owned_and_the_snapshot_never_matters() {
        // scenario 20
        let mut now = Observation::new();
        now.present("plain", meta("OK"));
        now.present("mine", meta("OK").with_ownership(Ownership::Owned));
        now.present("theirs", meta("OK").with_ownership(Ownership::Foreign));
        let entries = plan(&[], &now, None);
        assert_eq!(action_of(&entries, "plain"), Action::Adopt);
        assert_eq!(action_of(&entries, "mine"), Action::Delete);
        assert_eq!(action_of(&entries, "theirs"), Action::Adopt);
        let then = BTreeMap::from([(
            "plain".to_owned(),
            meta("OK").with_ownership(Ownership::Owned),
        )]);
        assert_eq!(
            action_of(&plan(&[], &now, Some(&then)), "plain"),
            Action::Adopt
        );
    }

    #[test]
    fn an_owned_runtime_child_is_never_deleted() {
        // scenario 21
        let mut now = Observation::new();
        let mut child = meta("OK").with_ownership(Ownership::Owned);
        child.owner_chain = Some(OwnerChain::Declared {
            entity: "web".into(),
        });
        now.present("web-rs", child);
        now.present("web", meta("OK"));
        let entries = plan(&["web"], &now, None);
        let child = entries.iter().find(|e| e.name == "web-rs").unwrap();
        assert_eq!(child.action, Action::Runtime);
        assert_eq!(child.runtime_owner.as_deref(), Some("web"));
    }

    #[test]
    fn an_unobserved_entity_is_never_create_or_delete() {
        // scenario 22
        let mut now = Observation::new();
        now.unobserved(
            "a",
            UnobservedEntity::new(UnobservedReason::NoBinding).queried("/entry"),
        );
        now.unobserved(
            "b",
            UnobservedEntity::new(UnobservedReason::ReadFailed).detail("HTTP 500"),
        );
        now.queried("a", "/map");
        let then = BTreeMap::from([("b".to_owned(), meta("OK").with_ownership(Ownership::Owned))]);
        let entries = plan(&["a"], &now, Some(&then));
        for e in &entries {
            assert_eq!(e.action, Action::Unobserved);
            assert!(!e.evidence.observed);
        }
        assert_eq!(entries[0].queried.as_deref(), Some("/entry"));
        assert_eq!(entries[1].unobserved_detail.as_deref(), Some("HTTP 500"));
    }

    #[test]
    fn the_gitlab_report_counts_changes_only() {
        // scenario 23
        let mut now = Observation::new();
        now.present("upd", meta("B"));
        now.present("same", meta("A"));
        now.present("owned-orphan", meta("A").with_ownership(Ownership::Owned));
        now.present(
            "foreign-orphan",
            meta("A").with_ownership(Ownership::Foreign),
        );
        let then = BTreeMap::from([
            ("upd".to_owned(), meta("A")),
            ("same".to_owned(), meta("A")),
        ]);
        let entries = plan(&["new", "upd", "same"], &now, Some(&then));
        assert_eq!(
            gitlab_mr_report(&entries),
            GitlabMrReport {
                create: 1,
                update: 1,
                delete: 1
            }
        );
        let mut only_unobserved = Observation::new();
        only_unobserved.unobserved("u", UnobservedEntity::new(UnobservedReason::ReadFailed));
        assert_eq!(
            gitlab_mr_report(&plan(&["u"], &only_unobserved, None)),
            GitlabMrReport {
                create: 0,
                update: 0,
                delete: 0
            }
        );
    }

    #[test]
    fn declared_property_drift_is_an_update() {
        let mut now = Observation::new();
        now.present("bucket", meta("OK"));
        let drift = BTreeMap::from([(
            "bucket".to_owned(),
            vec![AttributeChange {
                path: "Versioning.Status".into(),
                old_value: Some(json!("Enabled")),
                new_value: Some(json!("Suspended")),
            }],
        )]);
        let declared = vec!["bucket".to_owned()];
        let entries = build_change_set(&PlanInput {
            lexicon: "aws",
            declared: &declared,
            now: &now,
            then: None,
            property_drift: Some(&drift),
        });
        assert_eq!(entries[0].action, Action::Update);
        assert_eq!(entries[0].deltas[0].path, "Versioning.Status");
    }
}
