//! The ownership marker: stamped into a substrate's own metadata channel (a label, a tag,
//! a COMMENT trailer) and read back on every observation.

use crate::lexicon::ReadPath;
use crate::metadata::{Ownership, OwnershipMarker};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The value of the managed-by key on everything chant stamps.
pub const MANAGED_BY_VALUE: &str = "chant";

/// The three keys of one substrate's marker channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ChannelKeys {
    pub managed_by: &'static str,
    pub stack: &'static str,
    pub env: &'static str,
}

/// The label convention shared by Kubernetes-shaped substrates.
pub const LABEL_OWNERSHIP_KEYS: ChannelKeys = ChannelKeys {
    managed_by: "app.kubernetes.io/managed-by",
    stack: "chant.intentius.io/stack",
    env: "chant.intentius.io/env",
};

/// Which read paths of a lexicon resolve the marker, declared before anyone asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OwnershipChannel {
    pub keys: ChannelKeys,
    pub reads: Vec<ReadPath>,
}

impl OwnershipChannel {
    pub fn resolves_on(&self, path: ReadPath) -> bool {
        self.reads.contains(&path)
    }
}

/// This project's marker identity: the stack from `[ownership]` and the environment
/// being read. `owned` means exactly this identity, not any chant marker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectMarker {
    pub stack: String,
    pub env: String,
}

impl ProjectMarker {
    pub fn new(stack: impl Into<String>, env: impl Into<String>) -> Self {
        ProjectMarker {
            stack: stack.into(),
            env: env.into(),
        }
    }

    /// The entries to stamp on an object this project creates.
    pub fn entries(&self, keys: &ChannelKeys) -> BTreeMap<String, String> {
        BTreeMap::from([
            (keys.managed_by.to_owned(), MANAGED_BY_VALUE.to_owned()),
            (keys.stack.to_owned(), self.stack.clone()),
            (keys.env.to_owned(), self.env.clone()),
        ])
    }

    /// Owned iff the marker is chant's, names this stack, and — when it names an
    /// environment at all — names this one. A sibling stack's marker is foreign.
    pub fn classify(&self, marker: Option<&OwnershipMarker>) -> Ownership {
        match marker {
            Some(m) if self.matches(m) => Ownership::Owned,
            _ => Ownership::Foreign,
        }
    }

    pub fn matches(&self, marker: &OwnershipMarker) -> bool {
        marker.stack == self.stack && marker.env.as_deref().is_none_or(|env| env == self.env)
    }
}

/// Read a marker back from a key/value channel; `None` when it is not chant's.
pub fn read_marker<'a>(
    lookup: impl Fn(&str) -> Option<&'a str>,
    keys: &ChannelKeys,
) -> Option<OwnershipMarker> {
    if lookup(keys.managed_by)? != MANAGED_BY_VALUE {
        return None;
    }
    Some(OwnershipMarker {
        stack: lookup(keys.stack).unwrap_or_default().to_owned(),
        env: lookup(keys.env)
            .filter(|e| !e.is_empty())
            .map(str::to_owned),
    })
}

/// [`read_marker`] over a map of labels or tags.
pub fn read_marker_from_map(
    tags: &BTreeMap<String, String>,
    keys: &ChannelKeys,
) -> Option<OwnershipMarker> {
    read_marker(|k| tags.get(k).map(String::as_str), keys)
}

/// `[{Key, Value}]` (CloudFormation's tag shape) to a map; entries without a string key are skipped.
pub fn tag_array_to_map(tags: &serde_json::Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Some(items) = tags.as_array() {
        for item in items {
            let key = item.get("Key").and_then(|k| k.as_str());
            let value = item
                .get("Value")
                .and_then(|v| v.as_str())
                .unwrap_or_default();
            if let Some(key) = key {
                out.insert(key.to_owned(), value.to_owned());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn owned_needs_this_stack_and_this_env() {
        let me = ProjectMarker::new("shop", "prod");
        let keys = LABEL_OWNERSHIP_KEYS;
        let ours = labels(&[
            (keys.managed_by, "chant"),
            (keys.stack, "shop"),
            (keys.env, "prod"),
        ]);
        let sibling = labels(&[
            (keys.managed_by, "chant"),
            (keys.stack, "blog"),
            (keys.env, "prod"),
        ]);
        let other_env = labels(&[
            (keys.managed_by, "chant"),
            (keys.stack, "shop"),
            (keys.env, "dev"),
        ]);
        let no_env = labels(&[(keys.managed_by, "chant"), (keys.stack, "shop")]);
        let helm = labels(&[(keys.managed_by, "Helm")]);
        let classify =
            |l: &BTreeMap<String, String>| me.classify(read_marker_from_map(l, &keys).as_ref());
        assert_eq!(classify(&ours), Ownership::Owned);
        assert_eq!(classify(&sibling), Ownership::Foreign);
        assert_eq!(classify(&other_env), Ownership::Foreign);
        assert_eq!(classify(&no_env), Ownership::Owned);
        assert_eq!(classify(&helm), Ownership::Foreign);
        assert_eq!(read_marker_from_map(&helm, &keys), None);
    }

    #[test]
    fn tag_arrays_become_maps() {
        let tags = serde_json::json!([{"Key": "a", "Value": "1"}, {"Value": "x"}, {"Key": "b"}]);
        assert_eq!(tag_array_to_map(&tags), labels(&[("a", "1"), ("b", "")]));
    }
}
