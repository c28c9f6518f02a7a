//! The deep diff of one lexicon: every declared entity's claimed-field classification,
//! plus the holes and the deeply read objects nobody declared.

use super::claim::{EntityFields, FieldKind, PropertyRow, classify_trees};
use super::normalize::{normalize, normalize_in_place};
use crate::lifecycle::baseline::{EntityBaseline, LexiconBaseline};
use crate::lifecycle::live_diff::UnobservedResource;
use chant_lexicon::parallel::map_on_every_core;
use chant_lexicon::{
    AttributeChange, DeclaredEntity, DeepObservation, DeepResourceObservation, HookCache,
    NormalizationHooks, Side,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeepEntityDrift {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub changes: Vec<PropertyRow>,
}

/// Every list sorted by entity name; rows sorted by path.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeepDiff {
    /// Entities with drifted or absent rows: what may become an update.
    pub drifted: Vec<DeepEntityDrift>,
    /// Entities with live fields the declaration never set: reported, never drift.
    pub unclaimed: Vec<DeepEntityDrift>,
    /// Entities with rows held at their accepted baseline value.
    pub accepted: Vec<DeepEntityDrift>,
    /// Declared entities with no drift and nothing accepted (unclaimed fields aside).
    pub unchanged: Vec<String>,
    /// The deep read could not look.
    pub unobserved: Vec<UnobservedResource>,
    /// Read deeply, never declared: not diffed.
    pub undeclared_entities: Vec<String>,
}

impl DeepDiff {
    /// Reported drifted and absent rows.
    pub fn drift_count(&self) -> usize {
        count_rows(&self.drifted)
    }

    pub fn unclaimed_count(&self) -> usize {
        count_rows(&self.unclaimed)
    }

    pub fn accepted_count(&self) -> usize {
        count_rows(&self.accepted)
    }
}

fn count_rows(entities: &[DeepEntityDrift]) -> usize {
    entities.iter().map(|e| e.changes.len()).sum()
}

/// Classify one declared entity against its live tree: both trees normalized with the
/// same hooks (each side's counterpart is the other's raw tree), then walked together.
/// The live tree is normalized where it is.
pub fn entity_fields(
    entity: &DeclaredEntity,
    entity_type: &str,
    live: DeepResourceObservation,
    hooks: &HookCache<'_>,
    baseline: Option<&EntityBaseline>,
) -> EntityFields {
    let DeepResourceObservation {
        properties: mut live_tree,
        field_owners,
        ..
    } = live;
    // The declared side first: its counterpart is the live tree as it was read.
    let declared_tree = normalize(
        &entity.props,
        entity_type,
        Side::Declared,
        Some(&live_tree),
        hooks,
    );
    normalize_in_place(
        &mut live_tree,
        entity_type,
        Side::Live,
        Some(&entity.props),
        hooks,
    );
    classify_trees(
        &declared_tree,
        &live_tree,
        entity_type,
        hooks,
        &field_owners,
        baseline,
    )
}

fn entity_type_of<'a>(entity: &'a DeclaredEntity, live: &'a DeepResourceObservation) -> &'a str {
    if live.entity_type.is_empty() {
        &entity.entity_type
    } else {
        &live.entity_type
    }
}

/// One declared entity classified against its live tree.
pub struct Classified {
    pub name: String,
    pub entity_type: String,
    pub fields: EntityFields,
}

/// Classify the live tree read for a declared entity.
pub fn classify_entity(
    entity: &DeclaredEntity,
    tree: DeepResourceObservation,
    hooks: &HookCache<'_>,
    baseline: Option<&LexiconBaseline>,
) -> Classified {
    let entity_type = entity_type_of(entity, &tree).to_owned();
    let fields = entity_fields(
        entity,
        &entity_type,
        tree,
        hooks,
        baseline.and_then(|b| b.get(&entity.name)),
    );
    Classified {
        name: entity.name.clone(),
        entity_type,
        fields,
    }
}

/// What was classified while the deep read was still going on.
#[derive(Default)]
pub struct Streamed {
    pub classified: Vec<Classified>,
    /// Trees handed over that nothing declares.
    pub undeclared: Vec<String>,
}

