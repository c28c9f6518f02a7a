//! The snapshot file written to `<env>/[<stack>__]<lexicon>.json` on the chant/lifecycle
//! branch: evidence of what was observed, never authority over what is owned.

use chant_lexicon::{
    ArtifactMetadata, DeepResourceObservation, ResourceMetadata, UnobservedEntity,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub const SCHEMA: &str = "chant.snapshot/v1";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSnapshot {
    #[serde(default)]
    pub schema: String,
    pub lexicon: String,
    pub environment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    /// HEAD of the working repository when the snapshot was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    pub timestamp: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lexicon_version: Option<String>,
    pub resources: BTreeMap<String, ResourceMetadata>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unobserved: BTreeMap<String, UnobservedEntity>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub artifacts: BTreeMap<String, ArtifactMetadata>,
    /// `deep` when `properties` holds property trees; absent means identity only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, DeepResourceObservation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<Value>,
}

impl StoredSnapshot {
    /// Parse a stored file; anything that is not a snapshot (a baseline, a damaged file) is `None`.
    pub fn parse(text: &str) -> Option<StoredSnapshot> {
        let value: Value = serde_json::from_str(text).ok()?;
        value.get("resources")?.as_object()?;
        serde_json::from_value(value).ok()
    }
}
