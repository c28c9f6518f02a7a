//! The accepted baseline: deviations an operator has looked at and accepted, bound to the
//! value they had. A value that moves away from the accepted one is drift again.
//!
//! Stored as `<env>/observation-baseline.json` on the snapshot branch.

use super::canonical::{canonical_value, to_canonical_file};
use super::deep::{DeepDiff, FieldKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub const BASELINE_VERSION: &str = "v1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservationBaseline {
    /// Always [`BASELINE_VERSION`].
    pub baseline: String,
    #[serde(default)]
    pub environment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    pub lexicons: BTreeMap<String, LexiconBaseline>,
}

/// Entity name → what is accepted for it.
pub type LexiconBaseline = BTreeMap<String, EntityBaseline>;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EntityBaseline {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    /// Sorted by path, one entry per path.
    #[serde(default)]
    pub accepted: Vec<AcceptedDeviation>,
}

impl EntityBaseline {
    /// The acceptance recorded for exactly this path.
    pub fn accepted_at(&self, path: &str) -> Option<&AcceptedDeviation> {
        self.accepted.iter().find(|a| a.path == path)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AcceptedDeviation {
    pub path: String,
    pub value: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded_at: Option<String>,
}

/// A live value to accept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deviation {
    pub entity: String,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    pub path: String,
    pub value: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

pub fn empty_baseline(environment: &str) -> ObservationBaseline {
    ObservationBaseline {
        baseline: BASELINE_VERSION.to_owned(),
        environment: environment.to_owned(),
        updated: None,
        lexicons: BTreeMap::new(),
    }
}

/// The stored baseline, or `None` (nothing accepted) for an empty, unparsable,
/// non-`v1` file or one whose `lexicons` is not an object.
pub fn parse_baseline(text: &str) -> Option<ObservationBaseline> {
    let value: Value = serde_json::from_str(text).ok()?;
    if value.get("baseline")?.as_str()? != BASELINE_VERSION || !value.get("lexicons")?.is_object() {
        return None;
    }
    serde_json::from_value(value).ok()
}

/// Sorted keys, two-space indent, one trailing newline.
pub fn serialize_baseline(baseline: &ObservationBaseline) -> String {
    let value = canonical_value(baseline).expect("a baseline is string-keyed JSON");
    to_canonical_file(&value)
}

/// The acceptance for one entity's path in one lexicon's slice.
pub fn accepted_deviation<'a>(
    lexicon: Option<&'a LexiconBaseline>,
    entity: &str,
    path: &str,
) -> Option<&'a AcceptedDeviation> {
    lexicon?.get(entity)?.accepted_at(path)
}

/// A new baseline with these deviations accepted under `lexicon`; the input is untouched.
///
/// An entry for the same path is replaced; entries stay sorted by path; each records
/// `now`, as does `updated`. An entity's type is the deviation's, else the one already
/// recorded. No deviations: the baseline comes back unchanged, `updated` included.
pub fn accept_deviations(
    baseline: &ObservationBaseline,
    lexicon: &str,
    deviations: &[Deviation],
    now: &str,
) -> ObservationBaseline {
    let mut next = baseline.clone();
    if deviations.is_empty() {
        return next;
    }
    let slice = next.lexicons.entry(lexicon.to_owned()).or_default();
    for deviation in deviations {
        let entity = slice.entry(deviation.entity.clone()).or_default();
        if deviation.entity_type.is_some() {
            entity.entity_type = deviation.entity_type.clone();
        }
        entity.accepted.retain(|a| a.path != deviation.path);
        entity.accepted.push(AcceptedDeviation {
            path: deviation.path.clone(),
            value: deviation.value.clone(),
            note: deviation.note.clone(),
            recorded_at: Some(now.to_owned()),
        });
        entity.accepted.sort_by(|a, b| a.path.cmp(&b.path));
    }
    next.baseline = BASELINE_VERSION.to_owned();
    next.updated = Some(now.to_owned());
    next
}

/// Every accepted entry across lexicons and entities.
pub fn count_accepted(baseline: Option<&ObservationBaseline>) -> usize {
    baseline.map_or(0, |b| {
        b.lexicons
            .values()
            .flat_map(|slice| slice.values())
            .map(|entity| entity.accepted.len())
            .sum()
    })
}

