//! Deep normalization: the one pass both trees go through before they are compared, so
//! the declared and the live side are shaped by identical rules.

use super::path::{Segment, TreePath};
use crate::lifecycle::mask::{MASKED, is_sensitive_key};
use chant_lexicon::{Counterpart, DeepArrayElement, DeepNode, HookCache, Side};
use serde_json::{Map, Value};

/// A value that cannot be known before deploying; a declared path holding it is never compared.
pub const UNRESOLVED: &str = "<chant:unresolved>";

/// Normalize one property tree.
///
/// Per node, in order: a pruned node is dropped (the prune hook sees the raw value and
/// whether `counterpart` — the other side's raw tree — has the node at the same path, or
/// at the same pattern under any element of an array); a secret-named key or a structural
/// mask rule gives `[REDACTED]` without looking inside; the unresolved hook gives
/// [`UNRESOLVED`]; objects come back with sorted keys and arrays in `order_key` order when
/// every element has a key. A container emptied by pruning disappears, upward; a declared
/// `{}` or `[]` stays. The root is always an object.
pub fn normalize(
    tree: &Value,
    entity_type: &str,
    side: Side,
    counterpart: Option<&Value>,
    hooks: &HookCache<'_>,
) -> Value {
    let mut pass = Pass {
        entity_type,
        side,
        counterpart,
        hooks,
        at: TreePath::default(),
    };
    match tree {
        Value::Object(map) => pass.object(map),
        _ => None,
    }
    .unwrap_or_else(|| Value::Object(Map::new()))
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
    /// The node at `self.at` (whose last segment is `key`).
    fn child(&mut self, value: &Value, key: &str) -> Option<Value> {
        let rules = self.hooks.at(self.entity_type, self.at.pattern());
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
            return None;
        }
        if is_sensitive_key(key) || rules.masks() {
            return Some(Value::String(MASKED.to_owned()));
        }
        if rules.is_unresolved(&node) {
            return Some(Value::String(UNRESOLVED.to_owned()));
        }
        match value {
            Value::Object(map) => self.object(map),
            Value::Array(items) => self.array(items),
            primitive => Some(primitive.clone()),
        }
    }

    fn object(&mut self, map: &Map<String, Value>) -> Option<Value> {
        let mut out = Map::new();
        for (key, value) in map {
            self.at.push(Segment::Key(key));
            let child = self.child(value, key);
            self.at.pop();
            if let Some(child) = child {
                out.insert(key.clone(), child);
            }
        }
        if out.is_empty() && !map.is_empty() {
            return None;
        }
        Some(Value::Object(out))
    }

    fn array(&mut self, items: &[Value]) -> Option<Value> {
        let mut kept = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            self.at.push(Segment::Index(i));
            let child = self.child(item, &i.to_string());
            self.at.pop();
            kept.extend(child);
        }
        if kept.is_empty() && !items.is_empty() {
            return None;
        }
        Some(Value::Array(self.ordered(kept)))
    }

    fn ordered(&self, items: Vec<Value>) -> Vec<Value> {
        if items.len() < 2 {
            return items;
        }
        let keys: Option<Vec<String>> = items
            .iter()
            .enumerate()
            .map(|(index, element)| {
                self.hooks.order_key(&DeepArrayElement {
                    entity_type: self.entity_type,
                    pattern: self.at.pattern(),
                    path: self.at.path(),
                    element,
                    index,
                    side: self.side,
                })
            })
            .collect();
        let Some(keys) = keys else {
            return items;
        };
        let mut keyed: Vec<(String, Value)> = keys.into_iter().zip(items).collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        keyed.into_iter().map(|(_, v)| v).collect()
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
