//! The path grammar shared by normalization, flattening, the claim, field owners and the
//! baseline.
//!
//! - object child: `parent.key` (a root child is just `key`; keys are not escaped)
//! - array element: `parent[0]`
//! - pattern (indices erased): `parent[]`, so `Tags[0].Key` has the pattern `Tags[].Key`
//! - keyed element (flattened set-like arrays only): `Tags[#env].Value`

use chant_lexicon::Counterpart;
use serde_json::Value;
use std::fmt::Write;

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

/// One step down a tree.
#[derive(Clone, Copy, Debug)]
pub enum Segment<'k> {
    Key(&'k str),
    Index(usize),
}

/// A step as [`TreePath`] keeps it: a key as its place in the path text; an element of
/// an array (by index or by key), which a counterpart may be any element of.
#[derive(Clone, Copy, Debug)]
enum Step {
    Key { start: usize, end: usize },
    Element,
}

/// The node a walk is at: its path and pattern, built in place as the walk goes down and
/// up (no string per node), and the steps that lead there.
#[derive(Debug, Default)]
pub struct TreePath {
    path: String,
    pattern: String,
    /// Per step: the step, and the lengths of path and pattern before it.
    steps: Vec<(Step, usize, usize)>,
}

impl TreePath {
    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    pub fn push(&mut self, segment: Segment<'_>) {
        let before = (self.path.len(), self.pattern.len());
        let step = match segment {
            Segment::Key(key) => {
                if !self.path.is_empty() {
                    self.path.push('.');
                }
                if !self.pattern.is_empty() {
                    self.pattern.push('.');
                }
                let start = self.path.len();
                self.path.push_str(key);
                self.pattern.push_str(key);
                Step::Key {
                    start,
                    end: self.path.len(),
                }
            }
            Segment::Index(i) => {
                let _ = write!(self.path, "[{i}]");
                self.pattern.push_str("[]");
                Step::Element
            }
        };
        self.steps.push((step, before.0, before.1));
    }

    /// A keyed element (`[#key]`) in the path; its pattern is the element pattern `[]`.
    pub fn push_keyed(&mut self, key: &str) {
        let before = (self.path.len(), self.pattern.len());
        let _ = write!(self.path, "[#{key}]");
        self.pattern.push_str("[]");
        self.steps.push((Step::Element, before.0, before.1));
    }

    pub fn pop(&mut self) {
        if let Some((_, path, pattern)) = self.steps.pop() {
            self.path.truncate(path);
            self.pattern.truncate(pattern);
        }
    }

    /// Whether `other` has a node here: at the same keys, and under any element where
    /// this path goes through an array (the node exists for the pattern). `Unknown`
    /// without another tree.
    pub fn counterpart_in(&self, other: Option<&Value>) -> Counterpart {
        match other {
            None => Counterpart::Unknown,
            Some(root) if self.reaches(root, 0) => Counterpart::Present,
            Some(_) => Counterpart::Absent,
        }
    }

    fn reaches(&self, value: &Value, depth: usize) -> bool {
        let Some((step, _, _)) = self.steps.get(depth) else {
            return true;
        };
        match (step, value) {
            (Step::Key { start, end }, Value::Object(map)) => map
                .get(&self.path[*start..*end])
                .is_some_and(|child| self.reaches(child, depth + 1)),
            (Step::Element, Value::Array(items)) => {
                items.iter().any(|item| self.reaches(item, depth + 1))
            }
            _ => false,
        }
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
    fn a_tree_path_builds_paths_and_patterns_in_place() {
        let mut at = TreePath::default();
        at.push(Segment::Key("Tags"));
        at.push(Segment::Index(3));
        at.push(Segment::Key("Key"));
        assert_eq!((at.path(), at.pattern()), ("Tags[3].Key", "Tags[].Key"));
        at.pop();
        at.pop();
        at.push_keyed("env");
        assert_eq!((at.path(), at.pattern()), ("Tags[#env]", "Tags[]"));
        at.pop();
        at.pop();
        at.pop();
        assert_eq!((at.path(), at.pattern()), ("", ""));
    }

    #[test]
    fn counterpart_is_unknown_without_a_tree_and_present_for_any_index_of_a_declared_pattern() {
        // scenario 29
        let declared = json!({"Tags": [{"Key": "a"}], "Name": "x", "app.io/name": 1});
        let at = |segments: &[Segment<'_>]| {
            let mut path = TreePath::default();
            segments.iter().for_each(|s| path.push(*s));
            path
        };
        let name = at(&[Segment::Key("Name")]);
        assert_eq!(name.counterpart_in(None), Counterpart::Unknown);
        assert_eq!(name.counterpart_in(Some(&declared)), Counterpart::Present);
        let tag_key = at(&[Segment::Key("Tags"), Segment::Index(3), Segment::Key("Key")]);
        assert_eq!(
            tag_key.counterpart_in(Some(&declared)),
            Counterpart::Present
        );
        let tag_value = at(&[
            Segment::Key("Tags"),
            Segment::Index(0),
            Segment::Key("Value"),
        ]);
        assert_eq!(
            tag_value.counterpart_in(Some(&declared)),
            Counterpart::Absent
        );
        // Keys are followed as keys: a dotted key is not a path.
        let dotted = at(&[Segment::Key("app.io/name")]);
        assert_eq!(dotted.counterpart_in(Some(&declared)), Counterpart::Present);
        let split = at(&[Segment::Key("app"), Segment::Key("io/name")]);
        assert_eq!(split.counterpart_in(Some(&declared)), Counterpart::Absent);
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
