//! Deep normalization: the one pass both trees go through before they are compared, so
//! the declared and the live side are shaped by identical rules.

use super::path::{Segment, TreePath};
use crate::lifecycle::mask::{MASKED, is_sensitive_key};
use chant_lexicon::{Counterpart, DeepNode, HookCache, PatternAt, Side};
use serde_json::{Map, Value};

/// A value that cannot be known before deploying; a declared path holding it is never compared.
pub const UNRESOLVED: &str = "<chant:unresolved>";

/// Normalize one property tree, as a copy: see [`normalize_in_place`].
pub fn normalize(
    tree: &Value,
    entity_type: &str,
    side: Side,
    counterpart: Option<&Value>,
    hooks: &HookCache<'_>,
) -> Value {
    let mut copy = tree.clone();
    normalize_in_place(&mut copy, entity_type, side, counterpart, hooks);
    copy
}

/// Normalize one property tree where it is.
///
/// Per node, in order: a pruned node is dropped (the prune hook sees the raw value and
/// whether `counterpart` — the other side's raw tree — has the node at the same path, or
/// at the same pattern under any element of an array); a secret-named key or a structural
/// mask rule gives `[REDACTED]` without looking inside; the unresolved hook gives
/// [`UNRESOLVED`]; objects come back with sorted keys and arrays in `order_key` order when
/// every element has a key. A container emptied by pruning disappears, upward; a declared
/// `{}` or `[]` stays. The root is always an object.
pub fn normalize_in_place(
    tree: &mut Value,
    entity_type: &str,
    side: Side,
    counterpart: Option<&Value>,
    hooks: &HookCache<'_>,
) {
    let mut pass = Pass {
        entity_type,
        side,
        counterpart,
        hooks,
        at: TreePath::default(),
    };
    let kept = match tree {
        Value::Object(map) => pass.object(map, hooks.root(entity_type)),
        _ => false,
    };
    if !kept {
        *tree = Value::Object(Map::new());
    }
}

struct Pass<'a> {
    entity_type: &'a str,
    side: Side,
    counterpart: Option<&'a Value>,
    hooks: &'a HookCache<'a>,
    /// The node being visited.
    at: TreePath,
}