/// What `--update-baseline` records from one lexicon's deep diff: every reported drifted
/// and unclaimed row, at its live value. Never an absent row (there is no live value to
/// bind to), never a row already accepted.
pub fn deviations_to_record(diff: &DeepDiff) -> Vec<Deviation> {
    diff.drifted
        .iter()
        .chain(&diff.unclaimed)
        .flat_map(|entity| {
            entity
                .changes
                .iter()
                .filter(|row| matches!(row.kind, FieldKind::Drifted | FieldKind::Unclaimed))
                .filter_map(|row| {
                    Some(Deviation {
                        entity: entity.name.clone(),
                        entity_type: Some(entity.entity_type.clone()),
                        path: row.path.clone(),
                        value: row.live.clone()?,
                        note: None,
                    })
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::deep::{DeepEntityDrift, PropertyRow};
    use serde_json::json;

    const NOW: &str = "2026-01-02T03:04:05Z";

    fn deviation(entity: &str, path: &str, value: Value) -> Deviation {
        Deviation {
            entity: entity.into(),
            entity_type: Some("AWS::S3::Bucket".into()),
            path: path.into(),
            value,
            note: None,
        }
    }

    fn paths_of(b: &ObservationBaseline, lex: &str, entity: &str) -> Vec<String> {
        b.lexicons[lex][entity]
            .accepted
            .iter()
            .map(|a| a.path.clone())
            .collect()
    }

    #[test]
    fn a_baseline_round_trips_through_its_file_form() {
        let b = accept_deviations(
            &empty_baseline("prod"),
            "aws",
            &[deviation("bucket", "Versioning", json!("Suspended"))],
            NOW,
        );
        assert_eq!(parse_baseline(&serialize_baseline(&b)), Some(b));
    }

    #[test]
    fn the_file_form_is_sorted_indented_and_ends_in_a_newline() {
        let b = accept_deviations(
            &empty_baseline("prod"),
            "aws",
            &[deviation("bucket", "V", json!(1))],
            NOW,
        );
        assert_eq!(
            serialize_baseline(&b),
            "{\n  \"baseline\": \"v1\",\n  \"environment\": \"prod\",\n  \"lexicons\": {\n    \"aws\": {\n      \"bucket\": {\n        \"accepted\": [\n          {\n            \"path\": \"V\",\n            \"recordedAt\": \"2026-01-02T03:04:05Z\",\n            \"value\": 1\n          }\n        ],\n        \"type\": \"AWS::S3::Bucket\"\n      }\n    }\n  },\n  \"updated\": \"2026-01-02T03:04:05Z\"\n}\n"
        );
    }

    #[test]
    fn parse_refuses_null_empty_invalid_and_non_v1_files() {
        // scenario 36
        for text in [
            "",
            "null",
            "{not json",
            r#"{"baseline":"v2","environment":"prod","lexicons":{}}"#,
            r#"{"environment":"prod","lexicons":{}}"#,
            r#"{"baseline":"v1","environment":"prod","lexicons":null}"#,
            r#"{"baseline":"v1","environment":"prod","lexicons":[]}"#,
            "[]",
        ] {
            assert_eq!(parse_baseline(text), None, "{text:?} should be refused");
        }
        let ok = parse_baseline(r#"{"baseline":"v1","environment":"prod","lexicons":{}}"#);
        assert_eq!(ok, Some(empty_baseline("prod")));
    }

    #[test]
    fn accepting_replaces_an_entry_for_the_same_path_and_keeps_paths_sorted() {
        // scenario 36
        let first = accept_deviations(
            &empty_baseline("prod"),
            "aws",
            &[
                deviation("bucket", "Versioning", json!("Suspended")),
                deviation("bucket", "Logging.Target", json!("old")),
            ],
            "t1",
        );
        assert_eq!(
            paths_of(&first, "aws", "bucket"),
            ["Logging.Target", "Versioning"]
        );
        let second = accept_deviations(
            &first,
            "aws",
            &[deviation("bucket", "Logging.Target", json!("audit"))],
            "t2",
        );
        let accepted = &second.lexicons["aws"]["bucket"].accepted;
        assert_eq!(accepted.len(), 2);
        assert_eq!(accepted[0].value, json!("audit"));
        assert_eq!(accepted[0].recorded_at.as_deref(), Some("t2"));
        assert_eq!(accepted[1].recorded_at.as_deref(), Some("t1"));
        assert_eq!(second.updated.as_deref(), Some("t2"));
    }

    #[test]
    fn accepting_never_mutates_the_input() {
        // scenario 36
        let before = empty_baseline("prod");
        let copy = before.clone();
        let after = accept_deviations(&before, "aws", &[deviation("b", "p", json!(1))], NOW);
        assert_eq!(before, copy);
        assert_ne!(after, before);
    }

    #[test]
    fn accepting_nothing_returns_the_baseline_unchanged() {
        // scenario 36
        let mut b = empty_baseline("prod");
        b.updated = Some("earlier".into());
        assert_eq!(accept_deviations(&b, "aws", &[], NOW), b);
    }

    #[test]
    fn the_entity_type_is_the_deviations_else_the_recorded_one() {
        let mut untyped = deviation("b", "p", json!(1));
        untyped.entity_type = None;
        let none = accept_deviations(&empty_baseline("prod"), "aws", &[untyped.clone()], NOW);
        assert_eq!(none.lexicons["aws"]["b"].entity_type, None);
        let typed = accept_deviations(&none, "aws", &[deviation("b", "q", json!(1))], NOW);
        let kept = accept_deviations(&typed, "aws", &[untyped], NOW);
        assert_eq!(
            kept.lexicons["aws"]["b"].entity_type.as_deref(),
            Some("AWS::S3::Bucket")
        );
    }

    #[test]
    fn a_note_is_kept_with_the_accepted_value() {
        let mut d = deviation("b", "p", json!(1));
        d.note = Some("platform owns this".into());
        let b = accept_deviations(&empty_baseline("prod"), "aws", &[d], NOW);
        assert_eq!(
            b.lexicons["aws"]["b"].accepted[0].note.as_deref(),
            Some("platform owns this")
        );
    }

    #[test]
    fn accepted_entries_are_counted_across_lexicons_and_entities() {
        assert_eq!(count_accepted(None), 0);
        let b = accept_deviations(
            &empty_baseline("prod"),
            "aws",
            &[deviation("a", "x", json!(1)), deviation("b", "y", json!(1))],
            NOW,
        );
        let b = accept_deviations(&b, "k8s", &[deviation("c", "z", json!(1))], NOW);
        assert_eq!(count_accepted(Some(&b)), 3);
    }

    #[test]
    fn an_acceptance_is_found_by_entity_and_exact_path() {
        let b = accept_deviations(
            &empty_baseline("prod"),
            "aws",
            &[deviation("bucket", "Tags[0].Value", json!("platform"))],
            NOW,
        );
        let slice = b.lexicons.get("aws");
        assert_eq!(
            accepted_deviation(slice, "bucket", "Tags[0].Value").map(|a| &a.value),
            Some(&json!("platform"))
        );
        assert!(accepted_deviation(slice, "bucket", "Tags[0]").is_none());
        assert!(accepted_deviation(slice, "other", "Tags[0].Value").is_none());
        assert!(accepted_deviation(None, "bucket", "Tags[0].Value").is_none());
    }

    #[test]
    fn update_baseline_records_drifted_and_unclaimed_live_values_but_never_absent_or_accepted() {
        // scenario 39's recording rule, per the claimed-field classification
        let row = |path: &str, kind, declared: Option<Value>, live: Option<Value>| PropertyRow {
            path: path.into(),
            kind,
            declared,
            live,
            owner: None,
            held_by: None,
            source: None,
            baseline: None,
        };
        let entity = |name: &str, changes| DeepEntityDrift {
            name: name.into(),
            entity_type: "AWS::S3::Bucket".into(),
            changes,
        };
        let diff = DeepDiff {
            drifted: vec![entity(
                "bucket",
                vec![
                    row("Gone", FieldKind::Absent, Some(json!(1)), None),
                    row(
                        "Versioning",
                        FieldKind::Drifted,
                        Some(json!("Enabled")),
                        Some(json!("Suspended")),
                    ),
                ],
            )],
            unclaimed: vec![entity(
                "bucket",
                vec![row(
                    "Logging.Target",
                    FieldKind::Unclaimed,
                    None,
                    Some(json!("audit")),
                )],
            )],
            accepted: vec![entity(
                "bucket",
                vec![row(
                    "Quiet",
                    FieldKind::Drifted,
                    Some(json!(1)),
                    Some(json!(2)),
                )],
            )],
            ..Default::default()
        };
        let recorded = deviations_to_record(&diff);
        let paths: Vec<&str> = recorded.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["Versioning", "Logging.Target"]);
        assert_eq!(recorded[0].value, json!("Suspended"));
        assert_eq!(recorded[1].entity_type.as_deref(), Some("AWS::S3::Bucket"));
        let b = accept_deviations(&empty_baseline("prod"), "aws", &recorded, NOW);
        assert_eq!(
            paths_of(&b, "aws", "bucket"),
            ["Logging.Target", "Versioning"]
        );
    }
}
