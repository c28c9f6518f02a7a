//! The claimed-field classification: the declaration's own properties are the fields
//! chant set, so every live value is `unchanged` (declared and equal), `drifted` (declared
//! and different — the only case that may become an update) or `unclaimed` (undeclared:
//! reported with its live value, never drift). A declared path the live tree lacks is
//! `absent`; a declared `<chant:unresolved>` is never compared.
//!
//! Wire vocabulary against the reference's deep diff: `drifted` ↔ `changed`,
//! `unclaimed` ↔ `undeclared`, `absent` ↔ `absent`.

use super::flatten::{ArrayAt, element_keys, flatten, is_leaf};
use super::normalize::{UNRESOLVED, normalize};
use super::path::{Segment, TreePath, ancestors};
use crate::lifecycle::baseline::EntityBaseline;
use crate::lifecycle::canonical::json_equal;
use chant_lexicon::{HookCache, NormalizationHooks, Side};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FieldKind {
    /// Declared, live, different.
    Drifted,
    /// Live, never declared.
    Unclaimed,
    /// Declared, not in the live tree.
    Absent,
}

/// How an unclaimed field's holder is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimSource {
    /// The substrate names the writer (Kubernetes managedFields).
    FieldManager,
    /// Only that the declaration did not set it.
    ClaimedFields,
}

/// One classified path. `declared` is present iff the declaration has the path, `live`
/// iff the live tree has it; `baseline` is the accepted value where one was recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PropertyRow {
    pub path: String,
    pub kind: FieldKind,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub declared: Option<Value>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub live: Option<Value>,
    /// The manager that wrote the live value, where the substrate records one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// On an unclaimed row: who holds the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_by: Option<String>,
    /// On an unclaimed row: whether `held_by` came from the substrate or only the claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<ClaimSource>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub baseline: Option<Value>,
}

/// A JSON `null` that is there is `Some(Null)`, not an absent field.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl PropertyRow {
    fn new(path: &str, kind: FieldKind, declared: Option<&Value>, live: Option<&Value>) -> Self {
        PropertyRow {
            path: path.to_owned(),
            kind,
            declared: declared.cloned(),
            live: live.cloned(),
            owner: None,
            held_by: None,
            source: None,
            baseline: None,
        }
    }
}

/// One entity's classified fields, rows in path order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EntityFields {
    /// Drifted and absent rows: what is reported as drift.
    pub drifted: Vec<PropertyRow>,
    pub unclaimed: Vec<PropertyRow>,
    /// Rows whose live value is the one in the baseline: listed, not alerted.
    pub accepted: Vec<PropertyRow>,
    /// How many declared paths are live and equal.
    pub unchanged: usize,
}

/// Classify one entity from its two normalized trees, walked together. Rows come out in
/// path order.
///
/// Where one side has a leaf and the other a container of another kind, the path is one
/// drifted row carrying both subtrees. An empty `{}`/`[]` claims nothing inside it: live
/// entries under a declared `{}` are unclaimed. Array elements pair up by their address
/// (`[#key]` where the lexicon keys every element on that side, else `[index]`).
pub fn classify_trees(
    declared: &Value,
    live: &Value,
    entity_type: &str,
    hooks: &HookCache<'_>,
    field_owners: &BTreeMap<String, String>,
    baseline: Option<&EntityBaseline>,
) -> EntityFields {
    let mut walk = Classify {
        entity_type,
        hooks,
        field_owners,
        baseline,
        at: TreePath::default(),
        out: EntityFields::default(),
    };
    walk.children(Some(declared), Some(live));
    let mut out = walk.out;
    for rows in [&mut out.drifted, &mut out.unclaimed, &mut out.accepted] {
        rows.sort_by(|a, b| a.path.cmp(&b.path));
    }
    out
}

struct Classify<'a> {
    entity_type: &'a str,
    hooks: &'a HookCache<'a>,
    field_owners: &'a BTreeMap<String, String>,
    baseline: Option<&'a EntityBaseline>,
    at: TreePath,
    out: EntityFields,
}

