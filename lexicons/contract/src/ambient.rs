//! Beyond the declared estate: what it relies on, and what is simply there.

use crate::declared::DeclaredEntity;
use crate::metadata::ResourceMetadata;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `observe_dependencies`: depth one by reference plus the reference catalog's chains.
/// Every returned resource must carry `referenced_by`.
#[derive(Clone, Debug)]
pub struct DependencyRequest {
    pub environment: String,
    pub entities: Arc<Vec<DeclaredEntity>>,
    pub observed: Arc<BTreeMap<String, ResourceMetadata>>,
    pub stack: Option<String>,
    pub region: Option<String>,
}

/// `observe_ambient`: bounded to `kinds`; returns resources marked `ambient`, excluding
/// anything already in `observed`.
#[derive(Clone, Debug)]
pub struct AmbientRequest {
    pub environment: String,
    pub kinds: Vec<String>,
    pub observed: Arc<BTreeMap<String, ResourceMetadata>>,
    pub stack: Option<String>,
    pub region: Option<String>,
}
