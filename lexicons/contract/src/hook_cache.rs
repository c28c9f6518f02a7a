//! Which normalization rules apply at an (entity type, pattern), worked out once: a deep
//! diff asks every rule about every node, and thousands of objects share a few hundred
//! patterns.

use crate::deep::{DeepArrayElement, DeepNode, NormalizationHooks};
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// The rules whose type and glob match one (entity type, pattern), by index.
#[derive(Debug, Default)]
struct Applicable {
    prune: Vec<usize>,
    unresolved: Vec<usize>,
    mask: bool,
    order_key: Option<usize>,
}

/// Pattern → the rules that apply there, for one entity type.
type ByPattern = FxHashMap<Box<str>, Rc<Applicable>>;

/// [`NormalizationHooks`] with each (type, pattern)'s matching rules remembered. Answers
/// exactly as the hooks do. One per thread (it is not `Sync`); cheap to make.
///
/// A walk down a tree asks by [`PatternAt`] ([`HookCache::root`], then
/// [`HookCache::key`] and [`HookCache::element`] per step): one short key is hashed per
/// node, not the node's whole pattern.
#[derive(Debug)]
pub struct HookCache<'h> {
    hooks: &'h NormalizationHooks,
    by_type: RefCell<FxHashMap<Box<str>, ByPattern>>,
    roots: RefCell<FxHashMap<Box<str>, PatternAt>>,
    places: RefCell<Vec<Place>>,
}

/// A pattern of one entity type, as a place in a [`HookCache`]'s trie of the patterns
/// walked so far. Only meaningful to the cache that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternAt(u32);

/// One (type, pattern) of the trie: its rules, and the places one step further down.
#[derive(Debug)]
struct Place {
    entity_type: Rc<str>,
    pattern: Box<str>,
    applicable: Rc<Applicable>,
    keys: FxHashMap<Box<str>, PatternAt>,
    element: Option<PatternAt>,
}

impl<'h> HookCache<'h> {
    pub fn new(hooks: &'h NormalizationHooks) -> Self {
        HookCache {
            hooks,
            by_type: RefCell::default(),
            roots: RefCell::default(),
            places: RefCell::default(),
        }
    }

    /// The root of an entity type's trees (the empty pattern).
    pub fn root(&self, entity_type: &str) -> PatternAt {
        if let Some(&root) = self.roots.borrow().get(entity_type) {
            return root;
        }
        let root = self.place(Rc::from(entity_type), String::new());
        self.roots.borrow_mut().insert(entity_type.into(), root);
        root
    }

    /// The pattern of the object child `key` under `parent`: `parent.key`.
    pub fn key(&self, parent: PatternAt, key: &str) -> PatternAt {
        if let Some(&child) = self.places.borrow()[parent.index()].keys.get(key) {
            return child;
        }
        let (entity_type, pattern) = self.extended(parent, |pattern| {
            if !pattern.is_empty() {
                pattern.push('.');
            }
            pattern.push_str(key);
        });
        let child = self.place(entity_type, pattern);
        self.places.borrow_mut()[parent.index()]
            .keys
            .insert(key.into(), child);
        child
    }

    /// The pattern of the elements of the array at `parent`: `parent[]`.
    pub fn element(&self, parent: PatternAt) -> PatternAt {
        if let Some(child) = self.places.borrow()[parent.index()].element {
            return child;
        }
        let (entity_type, pattern) = self.extended(parent, |pattern| pattern.push_str("[]"));
        let child = self.place(entity_type, pattern);
        self.places.borrow_mut()[parent.index()].element = Some(child);
        child
    }

