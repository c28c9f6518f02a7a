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

impl<'a> DeepNode<'a> {
    /// A node addressed by its pattern alone (the path is the pattern; the key is its last
    /// segment): what a hook's own tests ask about.
    pub fn at(
        entity_type: &'a str,
        pattern: &'a str,
        value: &'a Value,
        side: Side,
        counterpart: Counterpart,
    ) -> Self {
        DeepNode {
            entity_type,
            path: pattern,
            pattern,
            key: pattern.rsplit('.').next().unwrap_or(pattern),
            value,
            side,
            counterpart,
        }
    }
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
    glob: Vec<GlobToken>,
}

/// One piece of a compiled glob. Matched by hand rather than through a regex: a deep
/// diff asks every rule about every node, and the globs are short.
#[derive(Clone, Debug, PartialEq)]
enum GlobToken {
    Literal(Vec<u8>),
    /// `*`: any run of characters inside one segment.
    Segment,
    /// `**.` : nothing, or anything ending in a `.`.
    AnyPrefix,
    /// `.**` : nothing, or a `.` and anything after it.
    AnySuffix,
    /// A bare `**`: anything.
    Anything,
}

impl PathPattern {
    pub fn new(glob: &str) -> Self {
        let mut tokens = Vec::new();
        let mut literal = Vec::new();
        let mut rest = glob.as_bytes();
        while !rest.is_empty() {
            let (token, tail) = if let Some(tail) = rest.strip_prefix(b"**.") {
                (GlobToken::AnyPrefix, tail)
            } else if let Some(tail) = rest.strip_prefix(b".**") {
                (GlobToken::AnySuffix, tail)
            } else if let Some(tail) = rest.strip_prefix(b"**") {
                (GlobToken::Anything, tail)
            } else if let Some(tail) = rest.strip_prefix(b"*") {
                (GlobToken::Segment, tail)
            } else {
                literal.push(rest[0]);
                rest = &rest[1..];
                continue;
            };
            if !literal.is_empty() {
                tokens.push(GlobToken::Literal(std::mem::take(&mut literal)));
            }
            tokens.push(token);
            rest = tail;
        }
        if !literal.is_empty() {
            tokens.push(GlobToken::Literal(literal));
        }
        PathPattern {
            source: glob.to_owned(),
            glob: tokens,
        }
    }

    pub fn matches(&self, pattern: &str) -> bool {
        glob_matches(&self.glob, pattern.as_bytes())
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }
}

