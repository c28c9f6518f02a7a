//! Flattening a normalized tree into `path → value`, the shape the claim compares.
//!
//! An array is addressed by element identity (`Tags[#env].Value`) when the lexicon's
//! order key names every element, each name is at most [`MAX_KEY_CHARS`] characters and
//! no two are equal; otherwise by position (`Tags[0].Value`). A keyed path stays put when
//! an element is inserted before it.

use super::path::{child_path, element_pattern, index_path, keyed_path};
use chant_lexicon::{DeepArrayElement, HookCache, Side};
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
pub fn flatten<'t>(
    tree: &'t Value,
    entity_type: &str,
    side: Side,
    hooks: &HookCache<'_>,
) -> BTreeMap<String, &'t Value> {
    let mut walker = Walker {
        entity_type,
        side,
        hooks,
        out: BTreeMap::new(),
    };
    walker.children(tree, "", "");
    walker.out
}

struct Walker<'a, 't> {
    entity_type: &'a str,
    side: Side,
    hooks: &'a HookCache<'a>,
    out: BTreeMap<String, &'t Value>,
}

impl<'t> Walker<'_, 't> {
    fn node(&mut self, value: &'t Value, path: String, pattern: &str) {
        self.children(value, &path, pattern);
        if is_leaf(value) {
            self.out.insert(path, value);
        }
    }

    fn children(&mut self, value: &'t Value, path: &str, pattern: &str) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    self.node(child, child_path(path, key), &child_path(pattern, key));
                }
            }
            Value::Array(items) => {
                let item_pattern = element_pattern(pattern);
                let element = ArrayAt {
                    entity_type: self.entity_type,
                    side: self.side,
                    path,
                    pattern,
                };
                match element_keys(items, &element, self.hooks) {
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
}

/// Where an array is, for asking its elements' keys.
pub struct ArrayAt<'a> {
    pub entity_type: &'a str,
    pub side: Side,
    pub path: &'a str,
    pub pattern: &'a str,
}

/// The keys that address an array's elements (`Tags[#env]`), or `None` when they are
/// addressed by position: some element has no key, two share one, or one is too long.
pub fn element_keys(
    items: &[Value],
    at: &ArrayAt<'_>,
    hooks: &HookCache<'_>,
) -> Option<Vec<String>> {
    let keys: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(index, element)| {
            hooks.order_key(&DeepArrayElement {
                entity_type: at.entity_type,
                pattern: at.pattern,
                path: at.path,
                element,
                index,
                side: at.side,
            })
        })
        .collect::<Option<_>>()?;
    let unique: BTreeSet<&String> = keys.iter().collect();
    let short = keys.iter().all(|k| k.chars().count() <= MAX_KEY_CHARS);
    (short && unique.len() == keys.len()).then_some(keys)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::NormalizationHooks;
    use chant_lexicon::deep::TypeMatch;
    use serde_json::json;

    fn tag_rules() -> NormalizationHooks {
        NormalizationHooks::default().order_by(TypeMatch::any(), "Tags", &["Key"])
    }

    fn paths<'m>(map: &'m BTreeMap<String, &Value>) -> Vec<&'m str> {
        map.keys().map(String::as_str).collect()
    }

    #[test]
    fn leaves_are_scalars_and_empty_containers() {
        let tree = json!({"a": {"b": 1, "c": {}}, "d": [], "e": null});
        let flat = flatten(
            &tree,
            "T",
            Side::Live,
            &HookCache::new(&NormalizationHooks::default()),
        );
        assert_eq!(paths(&flat), ["a.b", "a.c", "d", "e"]);
        assert_eq!(*flat["a.c"], json!({}));
        assert_eq!(*flat["e"], Value::Null);
    }

    #[test]
    fn a_keyed_array_is_addressed_by_key_and_stays_put_when_a_tag_is_inserted() {
        // scenario 32
        let before = json!({"Tags": [{"Key": "env", "Value": "prod"}]});
        let after =
            json!({"Tags": [{"Key": "app", "Value": "web"}, {"Key": "env", "Value": "prod"}]});
        let a = flatten(&before, "T", Side::Live, &HookCache::new(&tag_rules()));
        let b = flatten(&after, "T", Side::Live, &HookCache::new(&tag_rules()));
        assert_eq!(*a["Tags[#env].Value"], json!("prod"));
        assert_eq!(*b["Tags[#env].Value"], json!("prod"));
        assert_eq!(*b["Tags[#app].Value"], json!("web"));
    }

    #[test]
    fn colliding_or_unkeyable_elements_fall_back_to_positions() {
        // scenario 32
        let collide = json!({"Tags": [{"Key": "a", "Value": "1"}, {"Key": "a", "Value": "2"}]});
        let flat = flatten(&collide, "T", Side::Live, &HookCache::new(&tag_rules()));
        assert_eq!(*flat["Tags[0].Value"], json!("1"));
        assert_eq!(*flat["Tags[1].Value"], json!("2"));
        let steps = json!({"Steps": [{"Key": "a"}]});
        assert_eq!(
            paths(&flatten(
                &steps,
                "T",
                Side::Live,
                &HookCache::new(&tag_rules())
            )),
            ["Steps[0].Key"]
        );
        let keyless = json!({"Tags": [{"Key": "a"}, {"Value": "v"}]});
        assert_eq!(
            paths(&flatten(
                &keyless,
                "T",
                Side::Live,
                &HookCache::new(&tag_rules())
            )),
            ["Tags[0].Key", "Tags[1].Value"]
        );
    }

    #[test]
    fn a_key_longer_than_sixty_characters_falls_back_to_positions() {
        let long = "k".repeat(61);
        let tree = json!({"Tags": [{"Key": long, "Value": "1"}]});
        assert_eq!(
            paths(&flatten(
                &tree,
                "T",
                Side::Live,
                &HookCache::new(&tag_rules())
            )),
            ["Tags[0].Key", "Tags[0].Value"]
        );
        let sixty = "k".repeat(60);
        let tree = json!({"Tags": [{"Key": sixty.clone()}]});
        assert!(
            flatten(&tree, "T", Side::Live, &HookCache::new(&tag_rules()))
                .contains_key(&format!("Tags[#{sixty}].Key"))
        );
    }
}
