//! The path grammar shared by normalization, flattening, the claim, field owners and the
//! baseline.
//!
//! - object child: `parent.key` (a root child is just `key`; keys are not escaped)
//! - array element: `parent[0]`
//! - pattern (indices erased): `parent[]`, so `Tags[0].Key` has the pattern `Tags[].Key`
//! - keyed element (flattened set-like arrays only): `Tags[#env].Value`

use chant_lexicon::Counterpart;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Exact paths and patterns of one raw tree.
pub type PathSet = BTreeSet<String>;

pub fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        return key.to_owned();
    }
    let mut path = String::with_capacity(parent.len() + 1 + key.len());
    path.push_str(parent);
    path.push('.');
    path.push_str(key);
    path
}

pub fn index_path(parent: &str, index: usize) -> String {
    let mut path = String::with_capacity(parent.len() + 8);
    path.push_str(parent);
    let _ = write!(path, "[{index}]");
    path
}

pub fn keyed_path(parent: &str, key: &str) -> String {
    format!("{parent}[#{key}]")
}

/// The pattern of an array's elements, from the array's own pattern.
pub fn element_pattern(array_pattern: &str) -> String {
    format!("{array_pattern}[]")
}

/// Every non-root node's exact path and its pattern, walking objects and arrays of the
/// raw tree (before anything is pruned): `{Tags:[{Key:"a"}]}` gives `Tags`, `Tags[0]`,
/// `Tags[0].Key`, `Tags[]`, `Tags[].Key`.
pub fn deep_path_set(tree: &Value) -> PathSet {
    let mut set = PathSet::new();
    collect(tree, "", "", &mut set);
    set
}

fn collect(value: &Value, path: &str, pattern: &str, set: &mut PathSet) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let (p, q) = (child_path(path, key), child_path(pattern, key));
                collect(child, &p, &q, set);
                set.insert(p);
                set.insert(q);
            }
        }
        Value::Array(items) => {
            let q = element_pattern(pattern);
            for (i, child) in items.iter().enumerate() {
                let p = index_path(path, i);
                collect(child, &p, &q, set);
                set.insert(p);
            }
            if !items.is_empty() {
                set.insert(q);
            }
        }
        _ => {}
    }
}

/// Does the other tree have this node? `Unknown` on a one-sided pass; `Present` when the
/// exact path or the pattern is there, so any index of a declared list counts.
pub fn counterpart(other: Option<&PathSet>, path: &str, pattern: &str) -> Counterpart {
    match other {
        None => Counterpart::Unknown,
        Some(set) if set.contains(path) || set.contains(pattern) => Counterpart::Present,
        Some(_) => Counterpart::Absent,
    }
}

/// The proper ancestors of a path, nearest first: `a.b[0].c` gives `a.b[0]`, `a.b`, `a`.
///
/// Keys are not escaped, so a dotted key (`app.kubernetes.io/name`) yields a few prefixes
/// that name no node; callers only ever look them up.
pub fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.char_indices()
        .rev()
        .filter(|(i, c)| *i > 0 && (*c == '.' || *c == '['))
        .map(move |(i, _)| &path[..i])
}

/// Is `path` strictly below `ancestor`?
pub fn is_below(path: &str, ancestor: &str) -> bool {
    path.len() > ancestor.len()
        && path.starts_with(ancestor)
        && matches!(path.as_bytes()[ancestor.len()], b'.' | b'[')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_path_set_holds_every_exact_path_and_pattern() {
        let set = deep_path_set(&json!({"Tags": [{"Key": "a"}]}));
        let expected: PathSet = ["Tags", "Tags[0]", "Tags[0].Key", "Tags[]", "Tags[].Key"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(set, expected);
    }

    #[test]
    fn counterpart_is_unknown_without_paths_and_present_for_any_index_of_a_declared_pattern() {
        // scenario 29
        let declared = deep_path_set(&json!({"Tags": [{"Key": "a"}], "Name": "x"}));
        assert_eq!(counterpart(None, "Name", "Name"), Counterpart::Unknown);
        assert_eq!(
            counterpart(Some(&declared), "Name", "Name"),
            Counterpart::Present
        );
        assert_eq!(
            counterpart(Some(&declared), "Tags[3].Key", "Tags[].Key"),
            Counterpart::Present
        );
        assert_eq!(
            counterpart(Some(&declared), "Tags[0].Value", "Tags[].Value"),
            Counterpart::Absent
        );
    }

    #[test]
    fn paths_are_built_in_the_grammar() {
        assert_eq!(child_path("", "spec"), "spec");
        assert_eq!(child_path("spec", "replicas"), "spec.replicas");
        assert_eq!(index_path("Tags", 0), "Tags[0]");
        assert_eq!(keyed_path("Tags", "env"), "Tags[#env]");
        assert_eq!(element_pattern("Tags"), "Tags[]");
    }

    #[test]
    fn ancestors_run_nearest_first_and_stop_before_the_root() {
        let list: Vec<&str> = ancestors("a.b[0].c").collect();
        assert_eq!(list, ["a.b[0]", "a.b", "a"]);
        assert_eq!(ancestors("a").count(), 0);
        assert!(is_below("Tags[#env].Value", "Tags"));
        assert!(is_below("a.b", "a"));
        assert!(!is_below("ab", "a"));
        assert!(!is_below("a", "a"));
    }
}