/// The deep diff of one lexicon. A declared entity with no live tree yields nothing here:
/// the thin diff already says missing or unobserved.
pub fn diff_deep(
    declared: &[DeclaredEntity],
    live: &DeepObservation,
    hooks: &NormalizationHooks,
    baseline: Option<&LexiconBaseline>,
) -> DeepDiff {
    diff_deep_with(declared, live, hooks, baseline, Streamed::default())
}

/// [`diff_deep`] for a read that handed some of its trees over as it went: those arrive
/// classified in `streamed`, the rest are in `live`.
pub fn diff_deep_with(
    declared: &[DeclaredEntity],
    live: &DeepObservation,
    hooks: &NormalizationHooks,
    baseline: Option<&LexiconBaseline>,
    streamed: Streamed,
) -> DeepDiff {
    let by_name: BTreeMap<&str, &DeclaredEntity> =
        declared.iter().map(|e| (e.name.as_str(), e)).collect();
    let read: HashSet<&str> = live
        .resources
        .keys()
        .map(String::as_str)
        .chain(streamed.classified.iter().map(|c| c.name.as_str()))
        .chain(streamed.undeclared.iter().map(String::as_str))
        .collect();
    let mut undeclared_entities: Vec<String> = live
        .resources
        .keys()
        .filter(|name| !by_name.contains_key(name.as_str()))
        .cloned()
        .chain(streamed.undeclared.iter().cloned())
        .collect();
    undeclared_entities.sort();
    undeclared_entities.dedup();
    let mut diff = DeepDiff {
        unobserved: live
            .unobserved
            .iter()
            .filter(|(name, _)| !read.contains(name.as_str()))
            .map(|(name, entry)| UnobservedResource {
                name: name.clone(),
                entity_type: entry.entity_type.clone(),
                reason: entry.reason,
                detail: entry.detail.clone(),
                queried: entry.queried.clone(),
            })
            .collect(),
        undeclared_entities,
        ..Default::default()
    };
    let pairs: Vec<(&DeclaredEntity, &DeepResourceObservation)> = live
        .resources
        .iter()
        .filter_map(|(name, tree)| Some((*by_name.get(name.as_str())?, tree)))
        .collect();
    let mut classified: Vec<Classified> = map_on_every_core(
        &pairs,
        || HookCache::new(hooks),
        |cache, (entity, tree)| classify_entity(entity, (*tree).clone(), cache, baseline),
    )
    .into_iter()
    .chain(streamed.classified)
    .collect();
    classified.sort_by(|a, b| a.name.cmp(&b.name));
    for Classified {
        name,
        entity_type,
        fields,
    } in classified
    {
        let entry = |changes: Vec<PropertyRow>| DeepEntityDrift {
            name: name.clone(),
            entity_type: entity_type.clone(),
            changes,
        };
        if fields.drifted.is_empty() && fields.accepted.is_empty() {
            diff.unchanged.push(name.clone());
        }
        if !fields.drifted.is_empty() {
            diff.drifted.push(entry(fields.drifted));
        }
        if !fields.unclaimed.is_empty() {
            diff.unclaimed.push(entry(fields.unclaimed));
        }
        if !fields.accepted.is_empty() {
            diff.accepted.push(entry(fields.accepted));
        }
    }
    diff
}

/// An entity's drifted and absent rows as plan deltas. `oldValue` is the live value and
/// `newValue` the declared one: what applying the declaration would change, from → to.
/// Unclaimed rows never become a delta.
pub fn drift_changes(rows: &[PropertyRow]) -> Vec<AttributeChange> {
    rows.iter()
        .filter(|row| matches!(row.kind, FieldKind::Drifted | FieldKind::Absent))
        .map(|row| AttributeChange {
            path: row.path.clone(),
            old_value: row.live.clone(),
            new_value: row.declared.clone(),
        })
        .collect()
}

