//! Flattening a normalized tree into `path → value`, the shape the claim compares.
//!
//! An array is addressed by element identity (`Tags[#env].Value`) when the lexicon's
//! order key names every element, each name is at most [`MAX_KEY_CHARS`] characters and
//! no two are equal; otherwise by position (`Tags[0].Value`). A keyed path stays put when
//! an element is inserted before it.

use super::path::{child_path, element_pattern, index_path, keyed_path};
use chant_lexicon::{DeepArrayElement, NormalizationHooks, Side};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Longer element keys (a whole policy document as a key) read worse than an index.
pub const MAX_KEY_CHARS: usize = 60;

/// A leaf: a scalar, or an empty `{}`/`[]` (which is a value of its own).
pub fn is_leaf(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => true,
    }
}

/// Every leaf of the tree by path.
pub fn flatten(
    tree: &Value,
    entity_type: &str,
    side: Side,
    hooks: &NormalizationHooks,
) -> BTreeMap<String, Value> {
    walk(tree, entity_type, side, hooks, true)
}

/// Every node of the tree by path, containers (with their whole subtree) included.
pub fn flatten_nodes(
    tree: &Value,
    entity_type: &str,
    side: Side,
    hooks: &NormalizationHooks,
) -> BTreeMap<String, Value> {
    walk(tree, entity_type, side, hooks, false)
}

fn walk(
    tree: &Value,
    entity_type: &str,
    side: Side,
    hooks: &NormalizationHooks,
    leaves_only: bool,
) -> BTreeMap<String, Value> {
    let mut walker = Walker {
        entity_type,
        side,
        hooks,
        leaves_only,
        out: BTreeMap::new(),
    };
    walker.children(tree, "", "");
    walker.out
}

struct Walker<'a> {
    entity_type: &'a str,
    side: Side,
    hooks: &'a NormalizationHooks,
    leaves_only: bool,
    out: BTreeMap<String, Value>,
}

impl Walker<'_> {
    fn node(&mut self, value: &Value, path: String, pattern: &str) {
        self.children(value, &path, pattern);
        if !self.leaves_only || is_leaf(value) {
            self.out.insert(path, value.clone());
        }
    }

    fn children(&mut self, value: &Value, path: &str, pattern: &str) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    self.node(child, child_path(path, key), &child_path(pattern, key));
                }
            }
            Value::Array(items) => {
                let item_pattern = element_pattern(pattern);
                match self.element_keys(items, path, pattern) {
                    Some(keys) => {
                        for (key, child) in keys.iter().zip(items) {
                            self.node(child, keyed_path(path, key), &item_pattern);
                        }
                    }
                    None => {
                        for (i, child) in items.iter().enumerate() {
                            self.node(child, index_path(path, i), &item_pattern);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn element_keys(&self, items: &[Value], path: &str, pattern: &str) -> Option<Vec<String>> {
        let keys: Vec<String> = items
            .iter()
            .enumerate()
            .map(|(index, element)| {
                self.hooks.order_key(&DeepArrayElement {
                    entity_type: self.entity_type,
                    pattern,
                    path,
                    element,
                    index,
                    side: self.side,
                })
            })
            .collect::<Option<_>>()?;
        let unique: BTreeSet<&String> = keys.iter().collect();
        let short = keys.iter().all(|k| k.chars().count() <= MAX_KEY_CHARS);
        (short && unique.len() == keys.len()).then_some(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::deep::TypeMatch;
    use serde_json::json;

    fn hooks() -> NormalizationHooks {
        NormalizationHooks::default().order_by(TypeMatch::any(), "Tags", &["Key"])
    }

    fn paths(map: &BTreeMap<String, Value>) -> Vec<&str> {
        map.keys().map(String::as_str).collect()
    }

    #[test]
    fn leaves_are_scalars_and_empty_containers() {
        let flat = flatten(
            &json!({"a": {"b": 1, "c": {}}, "d": [], "e": null}),
            "T",
            Side::Live,
            &NormalizationHooks::default(),
        );
        assert_eq!(paths(&flat), ["a.b", "a.c", "d", "e"]);
        assert_eq!(flat["a.c"], json!({}));
        assert_eq!(flat["e"], Value::Null);
    }

    #[test]
    fn a_keyed_array_is_addressed_by_key_and_stays_put_when_a_tag_is_inserted() {
        // scenario 32
        let before = json!({"Tags": [{"Key": "env", "Value": "prod"}]});
        let after =
            json!({"Tags": [{"Key": "app", "Value": "web"}, {"Key": "env", "Value": "prod"}]});
        let a = flatten(&before, "T", Side::Live, &hooks());
        let b = flatten(&after, "T", Side::Live, &hooks());
        assert_eq!(a["Tags[#env].Value"], json!("prod"));
        assert_eq!(b["Tags[#env].Value"], json!("prod"));
        assert_eq!(b["Tags[#app].Value"], json!("web"));
    }

    #[test]
    fn colliding_or_unkeyable_elements_fall_back_to_positions() {
        // scenario 32
        let collide = json!({"Tags": [{"Key": "a", "Value": "1"}, {"Key": "a", "Value": "2"}]});
        let flat = flatten(&collide, "T", Side::Live, &hooks());
        assert_eq!(flat["Tags[0].Value"], json!("1"));
        assert_eq!(flat["Tags[1].Value"], json!("2"));
        let steps = json!({"Steps": [{"Key": "a"}]});
        assert_eq!(
            paths(&flatten(&steps, "T", Side::Live, &hooks())),
            ["Steps[0].Key"]
        );
        let keyless = json!({"Tags": [{"Key": "a"}, {"Value": "v"}]});
        assert_eq!(
            paths(&flatten(&keyless, "T", Side::Live, &hooks())),
            ["Tags[0].Key", "Tags[1].Value"]
        );
    }

    #[test]
    fn a_key_longer_than_sixty_characters_falls_back_to_positions() {
        let long = "k".repeat(61);
        let tree = json!({"Tags": [{"Key": long, "Value": "1"}]});
        assert_eq!(
            paths(&flatten(&tree, "T", Side::Live, &hooks())),
            ["Tags[0].Key", "Tags[0].Value"]
        );
        let sixty = "k".repeat(60);
        let tree = json!({"Tags": [{"Key": sixty.clone()}]});
        assert!(
            flatten(&tree, "T", Side::Live, &hooks()).contains_key(&format!("Tags[#{sixty}].Key"))
        );
    }

    #[test]
    fn flatten_nodes_also_lists_containers_with_their_subtree() {
        let nodes = flatten_nodes(
            &json!({"Tags": [{"Key": "env", "Value": "prod"}]}),
            "T",
            Side::Live,
            &hooks(),
        );
        assert_eq!(
            paths(&nodes),
            ["Tags", "Tags[#env]", "Tags[#env].Key", "Tags[#env].Value"]
        );
        assert_eq!(nodes["Tags[#env]"], json!({"Key": "env", "Value": "prod"}));
    }
}
