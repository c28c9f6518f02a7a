//! Deep observation: the full live property tree per object, and the normalization
//! hooks — as data, so core applies the identical rules to the declared tree.

use crate::metadata::{Ownership, OwnershipMarker};
use crate::observation::UnobservedEntity;
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One object's live property tree.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeepResourceObservation {
    #[serde(rename = "type")]
    pub entity_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_id: Option<String>,
    pub properties: Value,
    /// Path (in the diff's grammar) → the manager that wrote it, where the substrate records one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub field_owners: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ownership: Option<Ownership>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<OwnershipMarker>,
}

/// The deep tri-state: a tree per present entity, a reason per hole.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeepObservation {
    pub resources: BTreeMap<String, DeepResourceObservation>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unobserved: BTreeMap<String, UnobservedEntity>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Declared,
    Live,
}

/// Whether the same path exists on the other tree. `Unknown` on a one-sided pass, where
/// nothing default-related is pruned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Counterpart {
    Present,
    Absent,
    Unknown,
}

/// A node the normalization pass is visiting.
#[derive(Clone, Copy, Debug)]
pub struct DeepNode<'a> {
    pub entity_type: &'a str,
    /// Exact path: `spec.ports[0].port`.
    pub path: &'a str,
    /// Index-erased: `spec.ports[].port`.
    pub pattern: &'a str,
    pub key: &'a str,
    pub value: &'a Value,
    pub side: Side,
    pub counterpart: Counterpart,
}

/// An element of an array, asked for its identity.
#[derive(Clone, Copy, Debug)]
pub struct DeepArrayElement<'a> {
    pub entity_type: &'a str,
    /// Pattern of the array itself: `spec.ports`.
    pub pattern: &'a str,
    pub path: &'a str,
    pub element: &'a Value,
    pub index: usize,
    pub side: Side,
}

/// A glob over the index-erased path grammar.
///
/// `*` matches one segment, `**` any number (`**.Arn` matches `Arn` at any depth,
/// `metadata.labels.**` everything under the labels, dotted keys included). `[]`
/// is literal.
#[derive(Clone, Debug)]
pub struct PathPattern {
    source: String,
    regex: Regex,
}

impl PathPattern {
    pub fn new(glob: &str) -> Self {
        let mut re = String::from("^");
        let mut rest = glob;
        while !rest.is_empty() {
            if let Some(tail) = rest.strip_prefix("**.") {
                re.push_str(r"(?:.*\.)?");
                rest = tail;
            } else if let Some(tail) = rest.strip_prefix(".**") {
                re.push_str(r"(?:\..*)?");
                rest = tail;
            } else if let Some(tail) = rest.strip_prefix("**") {
                re.push_str(".*");
                rest = tail;
            } else if let Some(tail) = rest.strip_prefix('*') {
                re.push_str(r"[^.\[\]]*");
                rest = tail;
            } else {
                let ch = rest.chars().next().unwrap_or_default();
                re.push_str(&regex::escape(&ch.to_string()));
                rest = &rest[ch.len_utf8()..];
            }
        }
        re.push('$');
        PathPattern {
            source: glob.to_owned(),
            regex: Regex::new(&re).unwrap_or_else(|_| Regex::new("$^").expect("empty regex")),
        }
    }

    pub fn matches(&self, pattern: &str) -> bool {
        self.regex.is_match(pattern)
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }
}

/// Which entity types a rule applies to: empty = every type; `Foo::*` a prefix.
#[derive(Clone, Debug, Default)]
pub struct TypeMatch(Vec<String>);

impl TypeMatch {
    pub fn any() -> Self {
        TypeMatch(Vec::new())
    }

    pub fn of(types: &[&str]) -> Self {
        TypeMatch(types.iter().map(|t| (*t).to_owned()).collect())
    }

    pub fn matches(&self, entity_type: &str) -> bool {
        self.0.is_empty()
            || self.0.iter().any(|t| match t.strip_suffix('*') {
                Some(prefix) => entity_type.starts_with(prefix),
                None => t == entity_type,
            })
    }
}

/// When a prune rule removes a node.
#[derive(Clone, Debug)]
pub enum PruneWhen {
    /// Everywhere, both sides: server-written on every object of a kind.
    Always,
    /// On the live side, where the declaration has no such path.
    LiveUndeclared,
    /// On the live side, where undeclared, when the value is this provider default.
    LiveUndeclaredDefault(Value),
}

#[derive(Clone, Debug)]
pub struct PruneRule {
    pub types: TypeMatch,
    pub pattern: PathPattern,
    pub when: PruneWhen,
}

/// An array that is a set, and how to name its elements: the values of `fields` joined
/// with `/` (an empty list keys scalar elements by their own value).
#[derive(Clone, Debug)]
pub struct OrderKeyRule {
    pub types: TypeMatch,
    pub pattern: PathPattern,
    pub fields: Vec<String>,
}

/// A value that cannot be known before deploying (an unevaluated expression).
#[derive(Clone, Debug)]
pub struct UnresolvedRule {
    pub types: TypeMatch,
    pub pattern: Option<PathPattern>,
    pub value: Regex,
}

/// Secret material at a structural path (a Kubernetes Secret's `data.*`).
#[derive(Clone, Debug)]
pub struct MaskRule {
    pub types: TypeMatch,
    pub pattern: PathPattern,
}

/// The four normalization hooks, as data.
#[derive(Clone, Debug, Default)]
pub struct NormalizationHooks {
    pub prune: Vec<PruneRule>,
    pub order_keys: Vec<OrderKeyRule>,
    pub unresolved: Vec<UnresolvedRule>,
    pub mask: Vec<MaskRule>,
}