/// Where an array element sits in the path: by its key or by its position.
#[derive(PartialEq, Eq)]
enum Element {
    Index(usize),
    Key(String),
}

impl Classify<'_> {
    /// The node at `self.at`, on either side or both.
    fn node(&mut self, declared: Option<&Value>, live: Option<&Value>) {
        let path = self.at.path();
        let row = match (declared, live) {
            (Some(d), _) if d.as_str() == Some(UNRESOLVED) => return,
            (Some(d), Some(l)) => match compare(d, l) {
                Comparison::Descend => return self.children(declared, live),
                Comparison::Equal => {
                    self.out.unchanged += 1;
                    return;
                }
                Comparison::Differs => {
                    let mut row = PropertyRow::new(path, FieldKind::Drifted, Some(d), Some(l));
                    row.owner = owner_of(self.field_owners, path).map(str::to_owned);
                    row
                }
            },
            (Some(d), None) if is_leaf(d) => {
                PropertyRow::new(path, FieldKind::Absent, Some(d), None)
            }
            (None, Some(l)) if is_leaf(l) => unclaimed(path, l, self.field_owners),
            (Some(_), None) | (None, Some(_)) => return self.children(declared, live),
            (None, None) => return,
        };
        route(row, self.baseline, &mut self.out);
    }

    /// The children of a container present on one side or on both (then of one kind).
    fn children(&mut self, declared: Option<&Value>, live: Option<&Value>) {
        let (d, l) = (
            declared.and_then(Value::as_object),
            live.and_then(Value::as_object),
        );
        if d.is_none() && l.is_none() {
            return self.elements(declared, live);
        }
        for (key, value) in d.into_iter().flatten() {
            self.at.push(Segment::Key(key));
            self.node(Some(value), l.and_then(|l| l.get(key)));
            self.at.pop();
        }
        for (key, value) in l.into_iter().flatten() {
            if d.is_none_or(|d| !d.contains_key(key)) {
                self.at.push(Segment::Key(key));
                self.node(None, Some(value));
                self.at.pop();
            }
        }
    }

    fn elements(&mut self, declared: Option<&Value>, live: Option<&Value>) {
        let declared = self.addressed(declared, Side::Declared);
        let mut live = self.addressed(live, Side::Live);
        for (at, value) in declared {
            let counterpart = live
                .iter()
                .position(|(other, _)| *other == at)
                .map(|i| live.swap_remove(i).1);
            self.element(&at, Some(value), counterpart);
        }
        for (at, value) in live {
            self.element(&at, None, Some(value));
        }
    }

    fn element(&mut self, at: &Element, declared: Option<&Value>, live: Option<&Value>) {
        match at {
            Element::Index(i) => self.at.push(Segment::Index(*i)),
            Element::Key(key) => self.at.push_keyed(key),
        }
        self.node(declared, live);
        self.at.pop();
    }

    /// An array's elements with their addresses, as flattening addresses them.
    fn addressed<'v>(&self, array: Option<&'v Value>, side: Side) -> Vec<(Element, &'v Value)> {
        let Some(items) = array.and_then(Value::as_array) else {
            return Vec::new();
        };
        let at = ArrayAt {
            entity_type: self.entity_type,
            side,
            path: self.at.path(),
            pattern: self.at.pattern(),
        };
        match element_keys(items, &at, self.hooks) {
            Some(keys) => keys.into_iter().map(Element::Key).zip(items).collect(),
            None => items
                .iter()
                .enumerate()
                .map(|(i, v)| (Element::Index(i), v))
                .collect(),
        }
    }
}

enum Comparison {
    Equal,
    Differs,
    /// Both containers of one kind: their children are classified one by one.
    Descend,
}

fn compare(declared: &Value, live: &Value) -> Comparison {
    if is_leaf(declared) && is_leaf(live) {
        return if json_equal(declared, live) {
            Comparison::Equal
        } else {
            Comparison::Differs
        };
    }
    match (declared, live) {
        (Value::Object(_), Value::Object(_)) | (Value::Array(_), Value::Array(_)) => {
            Comparison::Descend
        }
        _ => Comparison::Differs,
    }
}

