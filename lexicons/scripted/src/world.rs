//! The live world a scripted environment answers from.

use chant_lexicon::{
    ArtifactMetadata, DeepResourceObservation, DisruptionVerdict, IdentityAnswer, OwnershipMarker,
    ResourceMetadata, StackStatus, TeardownPlan, UnobservedEntity, UnobservedReason,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// A failure every entity shares (a bind that did not succeed).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BindFailure {
    pub reason: UnobservedReason,
    #[serde(default)]
    pub detail: Option<String>,
}

/// An object `export_resources` returns, with its full input config.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedObject {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    #[serde(default)]
    pub props: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<OwnershipMarker>,
}

/// What each hook answers. A hook whose key is absent is not implemented.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LiveWorld {
    /// Every hook fails as a whole (the lexicon threw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail: Option<String>,
    /// Every hook refuses to proceed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refuse: Option<String>,
    /// The bind failed: every declared entity is not observed for this reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bind: Option<BindFailure>,
    /// Added to every read, to exercise timeouts and progress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<u64>,
    /// Live objects by entity name (declared or not). Ownership is classified from
    /// `marker` when it is set; an explicit `ownership` is kept otherwise.
    #[serde(default)]
    pub resources: BTreeMap<String, ResourceMetadata>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unobserved: BTreeMap<String, UnobservedEntity>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub queried: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep: Option<BTreeMap<String, DeepResourceObservation>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deep_unobserved: BTreeMap<String, UnobservedEntity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<IdentityAnswer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teardown: Option<TeardownPlan>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disruption: Option<BTreeMap<String, DisruptionVerdict>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<Vec<ExportedObject>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifacts: Option<BTreeMap<String, ArtifactMetadata>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<BTreeMap<String, ResourceMetadata>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambient: Option<BTreeMap<String, ResourceMetadata>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack_status: Option<Option<StackStatus>>,
}
