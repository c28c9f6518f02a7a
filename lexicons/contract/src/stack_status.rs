//! One deploy unit, by deployed name.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug)]
pub struct StackStatusRequest {
    pub environment: String,
    pub stack: String,
}

/// `None` from the hook means indeterminate; `present: false` means genuinely absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackStatus {
    pub stack: String,
    pub present: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healthy: Option<bool>,
}
