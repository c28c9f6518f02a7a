//! What a lexicon says about one live object.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

/// Is this live object ours? Read from a marker on the object, never from a file we keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ownership {
    /// The marker names this project's stack (and this environment when it carries one).
    Owned,
    /// No marker, or a marker naming another stack or environment.
    Foreign,
    /// The channel was not read on this path. Never escalated to a delete.
    #[default]
    Unknown,
}

impl Ownership {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Owned => "owned",
            Self::Foreign => "foreign",
            Self::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Ownership {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The stack and environment a live ownership marker carries, read back verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OwnershipMarker {
    pub stack: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
}

/// Where an undeclared live object's owner chain ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "root", rename_all = "lowercase")]
pub enum OwnerChain {
    /// Created at runtime by a declared object (a ReplicaSet of a Deployment, …).
    Declared {
        entity: String,
    },
    Unowned,
    Foreign,
    Unknown,
}

/// One live object, as the thin read sees it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceMetadata {
    #[serde(rename = "type")]
    pub entity_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_id: Option<String>,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<String>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub attributes: Map<String, Value>,
    /// Absent means unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ownership: Option<Ownership>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<OwnershipMarker>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_chain: Option<OwnerChain>,
    /// How the object was bound to its declaration, when the lexicon derived it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_by: Option<String>,
    /// Non-empty: a dependency pulled in by these declared entities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub referenced_by: Vec<String>,
    /// Simply there: nothing declares it, nothing points at it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ambient: bool,
    /// Present in the provider's own defaults (a default VPC, its security group).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provider_default: bool,
}

impl ResourceMetadata {
    pub fn new(entity_type: impl Into<String>, status: impl Into<String>) -> Self {
        ResourceMetadata {
            entity_type: entity_type.into(),
            status: status.into(),
            ..Default::default()
        }
    }

    pub fn with_physical_id(mut self, id: impl Into<String>) -> Self {
        self.physical_id = Some(id.into());
        self
    }

    pub fn with_ownership(mut self, ownership: Ownership) -> Self {
        self.ownership = Some(ownership);
        self
    }

    pub fn with_marker(mut self, marker: Option<OwnershipMarker>) -> Self {
        self.marker = marker;
        self
    }

    pub fn with_attribute(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.attributes.insert(key.into(), value.into());
        self
    }

    /// The verdict, with an absent field read as unknown.
    pub fn ownership(&self) -> Ownership {
        self.ownership.unwrap_or_default()
    }

    pub fn is_dependency(&self) -> bool {
        !self.referenced_by.is_empty()
    }

    /// The declared entity that owns this object at runtime, if any.
    pub fn runtime_owner(&self) -> Option<&str> {
        match &self.owner_chain {
            Some(OwnerChain::Declared { entity }) => Some(entity),
            _ => None,
        }
    }
}

/// A runtime artifact (a helm release, a container): two-way diffed, never declared.
pub type ArtifactMetadata = ResourceMetadata;

/// One changed field between two readings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttributeChange {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_value: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_value: Option<Value>,
}