impl Pass<'_> {
    /// Normalize the node at `self.at` (whose last segment is `key`, whose pattern is
    /// `place`); false when it is to be dropped.
    fn child(&mut self, value: &mut Value, key: &str, place: PatternAt) -> bool {
        let rules = self.hooks.rules(place);
        let counterpart = if rules.may_prune() {
            self.at.counterpart_in(self.counterpart)
        } else {
            // Nothing asks about it: no prune rule applies here.
            Counterpart::Unknown
        };
        let node = DeepNode {
            entity_type: self.entity_type,
            path: self.at.path(),
            pattern: self.at.pattern(),
            key,
            value,
            side: self.side,
            counterpart,
        };
        if rules.prunes(&node) {
            return false;
        }
        if is_sensitive_key(key) || rules.masks() {
            *value = Value::String(MASKED.to_owned());
            return true;
        }
        if rules.is_unresolved(&node) {
            *value = Value::String(UNRESOLVED.to_owned());
            return true;
        }
        match value {
            Value::Object(map) => self.object(map, place),
            Value::Array(items) => self.array(items, place),
            _ => true,
        }
    }

    /// Keys are already sorted: a `serde_json::Map` is ordered by key.
    fn object(&mut self, map: &mut Map<String, Value>, place: PatternAt) -> bool {
        let declared_empty = map.is_empty();
        map.retain(|key, value| {
            self.at.push(Segment::Key(key));
            let kept = self.child(value, key, self.hooks.key(place, key));
            self.at.pop();
            kept
        });
        declared_empty || !map.is_empty()
    }

    fn array(&mut self, items: &mut Vec<Value>, place: PatternAt) -> bool {
        let declared_empty = items.is_empty();
        let element = self.hooks.element(place);
        let mut index = 0;
        items.retain_mut(|item| {
            self.at.push(Segment::Index(index));
            let kept = self.child(item, &index.to_string(), element);
            self.at.pop();
            index += 1;
            kept
        });
        self.order(items, place);
        declared_empty || !items.is_empty()
    }

    /// Sort the elements by the array's order key, when every element has one.
    fn order(&self, items: &mut Vec<Value>, place: PatternAt) {
        if items.len() < 2 {
            return;
        }
        let keys: Option<Vec<String>> = items
            .iter()
            .map(|element| self.hooks.order_key_at(place, element))
            .collect();
        let Some(keys) = keys else {
            return;
        };
        let mut keyed: Vec<(String, Value)> = keys.into_iter().zip(items.drain(..)).collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        items.extend(keyed.into_iter().map(|(_, v)| v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::NormalizationHooks;
    use chant_lexicon::deep::TypeMatch;
    use serde_json::json;

    const T: &str = "AWS::EC2::SecurityGroup";

    fn plain(tree: Value) -> Value {
        normalize(
            &tree,
            T,
            Side::Live,
            None,
            &HookCache::new(&NormalizationHooks::default()),
        )
    }

    fn tags_hooks() -> NormalizationHooks {
        NormalizationHooks::default().order_by(TypeMatch::any(), "Tags", &["Key"])
    }

    #[test]
    fn object_keys_come_back_sorted_at_every_depth() {
        // scenario 27
        let out = plain(json!({"b": {"z": 1, "a": 2}, "a": 0}));
        assert_eq!(
            serde_json::to_string(&out).unwrap(),
            r#"{"a":0,"b":{"a":2,"z":1}}"#
        );
    }

    #[test]
    fn a_keyed_array_is_reordered_when_every_element_has_a_key() {
        // scenario 27
        let tree = json!({"Tags": [{"Key": "b", "Value": "2"}, {"Key": "a", "Value": "1"}]});
        let out = normalize(&tree, T, Side::Live, None, &HookCache::new(&tags_hooks()));
        assert_eq!(
            out["Tags"],
            json!([{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}])
        );
    }

    #[test]
    fn an_array_without_a_rule_or_with_a_keyless_element_keeps_its_order() {
        // scenario 27
        let steps = json!({"Steps": [{"Key": "b"}, {"Key": "a"}]});
        assert_eq!(
            normalize(&steps, T, Side::Live, None, &HookCache::new(&tags_hooks())),
            steps
        );
        let partial = json!({"Tags": [{"Key": "b"}, {"Value": "no key"}, {"Key": "a"}]});
        assert_eq!(
            normalize(
                &partial,
                T,
                Side::Live,
                None,
                &HookCache::new(&tags_hooks())
            ),
            partial
        );
    }

    #[test]
    fn a_container_emptied_by_pruning_disappears_and_emptiness_propagates_upward() {
        // scenario 28
        let hooks = NormalizationHooks::default().prune_always(TypeMatch::any(), &["**.Arn"]);
        let tree =
            json!({"Egress": [{"Arn": "x"}], "Outer": {"Inner": {"Arn": "y"}}, "Name": "sg"});
        assert_eq!(
            normalize(&tree, T, Side::Live, None, &HookCache::new(&hooks)),
            json!({"Name": "sg"})
        );
    }

    #[test]
    fn declared_empty_containers_survive() {
        // scenario 28
        let tree = json!({"Egress": [], "Meta": {}, "Outer": {"Inner": {}}});
        assert_eq!(plain(tree.clone()), tree);
    }

    #[test]
    fn an_all_pruned_root_is_an_empty_object() {
        // scenario 28
        let hooks = NormalizationHooks::default().prune_always(TypeMatch::any(), &["*"]);
        assert_eq!(
            normalize(
                &json!({"a": 1}),
                T,
                Side::Live,
                None,
                &HookCache::new(&hooks)
            ),
            json!({})
        );
        assert_eq!(plain(Value::Null), json!({}));
    }

    #[test]
    fn the_prune_hook_sees_patterns_and_the_counterpart() {
        // scenario 29: default subtraction only where the declaration has no such path
        let hooks = NormalizationHooks::default().default_value(
            TypeMatch::any(),
            "Rules[].Protocol",
            json!("tcp"),
        );
        let live = json!({"Rules": [{"Port": 80, "Protocol": "tcp"}]});
        let undeclared = json!({"Rules": [{"Port": 80}]});
        let declared = json!({"Rules": [{"Port": 80, "Protocol": "tcp"}]});
        assert_eq!(
            normalize(
                &live,
                T,
                Side::Live,
                Some(&undeclared),
                &HookCache::new(&hooks)
            ),
            json!({"Rules": [{"Port": 80}]})
        );
        assert_eq!(
            normalize(
                &live,
                T,
                Side::Live,
                Some(&declared),
                &HookCache::new(&hooks)
            ),
            live
        );
        // a one-sided pass prunes nothing default-related
        assert_eq!(
            normalize(&live, T, Side::Live, None, &HookCache::new(&hooks)),
            live
        );
    }

    #[test]
    fn secret_named_keys_are_masked_without_recursion() {
        // scenario 30
        let out = plain(json!({
            "MasterUserPassword": "hunter2",
            "ClientSecret": {"nested": {"deeper": 1}},
            "Key": "k", "Value": "v", "KmsKeyId": "arn:kms"
        }));
        assert_eq!(
            out,
            json!({
                "ClientSecret": "[REDACTED]", "Key": "k", "KmsKeyId": "arn:kms",
                "MasterUserPassword": "[REDACTED]", "Value": "v"
            })
        );
    }

    #[test]
    fn structural_masks_apply_on_both_sides_so_the_key_set_still_compares() {
        let hooks = NormalizationHooks::default().mask(TypeMatch::any(), &["data.*"]);
        let declared = json!({"data": {"a": "one"}});
        let live = json!({"data": {"a": "two", "b": "three"}});
        assert_eq!(
            normalize(&declared, T, Side::Declared, None, &HookCache::new(&hooks)),
            json!({"data": {"a": "[REDACTED]"}})
        );
        assert_eq!(
            normalize(&live, T, Side::Live, None, &HookCache::new(&hooks)),
            json!({"data": {"a": "[REDACTED]", "b": "[REDACTED]"}})
        );
    }

    #[test]
    fn the_unresolved_hook_collapses_an_expression_on_either_side() {
        // scenario 31
        let hooks =
            NormalizationHooks::default().unresolved_when(TypeMatch::any(), None, r"^\[.*\]$");
        let tree = json!({"Id": "[resourceId('x')]", "Name": "n", "List": ["[concat()]"]});
        let expected = json!({"Id": UNRESOLVED, "List": [UNRESOLVED], "Name": "n"});
        assert_eq!(
            normalize(&tree, T, Side::Declared, None, &HookCache::new(&hooks)),
            expected
        );
        assert_eq!(
            normalize(&tree, T, Side::Live, None, &HookCache::new(&hooks)),
            expected
        );
    }

    #[test]
    fn pruning_wins_over_masking() {
        let hooks = NormalizationHooks::default().prune_always(TypeMatch::any(), &["Password"]);
        assert_eq!(
            normalize(
                &json!({"Password": "p", "a": 1}),
                T,
                Side::Live,
                None,
                &HookCache::new(&hooks)
            ),
            json!({"a": 1})
        );
    }
}