/// Entity → deltas, for [`PlanInput::property_drift`](crate::lifecycle::change_set::PlanInput).
pub fn property_drift(diff: &DeepDiff) -> BTreeMap<String, Vec<AttributeChange>> {
    diff.drifted
        .iter()
        .map(|e| (e.name.clone(), drift_changes(&e.changes)))
        .filter(|(_, changes)| !changes.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::baseline::{
        Deviation, accept_deviations, deviations_to_record, empty_baseline,
    };
    use crate::lifecycle::change_set::{Action, PlanInput, build_change_set};
    use crate::lifecycle::deep::claim::ClaimSource;
    use crate::lifecycle::deep::normalize::UNRESOLVED;
    use chant_lexicon::deep::TypeMatch;
    use chant_lexicon::observation::Observation;
    use chant_lexicon::{ResourceMetadata, UnobservedEntity, UnobservedReason};
    use serde_json::{Value, json};

    const BUCKET: &str = "AWS::S3::Bucket";

    fn declared(name: &str, props: Value) -> DeclaredEntity {
        DeclaredEntity::new(name, BUCKET, props)
    }

    fn tree(properties: Value) -> DeepResourceObservation {
        DeepResourceObservation {
            entity_type: BUCKET.into(),
            properties,
            ..Default::default()
        }
    }

    fn observation(resources: Vec<(&str, DeepResourceObservation)>) -> DeepObservation {
        DeepObservation {
            resources: resources
                .into_iter()
                .map(|(n, r)| (n.to_owned(), r))
                .collect(),
            unobserved: BTreeMap::new(),
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    fn scenario_33() -> (Vec<DeclaredEntity>, DeepObservation) {
        let entities = vec![
            declared(
                "bucket",
                json!({"Versioning": {"Status": "Enabled"}, "A": 1, "Arn": UNRESOLVED, "Name": "b"}),
            ),
            declared("missing", json!({"Name": "m"})),
            declared("same", json!({"Name": "s"})),
        ];
        let mut live = observation(vec![
            (
                "bucket",
                tree(json!({
                    "Versioning": {"Status": "Suspended"},
                    "LoggingConfiguration": {"TargetBucket": "logs"},
                    "Arn": "arn:aws:s3:::b",
                    "Name": "b"
                })),
            ),
            ("same", tree(json!({"Name": "s"}))),
            ("stray", tree(json!({"Name": "x"}))),
        ]);
        live.unobserved.insert(
            "hole".into(),
            UnobservedEntity::new(UnobservedReason::ReadFailed)
                .typed(BUCKET)
                .detail("HTTP 500"),
        );
        (entities, live)
    }

    #[test]
    fn the_deep_diff_classifies_changed_unclaimed_absent_and_unresolved_paths() {
        // scenario 33
        let (entities, live) = scenario_33();
        let diff = diff_deep(&entities, &live, &NormalizationHooks::default(), None);
        assert_eq!(diff.drifted.len(), 1);
        let rows: Vec<(&str, FieldKind)> = diff.drifted[0]
            .changes
            .iter()
            .map(|r| (r.path.as_str(), r.kind))
            .collect();
        assert_eq!(
            rows,
            [
                ("A", FieldKind::Absent),
                ("Versioning.Status", FieldKind::Drifted)
            ]
        );
        assert_eq!(
            diff.unclaimed[0].changes[0].path,
            "LoggingConfiguration.TargetBucket"
        );
        assert_eq!(diff.unchanged, names(&["same"]));
        assert_eq!(diff.undeclared_entities, names(&["stray"]));
        assert_eq!(diff.unobserved[0].name, "hole");
        assert_eq!(diff.unobserved[0].detail.as_deref(), Some("HTTP 500"));
        assert_eq!(diff.drift_count(), 2);
        assert_eq!(diff.unclaimed_count(), 1);
    }

    #[test]
    fn a_declared_entity_with_no_live_tree_yields_no_absent_rows() {
        // scenario 33
        let (entities, live) = scenario_33();
        let diff = diff_deep(&entities, &live, &NormalizationHooks::default(), None);
        let everywhere: Vec<&str> = diff
            .drifted
            .iter()
            .chain(&diff.unclaimed)
            .map(|e| e.name.as_str())
            .chain(diff.unchanged.iter().map(String::as_str))
            .collect();
        assert!(!everywhere.contains(&"missing"));
    }

    #[test]
    fn an_entity_with_only_unclaimed_fields_is_still_unchanged() {
        let diff = diff_deep(
            &[declared("b", json!({"Name": "b"}))],
            &observation(vec![("b", tree(json!({"Name": "b", "Extra": 1})))]),
            &NormalizationHooks::default(),
            None,
        );
        assert_eq!(diff.unchanged, names(&["b"]));
        assert_eq!(diff.unclaimed[0].name, "b");
        assert!(diff.drifted.is_empty());
    }

    #[test]
    fn an_accepted_deviation_is_listed_under_accepted_and_the_entity_is_not_unchanged() {
        // scenario 34
        let baseline = accept_deviations(
            &empty_baseline("prod"),
            "aws",
            &[Deviation {
                entity: "b".into(),
                entity_type: None,
                path: "Tags[0].Value".into(),
                value: json!("platform"),
                note: None,
            }],
            "t",
        );
        let entities = [declared("b", json!({"Tags": [{"Value": "team"}]}))];
        let accepted_live =
            observation(vec![("b", tree(json!({"Tags": [{"Value": "platform"}]})))]);
        let diff = diff_deep(
            &entities,
            &accepted_live,
            &NormalizationHooks::default(),
            baseline.lexicons.get("aws"),
        );
        assert!(diff.drifted.is_empty());
        assert!(diff.unchanged.is_empty());
        assert_eq!(
            diff.accepted[0].changes[0].baseline,
            Some(json!("platform"))
        );
        assert_eq!(diff.accepted_count(), 1);

        let moved_live = observation(vec![(
            "b",
            tree(json!({"Tags": [{"Value": "someone-else"}]})),
        )]);
        let diff = diff_deep(
            &entities,
            &moved_live,
            &NormalizationHooks::default(),
            baseline.lexicons.get("aws"),
        );
        let row = &diff.drifted[0].changes[0];
        assert_eq!(
            (row.declared.clone(), row.live.clone(), row.baseline.clone()),
            (
                Some(json!("team")),
                Some(json!("someone-else")),
                Some(json!("platform"))
            )
        );
    }

    #[test]
    fn both_trees_go_through_the_same_hooks() {
        let hooks = NormalizationHooks::default()
            .prune_always(TypeMatch::any(), &["**.Arn"])
            .order_by(TypeMatch::any(), "Tags", &["Key"])
            .default_value(TypeMatch::any(), "Versioning.Status", json!("Suspended"));
        let entities = [declared(
            "b",
            json!({"Arn": "declared-arn", "Tags": [{"Key": "b", "Value": "2"}, {"Key": "a", "Value": "1"}]}),
        )];
        let live = observation(vec![(
            "b",
            tree(json!({
                "Arn": "live-arn",
                "Tags": [{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}],
                "Versioning": {"Status": "Suspended"}
            })),
        )]);
        let diff = diff_deep(&entities, &live, &hooks, None);
        assert!(diff.drifted.is_empty(), "{:?}", diff.drifted);
        assert!(diff.unclaimed.is_empty(), "{:?}", diff.unclaimed);
        assert_eq!(diff.unchanged, names(&["b"]));
    }

    #[test]
    fn a_declared_property_at_its_default_is_still_compared() {
        let hooks = NormalizationHooks::default().default_value(
            TypeMatch::any(),
            "Versioning.Status",
            json!("Suspended"),
        );
        let diff = diff_deep(
            &[declared("b", json!({"Versioning": {"Status": "Enabled"}}))],
            &observation(vec![(
                "b",
                tree(json!({"Versioning": {"Status": "Suspended"}})),
            )]),
            &hooks,
            None,
        );
        assert_eq!(diff.drifted[0].changes[0].path, "Versioning.Status");
    }

    #[test]
    fn secrets_compare_by_presence_and_never_reach_a_row() {
        let diff = diff_deep(
            &[declared("db", json!({"MasterUserPassword": "declared"}))],
            &observation(vec![(
                "db",
                tree(json!({"MasterUserPassword": "live", "AuthToken": "t"})),
            )]),
            &NormalizationHooks::default(),
            None,
        );
        assert!(diff.drifted.is_empty());
        assert_eq!(diff.unclaimed[0].changes[0].live, Some(json!("[REDACTED]")));
    }

    #[test]
    fn field_owners_of_the_live_tree_reach_the_rows() {
        // scenario 35 and the claimed-field fallback
        let mut live_tree = tree(json!({"spec": {"replicas": 5, "paused": false}}));
        live_tree.field_owners = [("spec.replicas".to_owned(), "hpa-controller".to_owned())].into();
        let diff = diff_deep(
            &[declared("web", json!({"spec": {"paused": true}}))],
            &observation(vec![("web", live_tree)]),
            &NormalizationHooks::default(),
            None,
        );
        assert_eq!(diff.drifted[0].changes[0].owner, None);
        let unclaimed = &diff.unclaimed[0].changes[0];
        assert_eq!(unclaimed.held_by.as_deref(), Some("hpa-controller"));
        assert_eq!(unclaimed.source, Some(ClaimSource::FieldManager));
    }

    #[test]
    fn drifted_rows_become_deltas_from_live_to_declared_and_unclaimed_rows_never_do() {
        let diff = diff_deep(
            &[declared(
                "b",
                json!({"Versioning": {"Status": "Enabled"}, "A": 1}),
            )],
            &observation(vec![(
                "b",
                tree(json!({"Versioning": {"Status": "Suspended"}, "Extra": true})),
            )]),
            &NormalizationHooks::default(),
            None,
        );
        let deltas = property_drift(&diff);
        assert_eq!(
            deltas["b"],
            vec![
                AttributeChange {
                    path: "A".into(),
                    old_value: None,
                    new_value: Some(json!(1)),
                },
                AttributeChange {
                    path: "Versioning.Status".into(),
                    old_value: Some(json!("Suspended")),
                    new_value: Some(json!("Enabled")),
                },
            ]
        );
        assert!(drift_changes(&diff.unclaimed[0].changes).is_empty());
    }

    #[test]
    fn only_declared_drift_makes_a_plan_update() {
        let entities = [
            declared("drifted", json!({"V": "Enabled"})),
            declared("unclaimed", json!({"V": "Enabled"})),
        ];
        let live = observation(vec![
            ("drifted", tree(json!({"V": "Suspended"}))),
            ("unclaimed", tree(json!({"V": "Enabled", "Extra": 1}))),
        ]);
        let diff = diff_deep(&entities, &live, &NormalizationHooks::default(), None);
        let drift = property_drift(&diff);
        let mut now = Observation::new();
        now.present("drifted", ResourceMetadata::new(BUCKET, "OK"));
        now.present("unclaimed", ResourceMetadata::new(BUCKET, "OK"));
        let declared_names = names(&["drifted", "unclaimed"]);
        let plan = build_change_set(&PlanInput {
            lexicon: "aws",
            declared: &declared_names,
            now: &now,
            then: None,
            property_drift: Some(&drift),
        });
        assert_eq!(plan[0].action, Action::Update);
        assert_eq!(plan[1].action, Action::Noop);
    }

    #[test]
    fn recording_then_rediffing_quiets_every_recorded_deviation() {
        let entities = [declared("b", json!({"V": "Enabled"}))];
        let live = observation(vec![("b", tree(json!({"V": "Suspended", "Extra": 1})))]);
        let hooks = NormalizationHooks::default();
        let first = diff_deep(&entities, &live, &hooks, None);
        let baseline = accept_deviations(
            &empty_baseline("prod"),
            "aws",
            &deviations_to_record(&first),
            "t",
        );
        let second = diff_deep(&entities, &live, &hooks, baseline.lexicons.get("aws"));
        assert!(second.drifted.is_empty() && second.unclaimed.is_empty());
        assert_eq!(second.accepted_count(), 2);
        assert!(deviations_to_record(&second).is_empty());
    }

    #[test]
    fn the_deep_diff_serializes_in_camel_case() {
        let (entities, live) = scenario_33();
        let json = serde_json::to_value(diff_deep(
            &entities,
            &live,
            &NormalizationHooks::default(),
            None,
        ))
        .unwrap();
        assert_eq!(json["undeclaredEntities"], json!(["stray"]));
        assert_eq!(json["drifted"][0]["changes"][1]["kind"], "drifted");
        assert_eq!(json["unobserved"][0]["reason"], "read-failed");
    }
}