fn glob_matches(tokens: &[GlobToken], text: &[u8]) -> bool {
    let Some((token, rest)) = tokens.split_first() else {
        return text.is_empty();
    };
    let from = |start: usize| glob_matches(rest, &text[start..]);
    match token {
        GlobToken::Literal(literal) => text.starts_with(literal) && from(literal.len()),
        GlobToken::Segment => {
            let run = text
                .iter()
                .position(|b| matches!(b, b'.' | b'[' | b']'))
                .unwrap_or(text.len());
            (0..=run).any(from)
        }
        GlobToken::AnyPrefix => from(0) || (0..text.len()).any(|i| text[i] == b'.' && from(i + 1)),
        GlobToken::AnySuffix => {
            from(0) || (text.first() == Some(&b'.') && (1..=text.len()).any(from))
        }
        GlobToken::Anything => (0..=text.len()).any(from),
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
/// with `/` (an empty list keys scalar elements by their own value; a field written
/// `?Name` is optional and keys as `*` where an element lacks it).
#[derive(Clone, Debug)]
pub struct OrderKeyRule {
    pub types: TypeMatch,
    pub pattern: PathPattern,
    pub fields: Vec<String>,
}

/// What an unresolved value looks like.
#[derive(Clone, Debug)]
pub enum UnresolvedMatch {
    /// A string matching this (an ARM `"[resourceId(...)]"` expression).
    Text(Regex),
    /// An object with exactly one key, matching this (CloudFormation's `{"Ref": …}`,
    /// `{"Fn::GetAtt": …}`).
    SingleKeyObject(Regex),
}

/// A value that cannot be known before deploying (an unevaluated expression).
#[derive(Clone, Debug)]
pub struct UnresolvedRule {
    pub types: TypeMatch,
    pub pattern: Option<PathPattern>,
    pub value: UnresolvedMatch,
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

    /// Strings matching `value` (a regex) are unresolved.
    pub fn unresolved_when(mut self, types: TypeMatch, pattern: Option<&str>, value: &str) -> Self {
        if let Ok(value) = Regex::new(value) {
            self.unresolved.push(UnresolvedRule {
                types,
                pattern: pattern.map(PathPattern::new),
                value: UnresolvedMatch::Text(value),
            });
        }
        self
    }

    /// Single-key objects whose key matches `key` (a regex) are unresolved.
    pub fn unresolved_object(mut self, types: TypeMatch, pattern: Option<&str>, key: &str) -> Self {
        if let Ok(key) = Regex::new(key) {
            self.unresolved.push(UnresolvedRule {
                types,
                pattern: pattern.map(PathPattern::new),
                value: UnresolvedMatch::SingleKeyObject(key),
            });
        }
        self
    }

    /// Mask every value under a map whose keys are arbitrary (a Secret's `data`): the key
    /// set still compares, no value does. Dotted keys (`tls.crt`) are covered.
    pub fn mask_values_under(self, types: TypeMatch, map_path: &str) -> Self {
        self.mask(types, &[&format!("{map_path}.*.**")])
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
        self.prune
            .iter()
            .any(|rule| rule.applies_at(node.entity_type, node.pattern) && rule.when.holds(node))
    }

    pub fn is_unresolved(&self, node: &DeepNode<'_>) -> bool {
        self.unresolved.iter().any(|rule| {
            rule.applies_at(node.entity_type, node.pattern) && rule.value.matches(node.value)
        })
    }

    pub fn masks(&self, node: &DeepNode<'_>) -> bool {
        self.mask
            .iter()
            .any(|rule| rule.applies_at(node.entity_type, node.pattern))
    }

    /// The identity of an array element, or `None` to leave the array's order alone.
    pub fn order_key(&self, element: &DeepArrayElement<'_>) -> Option<String> {
        self.order_keys
            .iter()
            .find(|rule| rule.applies_at(element.entity_type, element.pattern))?
            .key_of(element.element)
    }
}

impl PruneWhen {
    /// Given that the rule's type and glob match the node.
    pub fn holds(&self, node: &DeepNode<'_>) -> bool {
        match self {
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
    }
}

impl PruneRule {
    pub fn applies_at(&self, entity_type: &str, pattern: &str) -> bool {
        self.types.matches(entity_type) && self.pattern.matches(pattern)
    }
}

impl MaskRule {
    pub fn applies_at(&self, entity_type: &str, pattern: &str) -> bool {
        self.types.matches(entity_type) && self.pattern.matches(pattern)
    }
}

impl UnresolvedRule {
    pub fn applies_at(&self, entity_type: &str, pattern: &str) -> bool {
        self.types.matches(entity_type) && self.pattern.as_ref().is_none_or(|p| p.matches(pattern))
    }
}

impl UnresolvedMatch {
    pub fn matches(&self, value: &Value) -> bool {
        match (self, value) {
            (UnresolvedMatch::Text(re), Value::String(text)) => re.is_match(text),
            (UnresolvedMatch::SingleKeyObject(re), Value::Object(map)) => {
                map.len() == 1 && map.keys().all(|k| re.is_match(k))
            }
            _ => false,
        }
    }
}

impl OrderKeyRule {
    pub fn applies_at(&self, entity_type: &str, pattern: &str) -> bool {
        self.types.matches(entity_type) && self.pattern.matches(pattern)
    }

    /// The element's identity under this rule, or `None` where it has none.
    pub fn key_of(&self, element: &Value) -> Option<String> {
        if self.fields.is_empty() {
            return scalar_key(element);
        }
        let parts: Option<Vec<String>> = self
            .fields
            .iter()
            .map(|f| match f.strip_prefix('?') {
                // An optional field (`?FromPort`) keys as `*` where the element lacks it.
                Some(optional) => Some(
                    element
                        .get(optional)
                        .and_then(scalar_key)
                        .unwrap_or_else(|| "*".to_owned()),
                ),
                None => element.get(f).and_then(scalar_key),
            })
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
        assert!(PathPattern::new("data.*.**").matches("data.tls.crt"));
        assert!(PathPattern::new("data.*.**").matches("data.key"));
        assert!(!PathPattern::new("data.*.**").matches("data"));
        assert!(PathPattern::new("a.**").matches("a"));
        assert!(!PathPattern::new("a.**").matches("ab"));
        assert!(PathPattern::new("**").matches("x[].y"));
        assert!(PathPattern::new("Tags[].*").matches("Tags[].Key"));
        assert!(!PathPattern::new("Tags[].*").matches("Tags[].Key.x"));
        assert!(PathPattern::new("**.x.**").matches("a.x.b"));
        assert!(!PathPattern::new("**.x.**").matches("a.xb"));
        assert!(
            PathPattern::new("metadata.annotations.kubectl.kubernetes.io/*")
                .matches("metadata.annotations.kubectl.kubernetes.io/last-applied-configuration")
        );
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

    #[test]
    fn optional_order_fields_key_as_a_star_when_missing() {
        let hooks = NormalizationHooks::default().order_by(
            TypeMatch::any(),
            "Rules",
            &["IpProtocol", "?FromPort", "?CidrIp"],
        );
        let el = json!({"IpProtocol": "-1", "CidrIp": "0.0.0.0/0"});
        let element = DeepArrayElement {
            entity_type: "T",
            pattern: "Rules",
            path: "Rules",
            element: &el,
            index: 0,
            side: Side::Live,
        };
        assert_eq!(hooks.order_key(&element).as_deref(), Some("-1/*/0.0.0.0/0"));
        let no_protocol = json!({"CidrIp": "x"});
        let element = DeepArrayElement {
            element: &no_protocol,
            ..element
        };
        assert_eq!(hooks.order_key(&element), None);
    }

    #[test]
    fn intrinsic_objects_and_expression_strings_are_unresolved() {
        let hooks = NormalizationHooks::default()
            .unresolved_object(TypeMatch::of(&["AWS::*"]), None, r"^(Ref|Fn::.+)$")
            .unresolved_when(TypeMatch::any(), None, r"^\[.*\]$");
        let check = |value: serde_json::Value| {
            hooks.is_unresolved(&DeepNode {
                entity_type: "AWS::SQS::Queue",
                path: "QueueName",
                pattern: "QueueName",
                key: "QueueName",
                value: &value,
                side: Side::Declared,
                counterpart: Counterpart::Unknown,
            })
        };
        assert!(check(json!({"Ref": "Env"})));
        assert!(check(json!({"Fn::Sub": "${AWS::StackName}-q"})));
        assert!(check(json!("[resourceId('x')]")));
        assert!(!check(json!({"Ref": "a", "Other": 1})));
        assert!(!check(json!({"Key": "Ref"})));
        assert!(!check(json!("plain")));
    }

    #[test]
    fn masking_values_under_a_map_covers_dotted_keys_but_not_the_map() {
        let hooks = NormalizationHooks::default().mask_values_under(TypeMatch::any(), "data");
        let value = json!("x");
        let node = |pattern| DeepNode {
            entity_type: "K8s::Core::Secret",
            path: pattern,
            pattern,
            key: "k",
            value: &value,
            side: Side::Live,
            counterpart: Counterpart::Unknown,
        };
        assert!(hooks.masks(&node("data.password")));
        assert!(hooks.masks(&node("data.tls.crt")));
        assert!(!hooks.masks(&node("data")));
    }
}
