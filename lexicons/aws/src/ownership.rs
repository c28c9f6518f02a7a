//! The AWS marker channel: three tags stamped at build on every taggable resource (and on
//! the stack), read back per resource on the deep read and export, and from the stack's
//! own tags on `describe_resources`.

use chant_lexicon::OwnershipMarker;
use chant_lexicon::ownership::{ChannelKeys, read_marker_from_map, tag_array_to_map};
use std::collections::BTreeMap;

pub const AWS_TAG_OWNERSHIP_KEYS: ChannelKeys = ChannelKeys {
    managed_by: "chant:managed-by",
    stack: "chant:stack",
    env: "chant:env",
};

/// The marker in a `[{Key, Value}]` tag list, if it is chant's.
pub fn marker_in_tag_array(tags: &serde_json::Value) -> Option<OwnershipMarker> {
    read_marker_from_map(&tag_array_to_map(tags), &AWS_TAG_OWNERSHIP_KEYS)
}

/// The marker in `(key, value)` pairs, if it is chant's.
pub fn marker_in_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<OwnershipMarker> {
    let map: BTreeMap<String, String> = pairs
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    read_marker_from_map(&map, &AWS_TAG_OWNERSHIP_KEYS)
}

/// `stack=shop env=dev`, for details and notes.
pub fn describe_marker(marker: Option<&OwnershipMarker>) -> String {
    match marker {
        Some(m) => match &m.env {
            Some(env) => format!("chant marker stack={} env={env}", m.stack),
            None => format!("chant marker stack={}", m.stack),
        },
        None => format!("no {} tag", AWS_TAG_OWNERSHIP_KEYS.managed_by),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn markers_read_from_either_tag_shape() {
        let tags = json!([{"Key": "chant:managed-by", "Value": "chant"}, {"Key": "chant:stack", "Value": "shop"}, {"Key": "chant:env", "Value": "dev"}]);
        let m = marker_in_tag_array(&tags).unwrap();
        assert_eq!((m.stack.as_str(), m.env.as_deref()), ("shop", Some("dev")));
        assert_eq!(
            marker_in_pairs([("chant:managed-by", "chant"), ("chant:stack", "blog")])
                .unwrap()
                .env,
            None
        );
        assert_eq!(marker_in_pairs([("chant:managed-by", "terraform")]), None);
        assert_eq!(describe_marker(Some(&m)), "chant marker stack=shop env=dev");
        assert_eq!(describe_marker(None), "no chant:managed-by tag");
    }
}