fn unclaimed(path: &str, live: &Value, field_owners: &BTreeMap<String, String>) -> PropertyRow {
    let mut row = PropertyRow::new(path, FieldKind::Unclaimed, None, Some(live));
    match owner_of(field_owners, path) {
        Some(manager) => {
            row.owner = Some(manager.to_owned());
            row.held_by = Some(manager.to_owned());
            row.source = Some(ClaimSource::FieldManager);
        }
        None => row.source = Some(ClaimSource::ClaimedFields),
    }
    row
}

/// The manager recorded for the path, else for its nearest recorded ancestor (a manager
/// that owns `metadata.annotations` owns each annotation).
fn owner_of<'a>(field_owners: &'a BTreeMap<String, String>, path: &str) -> Option<&'a str> {
    std::iter::once(path)
        .chain(ancestors(path))
        .find_map(|p| field_owners.get(p))
        .map(String::as_str)
}

/// The value-bound baseline: a row whose live value is the accepted one is accepted; a
/// live value that moved away from it is reported again, with the baseline beside it.
fn route(mut row: PropertyRow, baseline: Option<&EntityBaseline>, out: &mut EntityFields) {
    if let Some(accepted) = baseline.and_then(|b| b.accepted_at(&row.path)) {
        let suppressed = row
            .live
            .as_ref()
            .is_some_and(|live| json_equal(live, &accepted.value));
        row.baseline = Some(accepted.value.clone());
        if suppressed {
            out.accepted.push(row);
            return;
        }
    }
    match row.kind {
        FieldKind::Drifted | FieldKind::Absent => out.drifted.push(row),
        FieldKind::Unclaimed => out.unclaimed.push(row),
    }
}

/// The fields a declaration sets, in the diff's path grammar, normalized with the
/// lexicon's hooks: for a consumer that has a declaration and no diff.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClaimedFields {
    leaves: BTreeMap<String, Value>,
}

pub fn claimed_fields(
    props: &Value,
    entity_type: &str,
    hooks: &NormalizationHooks,
) -> ClaimedFields {
    let hooks = HookCache::new(hooks);
    let tree = normalize(props, entity_type, Side::Declared, None, &hooks);
    let leaves = flatten(&tree, entity_type, Side::Declared, &hooks)
        .into_iter()
        .map(|(path, value)| (path, value.clone()))
        .collect();
    ClaimedFields { leaves }
}

