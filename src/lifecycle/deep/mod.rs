//! Property-level drift: the deep property trees of declared and live objects, normalized
//! with the lexicon's hooks on both sides, walked together in one path grammar, and
//! classified field by field against what the declaration claims.

pub mod claim;
pub mod diff;
pub mod flatten;
pub mod normalize;
pub mod path;
pub mod stream;

pub use claim::{ClaimSource, ClaimedFields, EntityFields, FieldKind, PropertyRow, claimed_fields};
pub use diff::{
    DeepDiff, DeepEntityDrift, diff_deep, drift_changes, entity_fields, property_drift,
};
pub use flatten::flatten;
pub use normalize::{UNRESOLVED, normalize};
