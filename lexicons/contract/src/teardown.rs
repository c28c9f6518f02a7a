//! The delete side: what this project owns that nothing declares, and the holes.

use crate::metadata::OwnershipMarker;
use crate::ownership::ProjectMarker;
use crate::reason::UnobservedReason;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug)]
pub struct TeardownRequest {
    pub environment: String,
    pub project: ProjectMarker,
    /// Names the project still declares; they are never candidates.
    pub declared: Vec<String>,
    pub stack: Option<String>,
    pub region: Option<String>,
}

/// An object read carrying this project's marker, and not declared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeardownCandidate {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_id: Option<String>,
    /// The marker exactly as read.
    pub marker: OwnershipMarker,
    /// Candidates this one depends on (deleted after it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queried: Option<String>,
}

/// A kind the lexicon stamps but could not list: unknown, never "safe".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeardownHole {
    pub kind: String,
    pub reason: UnobservedReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeardownPlan {
    pub candidates: Vec<TeardownCandidate>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<TeardownHole>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeardownFailure {
    pub name: String,
    pub detail: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeardownOutcome {
    pub deleted: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<TeardownFailure>,
    /// Candidates not deleted because a re-read no longer showed them carrying our marker.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
}
