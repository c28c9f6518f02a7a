//! The reference catalog: how live objects reference each other by physical identifier.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdentityPaths {
    pub kind: String,
    pub ids: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    Reference,
    Containment,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceRule {
    pub from: String,
    /// `a.b` or `arr[].id`.
    pub path: String,
    #[serde(default)]
    pub target_kind: Option<String>,
    pub relation: Relation,
    pub label: String,
    /// The provider's own attribute name, for rules a fold traverses.
    #[serde(default)]
    pub via_attr: Option<String>,
    /// Followed beyond depth one by `observe_dependencies`.
    #[serde(default)]
    pub chained: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferenceCatalog {
    pub identities: Vec<IdentityPaths>,
    pub refs: Vec<ReferenceRule>,
}