impl NormalizationHooks {
    pub fn prune_always(mut self, types: TypeMatch, globs: &[&str]) -> Self {
        for g in globs {
            self.prune.push(PruneRule {
                types: types.clone(),
                pattern: PathPattern::new(g),
                when: PruneWhen::Always,
            });
        }
        self
    }

    pub fn prune_live_undeclared(mut self, types: TypeMatch, globs: &[&str]) -> Self {
        for g in globs {
            self.prune.push(PruneRule {
                types: types.clone(),
                pattern: PathPattern::new(g),
                when: PruneWhen::LiveUndeclared,
            });
        }
        self
    }

    pub fn default_value(mut self, types: TypeMatch, glob: &str, value: Value) -> Self {
        self.prune.push(PruneRule {
            types,
            pattern: PathPattern::new(glob),
            when: PruneWhen::LiveUndeclaredDefault(value),
        });
        self
    }

    pub fn order_by(mut self, types: TypeMatch, glob: &str, fields: &[&str]) -> Self {
        self.order_keys.push(OrderKeyRule {
            types,
            pattern: PathPattern::new(glob),
            fields: fields.iter().map(|f| (*f).to_owned()).collect(),
        });
        self
    }

    pub fn unresolved_when(mut self, types: TypeMatch, pattern: Option<&str>, value: &str) -> Self {
        if let Ok(value) = Regex::new(value) {
            self.unresolved.push(UnresolvedRule {
                types,
                pattern: pattern.map(PathPattern::new),
                value,
            });
        }
        self
    }

    pub fn mask(mut self, types: TypeMatch, globs: &[&str]) -> Self {
        for g in globs {
            self.mask.push(MaskRule {
                types: types.clone(),
                pattern: PathPattern::new(g),
            });
        }
        self
    }

    /// Should this node be removed before comparison?
    pub fn prunes(&self, node: &DeepNode<'_>) -> bool {
        self.prune.iter().any(|rule| {
            rule.types.matches(node.entity_type)
                && rule.pattern.matches(node.pattern)
                && match &rule.when {
                    PruneWhen::Always => true,
                    PruneWhen::LiveUndeclared => {
                        node.side == Side::Live && node.counterpart == Counterpart::Absent
                    }
                    PruneWhen::LiveUndeclaredDefault(default) => {
                        node.side == Side::Live
                            && node.counterpart == Counterpart::Absent
                            && node.value == default
                    }
                }
        })
    }

    pub fn is_unresolved(&self, node: &DeepNode<'_>) -> bool {
        let Some(text) = node.value.as_str() else {
            return false;
        };
        self.unresolved.iter().any(|rule| {
            rule.types.matches(node.entity_type)
                && rule
                    .pattern
                    .as_ref()
                    .is_none_or(|p| p.matches(node.pattern))
                && rule.value.is_match(text)
        })
    }

    pub fn masks(&self, node: &DeepNode<'_>) -> bool {
        self.mask
            .iter()
            .any(|rule| rule.types.matches(node.entity_type) && rule.pattern.matches(node.pattern))
    }

    /// The identity of an array element, or `None` to leave the array's order alone.
    pub fn order_key(&self, element: &DeepArrayElement<'_>) -> Option<String> {
        let rule = self.order_keys.iter().find(|rule| {
            rule.types.matches(element.entity_type) && rule.pattern.matches(element.pattern)
        })?;
        if rule.fields.is_empty() {
            return scalar_key(element.element);
        }
        let parts: Option<Vec<String>> = rule
            .fields
            .iter()
            .map(|f| element.element.get(f).and_then(scalar_key))
            .collect();
        parts.map(|p| p.join("/"))
    }
}

fn scalar_key(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn globs_match_the_path_grammar() {
        assert!(PathPattern::new("**.Arn").matches("Arn"));
        assert!(PathPattern::new("**.Arn").matches("a.b[].Arn"));
        assert!(!PathPattern::new("**.Arn").matches("a.RoleArn"));
        assert!(
            PathPattern::new("metadata.labels.**")
                .matches("metadata.labels.app.kubernetes.io/name")
        );
        assert!(PathPattern::new("spec.*[].name").matches("spec.ports[].name"));
        assert!(!PathPattern::new("spec.*").matches("spec.a.b"));
        assert!(PathPattern::new("status").matches("status"));
        assert!(!PathPattern::new("status").matches("statusx"));
    }

    #[test]
    fn default_subtraction_is_gated_on_an_undeclared_live_path() {
        let hooks = NormalizationHooks::default().default_value(
            TypeMatch::of(&["AWS::S3::*"]),
            "Versioning.Status",
            json!("Suspended"),
        );
        let value = json!("Suspended");
        let node = |side, counterpart| DeepNode {
            entity_type: "AWS::S3::Bucket",
            path: "Versioning.Status",
            pattern: "Versioning.Status",
            key: "Status",
            value: &value,
            side,
            counterpart,
        };
        assert!(hooks.prunes(&node(Side::Live, Counterpart::Absent)));
        assert!(!hooks.prunes(&node(Side::Live, Counterpart::Present)));
        assert!(!hooks.prunes(&node(Side::Live, Counterpart::Unknown)));
        assert!(!hooks.prunes(&node(Side::Declared, Counterpart::Absent)));
    }

    #[test]
    fn order_keys_name_elements_by_fields() {
        let hooks = NormalizationHooks::default().order_by(TypeMatch::any(), "**.Tags", &["Key"]);
        let el = json!({"Key": "env", "Value": "prod"});
        let element = DeepArrayElement {
            entity_type: "T",
            pattern: "Tags",
            path: "Tags",
            element: &el,
            index: 0,
            side: Side::Live,
        };
        assert_eq!(hooks.order_key(&element).as_deref(), Some("env"));
    }
}