    /// The rules that apply at a place of the trie.
    pub fn rules(&self, at: PatternAt) -> RulesAt<'_> {
        RulesAt {
            hooks: self.hooks,
            applicable: self.places.borrow()[at.index()].applicable.clone(),
        }
    }

    /// [`HookCache::order_key`] for an element of the array at `array`.
    pub fn order_key_at(&self, array: PatternAt, element: &Value) -> Option<String> {
        let rule = self.places.borrow()[array.index()].applicable.order_key?;
        self.hooks.order_keys[rule].key_of(element)
    }

    fn extended(&self, parent: PatternAt, step: impl FnOnce(&mut String)) -> (Rc<str>, String) {
        let places = self.places.borrow();
        let parent = &places[parent.index()];
        let mut pattern = String::from(&*parent.pattern);
        step(&mut pattern);
        (parent.entity_type.clone(), pattern)
    }

    fn place(&self, entity_type: Rc<str>, pattern: String) -> PatternAt {
        let applicable = self.applicable(&entity_type, &pattern);
        let mut places = self.places.borrow_mut();
        let at = PatternAt(u32::try_from(places.len()).expect("fewer than 2^32 patterns"));
        places.push(Place {
            entity_type,
            pattern: pattern.into(),
            applicable,
            keys: FxHashMap::default(),
            element: None,
        });
        at
    }

    fn applicable(&self, entity_type: &str, pattern: &str) -> Rc<Applicable> {
        if let Some(found) = self
            .by_type
            .borrow()
            .get(entity_type)
            .and_then(|patterns| patterns.get(pattern))
        {
            return found.clone();
        }
        let found = Rc::new(self.work_out(entity_type, pattern));
        self.by_type
            .borrow_mut()
            .entry(entity_type.into())
            .or_default()
            .insert(pattern.into(), found.clone());
        found
    }

    fn work_out(&self, entity_type: &str, pattern: &str) -> Applicable {
        let hooks = self.hooks;
        Applicable {
            prune: indices(&hooks.prune, |r| r.applies_at(entity_type, pattern)),
            unresolved: indices(&hooks.unresolved, |r| r.applies_at(entity_type, pattern)),
            mask: hooks
                .mask
                .iter()
                .any(|r| r.applies_at(entity_type, pattern)),
            order_key: hooks
                .order_keys
                .iter()
                .position(|r| r.applies_at(entity_type, pattern)),
        }
    }

    /// The rules that apply at one node's (type, pattern), looked up once for all the
    /// questions asked about that node.
    pub fn at(&self, entity_type: &str, pattern: &str) -> RulesAt<'_> {
        RulesAt {
            hooks: self.hooks,
            applicable: self.applicable(entity_type, pattern),
        }
    }

    /// [`NormalizationHooks::order_key`].
    pub fn order_key(&self, element: &DeepArrayElement<'_>) -> Option<String> {
        let rule = self
            .applicable(element.entity_type, element.pattern)
            .order_key?;
        self.hooks.order_keys[rule].key_of(element.element)
    }
}

impl PatternAt {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// The rules of one (type, pattern), from [`HookCache::at`] or [`HookCache::rules`].
pub struct RulesAt<'h> {
    hooks: &'h NormalizationHooks,
    applicable: Rc<Applicable>,
}

impl RulesAt<'_> {
    /// Whether any prune rule applies here: where none does, [`RulesAt::prunes`] is false
    /// whatever the node, so a caller need not work out its counterpart.
    pub fn may_prune(&self) -> bool {
        !self.applicable.prune.is_empty()
    }

    pub fn prunes(&self, node: &DeepNode<'_>) -> bool {
        self.applicable
            .prune
            .iter()
            .any(|&i| self.hooks.prune[i].when.holds(node))
    }

    pub fn masks(&self) -> bool {
        self.applicable.mask
    }

    pub fn is_unresolved(&self, node: &DeepNode<'_>) -> bool {
        self.applicable
            .unresolved
            .iter()
            .any(|&i| self.hooks.unresolved[i].value.matches(node.value))
    }
}