impl ClaimedFields {
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.leaves.keys().map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.leaves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.leaves.is_empty()
    }

    /// Did this declaration set the path — itself, or a scalar above it? An empty `{}`
    /// claims nothing inside it.
    pub fn is_claimed(&self, path: &str) -> bool {
        self.leaves.contains_key(path)
            || ancestors(path).any(|a| {
                self.leaves
                    .get(a)
                    .is_some_and(|v| !matches!(v, Value::Object(_) | Value::Array(_)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::baseline::AcceptedDeviation;
    use chant_lexicon::deep::TypeMatch;
    use serde_json::json;

    /// Both trees flattened (as the live side, `Tags` keyed by `Key`) and classified.
    fn classify_with(
        declared: Value,
        live: Value,
        field_owners: &BTreeMap<String, String>,
        baseline: Option<&EntityBaseline>,
    ) -> EntityFields {
        let hooks = NormalizationHooks::default().order_by(TypeMatch::any(), "Tags", &["Key"]);
        let hooks = HookCache::new(&hooks);
        classify_trees(&declared, &live, "T", &hooks, field_owners, baseline)
    }

    fn classify(declared: Value, live: Value) -> EntityFields {
        classify_with(declared, live, &BTreeMap::new(), None)
    }

    fn row_paths(rows: &[PropertyRow]) -> Vec<&str> {
        rows.iter().map(|r| r.path.as_str()).collect()
    }

    fn owners(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(p, m)| ((*p).to_owned(), (*m).to_owned()))
            .collect()
    }

    fn baseline(entries: &[(&str, Value)]) -> EntityBaseline {
        EntityBaseline {
            entity_type: None,
            accepted: entries
                .iter()
                .map(|(path, value)| AcceptedDeviation {
                    path: (*path).to_owned(),
                    value: value.clone(),
                    note: None,
                    recorded_at: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_declared_and_equal_path_is_unchanged_and_reports_nothing() {
        // claimed-field table: declared and equal → unchanged
        let out = classify(
            json!({"spec": {"replicas": 3}}),
            json!({"spec": {"replicas": 3}}),
        );
        assert_eq!(out.unchanged, 1);
        assert!(out.drifted.is_empty() && out.unclaimed.is_empty() && out.accepted.is_empty());
    }

    #[test]
    fn a_declared_and_different_path_is_drifted_with_both_values() {
        // claimed-field table: declared and different → drifted; scenario 33
        let out = classify(
            json!({"Versioning": {"Status": "Enabled"}}),
            json!({"Versioning": {"Status": "Suspended"}}),
        );
        assert_eq!(
            out.drifted,
            vec![PropertyRow::new(
                "Versioning.Status",
                FieldKind::Drifted,
                Some(&json!("Enabled")),
                Some(&json!("Suspended")),
            )]
        );
    }

    #[test]
    fn an_undeclared_live_path_is_unclaimed_and_never_drift() {
        // claimed-field table: undeclared → unclaimed; scenario 33
        let out = classify(
            json!({"Name": "b"}),
            json!({"Name": "b", "LoggingConfiguration": {"TargetBucket": "logs"}}),
        );
        assert!(out.drifted.is_empty());
        assert_eq!(out.unclaimed.len(), 1);
        let row = &out.unclaimed[0];
        assert_eq!(row.path, "LoggingConfiguration.TargetBucket");
        assert_eq!(row.kind, FieldKind::Unclaimed);
        assert_eq!(row.live, Some(json!("logs")));
        assert_eq!(row.declared, None);
        assert_eq!(row.source, Some(ClaimSource::ClaimedFields));
        assert_eq!(row.held_by, None);
    }

    #[test]
    fn a_declared_only_path_is_absent() {
        // scenario 33
        let out = classify(json!({"A": 1, "B": 2}), json!({"B": 2}));
        assert_eq!(
            out.drifted,
            vec![PropertyRow::new(
                "A",
                FieldKind::Absent,
                Some(&json!(1)),
                None
            )]
        );
    }

    #[test]
    fn a_declared_unresolved_path_is_skipped_with_everything_under_it() {
        // scenario 33
        let out = classify(
            json!({"Arn": UNRESOLVED, "Policy": UNRESOLVED}),
            json!({"Arn": "arn:aws:x", "Policy": {"Statement": [{"Effect": "Allow"}]}}),
        );
        assert_eq!(out, EntityFields::default());
    }

    #[test]
    fn an_unclaimed_field_names_its_field_manager_when_the_substrate_records_one() {
        // claimed-field table: fieldOwners wins over the claim for a held field
        let live = json!({"spec": {"replicas": 5, "paused": false}});
        let declared = json!({"spec": {}});
        let out = classify_with(
            declared,
            live,
            &owners(&[("spec.replicas", "hpa-controller")]),
            None,
        );
        assert_eq!(row_paths(&out.unclaimed), ["spec.paused", "spec.replicas"]);
        let paused = &out.unclaimed[0];
        assert_eq!(paused.source, Some(ClaimSource::ClaimedFields));
        assert_eq!(paused.owner, None);
        let replicas = &out.unclaimed[1];
        assert_eq!(replicas.source, Some(ClaimSource::FieldManager));
        assert_eq!(replicas.held_by.as_deref(), Some("hpa-controller"));
        assert_eq!(replicas.owner.as_deref(), Some("hpa-controller"));
    }

    #[test]
    fn a_field_manager_recorded_on_an_ancestor_holds_the_fields_below_it() {
        let out = classify_with(
            json!({"metadata": {"name": "web"}}),
            json!({"metadata": {"name": "web", "annotations": {"a": "1"}}}),
            &owners(&[("metadata.annotations", "kubectl")]),
            None,
        );
        assert_eq!(out.unclaimed[0].held_by.as_deref(), Some("kubectl"));
    }

    #[test]
    fn owner_appears_on_a_drifted_row_only_when_field_owners_has_the_path() {
        // scenario 35
        let declared = json!({"a": 1, "b": 1, "c": 1});
        let live = json!({"a": 2, "b": 2});
        let out = classify_with(
            declared,
            live,
            &owners(&[("a", "kubectl"), ("c", "x")]),
            None,
        );
        assert_eq!(row_paths(&out.drifted), ["a", "b", "c"]);
        assert_eq!(out.drifted[0].owner.as_deref(), Some("kubectl"));
        assert_eq!(out.drifted[1].owner, None);
        // absent: the live tree has no such path, so nobody holds it
        assert_eq!(out.drifted[2].kind, FieldKind::Absent);
        assert_eq!(out.drifted[2].owner, None);
    }

    #[test]
    fn a_keyed_list_claims_by_key_so_a_console_added_tag_is_its_own_unclaimed_path() {
        let out = classify(
            json!({"Tags": [{"Key": "env", "Value": "prod"}]}),
            json!({"Tags": [{"Key": "added", "Value": "x"}, {"Key": "env", "Value": "prod"}]}),
        );
        assert_eq!(out.unchanged, 2);
        assert!(out.drifted.is_empty());
        assert_eq!(
            row_paths(&out.unclaimed),
            ["Tags[#added].Key", "Tags[#added].Value"]
        );
    }

    #[test]
    fn a_positional_list_claims_by_index_and_reports_a_new_element_by_index() {
        let out = classify(
            json!({"Steps": [{"Name": "a"}]}),
            json!({"Steps": [{"Name": "a"}, {"Name": "b"}]}),
        );
        assert_eq!(out.unchanged, 1);
        assert_eq!(row_paths(&out.unclaimed), ["Steps[1].Name"]);
    }

    #[test]
    fn a_scalar_declared_where_live_has_an_object_is_one_drifted_row_with_both_shapes() {
        let out = classify(
            json!({"Policy": "text"}),
            json!({"Policy": {"Version": "1"}}),
        );
        assert_eq!(
            out.drifted,
            vec![PropertyRow::new(
                "Policy",
                FieldKind::Drifted,
                Some(&json!("text")),
                Some(&json!({"Version": "1"})),
            )]
        );
        assert!(out.unclaimed.is_empty());
        let reverse = classify(
            json!({"Policy": {"Version": "1"}}),
            json!({"Policy": "text"}),
        );
        assert_eq!(row_paths(&reverse.drifted), ["Policy"]);
        assert_eq!(reverse.drifted[0].declared, Some(json!({"Version": "1"})));
    }

    #[test]
    fn an_empty_declared_object_claims_nothing_inside_it() {
        let out = classify(
            json!({"metadata": {"annotations": {}}}),
            json!({"metadata": {"annotations": {"controller": "x"}}}),
        );
        assert!(out.drifted.is_empty());
        assert_eq!(
            row_paths(&out.unclaimed),
            ["metadata.annotations.controller"]
        );
    }

    #[test]
    fn declared_entries_missing_under_an_empty_live_list_are_absent() {
        let out = classify(
            json!({"Tags": [{"Key": "env", "Value": "prod"}]}),
            json!({"Tags": []}),
        );
        assert_eq!(
            row_paths(&out.drifted),
            ["Tags[#env].Key", "Tags[#env].Value"]
        );
        assert!(out.drifted.iter().all(|r| r.kind == FieldKind::Absent));
        assert!(out.unclaimed.is_empty());
    }

    #[test]
    fn an_empty_object_and_an_empty_list_are_different_values() {
        let out = classify(json!({"a": {}}), json!({"a": []}));
        assert_eq!(row_paths(&out.drifted), ["a"]);
    }

    #[test]
    fn an_accepted_live_value_stops_alerting_and_is_listed_as_accepted() {
        // scenario 34
        let out = classify_with(
            json!({"Tags": [{"Value": "team"}]}),
            json!({"Tags": [{"Value": "platform"}]}),
            &BTreeMap::new(),
            Some(&baseline(&[("Tags[0].Value", json!("platform"))])),
        );
        assert!(out.drifted.is_empty());
        assert_eq!(out.accepted.len(), 1);
        assert_eq!(out.accepted[0].baseline, Some(json!("platform")));
        assert_eq!(out.accepted[0].live, Some(json!("platform")));
    }

    #[test]
    fn a_change_away_from_the_accepted_value_is_drift_again_on_all_three_axes() {
        // scenario 34
        let out = classify_with(
            json!({"Tags": [{"Value": "team"}], "Other": 1}),
            json!({"Tags": [{"Value": "someone-else"}], "Other": 2}),
            &BTreeMap::new(),
            Some(&baseline(&[("Tags[0].Value", json!("platform"))])),
        );
        assert!(out.accepted.is_empty());
        assert_eq!(row_paths(&out.drifted), ["Other", "Tags[0].Value"]);
        let row = &out.drifted[1];
        assert_eq!(row.declared, Some(json!("team")));
        assert_eq!(row.live, Some(json!("someone-else")));
        assert_eq!(row.baseline, Some(json!("platform")));
        // other paths are unaffected by the baseline
        assert_eq!(out.drifted[0].baseline, None);
    }

    #[test]
    fn an_accepted_unclaimed_value_is_quiet_and_a_changed_one_stays_unclaimed() {
        let accepted = baseline(&[("Extra", json!("x"))]);
        let quiet = classify_with(
            json!({}),
            json!({"Extra": "x"}),
            &BTreeMap::new(),
            Some(&accepted),
        );
        assert!(quiet.unclaimed.is_empty());
        assert_eq!(quiet.accepted[0].kind, FieldKind::Unclaimed);
        let moved = classify_with(
            json!({}),
            json!({"Extra": "y"}),
            &BTreeMap::new(),
            Some(&accepted),
        );
        assert!(moved.drifted.is_empty());
        assert_eq!(moved.unclaimed[0].baseline, Some(json!("x")));
    }

    #[test]
    fn an_absent_path_is_never_suppressed_by_a_baseline() {
        let out = classify_with(
            json!({"A": 1}),
            json!({}),
            &BTreeMap::new(),
            Some(&baseline(&[("A", json!(2))])),
        );
        assert_eq!(out.drifted[0].kind, FieldKind::Absent);
        assert_eq!(out.drifted[0].baseline, Some(json!(2)));
    }

    #[test]
    fn a_row_serializes_in_camel_case_and_keeps_a_null_value() {
        let mut row = PropertyRow::new("a", FieldKind::Unclaimed, None, Some(&Value::Null));
        row.held_by = Some("hpa".into());
        row.source = Some(ClaimSource::FieldManager);
        let json = serde_json::to_value(&row).unwrap();
        assert_eq!(
            json,
            json!({"path": "a", "kind": "unclaimed", "live": null, "heldBy": "hpa", "source": "field-manager"})
        );
        let back: PropertyRow = serde_json::from_value(json).unwrap();
        assert_eq!(back, row);
    }

    #[test]
    fn claimed_fields_answer_whether_the_declaration_set_a_path() {
        let hooks = NormalizationHooks::default().order_by(TypeMatch::any(), "**.Tags", &["Key"]);
        let claimed = claimed_fields(
            &json!({"spec": {"replicas": 3, "template": {}}, "Tags": [{"Key": "env", "Value": "p"}], "Policy": "text"}),
            "T",
            &hooks,
        );
        assert!(claimed.is_claimed("spec.replicas"));
        assert!(claimed.is_claimed("Tags[#env].Value"));
        assert!(claimed.is_claimed("Policy.Version"));
        assert!(!claimed.is_claimed("spec.paused"));
        assert!(!claimed.is_claimed("spec"));
        assert!(!claimed.is_claimed("spec.template.metadata"));
        assert_eq!(claimed.len(), 5);
    }
}
