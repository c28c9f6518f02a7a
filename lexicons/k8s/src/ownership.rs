//! The ownership marker on a live object's labels.

use chant_lexicon::ownership::{LABEL_OWNERSHIP_KEYS, read_marker};
use chant_lexicon::{Ownership, OwnershipMarker, ProjectMarker};
use serde_json::Value;

pub fn marker_of(object: &Value) -> Option<OwnershipMarker> {
    let labels = &object["metadata"]["labels"];
    read_marker(|key| labels[key].as_str(), &LABEL_OWNERSHIP_KEYS)
}

pub fn verdict(object: &Value, project: &ProjectMarker) -> (Ownership, Option<OwnershipMarker>) {
    let marker = marker_of(object);
    (project.classify(marker.as_ref()), marker)
}

/// `app.kubernetes.io/managed-by=chant,chant.intentius.io/stack=<stack>[,…/env=<env>]`.
pub fn selector(project: &ProjectMarker, with_env: bool) -> String {
    let keys = LABEL_OWNERSHIP_KEYS;
    let mut out = format!("{}=chant,{}={}", keys.managed_by, keys.stack, project.stack);
    if with_env {
        out.push_str(&format!(",{}={}", keys.env, project.env));
    }
    out
}