/// Positions of the rules that apply.
fn indices<T>(rules: &[T], applies: impl Fn(&T) -> bool) -> Vec<usize> {
    rules
        .iter()
        .enumerate()
        .filter(|(_, rule)| applies(rule))
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deep::{Counterpart, Side, TypeMatch};
    use serde_json::{Value, json};

    fn hooks() -> NormalizationHooks {
        NormalizationHooks::default()
            .prune_always(TypeMatch::any(), &["status", "**.Arn"])
            .default_value(TypeMatch::of(&["A::*"]), "spec.replicas", json!(1))
            .mask(TypeMatch::of(&["A::Secret"]), &["data.*"])
            .unresolved_object(TypeMatch::any(), None, "^Ref$")
            .order_by(TypeMatch::any(), "**.Tags", &["Key"])
    }

    #[test]
    fn the_cache_answers_as_the_hooks_do_every_time_it_is_asked() {
        let hooks = hooks();
        let cache = HookCache::new(&hooks);
        let values = [json!(1), json!(2), json!({"Ref": "X"}), json!("s")];
        let types = ["A::Thing", "A::Secret", "B::Other"];
        let patterns = [
            "status",
            "spec.replicas",
            "x.y[].Arn",
            "data.key",
            "data",
            "Tags",
            "spec.Tags",
        ];
        let mut checked = 0;
        for _pass in 0..2 {
            for t in types {
                for p in patterns {
                    for v in &values {
                        for side in [Side::Declared, Side::Live] {
                            for c in [Counterpart::Absent, Counterpart::Present] {
                                let node = DeepNode::at(t, p, v, side, c);
                                let rules = cache.at(t, p);
                                assert_eq!(rules.prunes(&node), hooks.prunes(&node), "{t} {p}");
                                assert_eq!(rules.masks(), hooks.masks(&node), "{t} {p}");
                                assert_eq!(
                                    rules.is_unresolved(&node),
                                    hooks.is_unresolved(&node),
                                    "{t} {p}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 3 * 7 * 4 * 2 * 2);
        let tag: Value = json!({"Key": "env"});
        let element = DeepArrayElement {
            entity_type: "B::Other",
            pattern: "spec.Tags",
            path: "spec.Tags",
            element: &tag,
            index: 0,
            side: Side::Live,
        };
        assert_eq!(cache.order_key(&element).as_deref(), Some("env"));
        assert_eq!(cache.order_key(&element), hooks.order_key(&element));
        let untagged = DeepArrayElement {
            pattern: "spec.Labels",
            ..element
        };
        assert_eq!(cache.order_key(&untagged), None);
    }

    #[test]
    fn a_walk_down_the_trie_finds_the_rules_of_the_pattern_it_spells() {
        let hooks = hooks();
        let cache = HookCache::new(&hooks);
        let one = json!(1);
        for pass in 0..2 {
            for t in ["A::Thing", "A::Secret", "B::Other"] {
                let root = cache.root(t);
                let replicas = cache.key(cache.key(root, "spec"), "replicas");
                let arn = cache.key(cache.element(cache.key(root, "x")), "Arn");
                let data_key = cache.key(cache.key(root, "data"), "key");
                let dotted = cache.key(root, "spec.replicas");
                for (at, pattern) in [
                    (replicas, "spec.replicas"),
                    (arn, "x[].Arn"),
                    (data_key, "data.key"),
                    (cache.key(root, "status"), "status"),
                ] {
                    let node = DeepNode::at(t, pattern, &one, Side::Live, Counterpart::Absent);
                    let rules = cache.rules(at);
                    assert_eq!(rules.prunes(&node), hooks.prunes(&node), "{t} {pattern}");
                    assert_eq!(rules.masks(), hooks.masks(&node), "{t} {pattern}");
                }
                // A key with a dot in it is one step: the same text, the same rules.
                assert_eq!(
                    cache.rules(dotted).may_prune(),
                    cache.rules(replicas).may_prune()
                );
                assert_ne!(dotted, replicas, "{t}: one key is not two steps");
                if pass == 1 {
                    assert_eq!(cache.root(t), root, "{t}: a root is made once");
                }
            }
        }
        let tags = cache.key(cache.key(cache.root("B::Other"), "spec"), "Tags");
        assert_eq!(
            cache.order_key_at(tags, &json!({"Key": "env"})).as_deref(),
            Some("env")
        );
        let labels = cache.key(cache.key(cache.root("B::Other"), "spec"), "Labels");
        assert_eq!(cache.order_key_at(labels, &json!({"Key": "env"})), None);
        assert_ne!(cache.root("A::Thing"), cache.root("B::Other"));
    }

    #[test]
    fn a_pruned_live_default_depends_on_the_node_not_only_on_the_pattern() {
        let hooks = hooks();
        let cache = HookCache::new(&hooks);
        let one = json!(1);
        let two = json!(2);
        let at = |v| {
            DeepNode::at(
                "A::Thing",
                "spec.replicas",
                v,
                Side::Live,
                Counterpart::Absent,
            )
        };
        let rules = cache.at("A::Thing", "spec.replicas");
        assert!(rules.prunes(&at(&one)));
        assert!(!rules.prunes(&at(&two)));
        let declared = DeepNode {
            counterpart: Counterpart::Present,
            ..at(&one)
        };
        assert!(!rules.prunes(&declared));
    }
}
