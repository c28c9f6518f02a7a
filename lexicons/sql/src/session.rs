//! The transport seam: a bound session on one engine, answering in engine-neutral terms.

use crate::model::SqlObject;
use crate::names::{Kind, ObjectKey};
use async_trait::async_trait;
use chant_lexicon::{OwnershipMarker, UnobservedReason};
use std::collections::BTreeMap;

/// Why a read did not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub reason: UnobservedReason,
    pub detail: String,
}

impl Fault {
    pub fn new(reason: UnobservedReason, detail: impl Into<String>) -> Self {
        Fault {
            reason,
            detail: detail.into(),
        }
    }

    pub fn read_failed(detail: impl Into<String>) -> Self {
        Fault::new(UnobservedReason::ReadFailed, detail)
    }
}

/// One live object as the thin read sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveObject {
    pub key: ObjectKey,
    pub marker: Option<OwnershipMarker>,
    pub status: String,
    pub physical_id: Option<String>,
    /// Listed, but its own definition could not be read.
    pub unreadable: Option<String>,
    /// Objects it needs (used to order drops).
    pub depends_on: Vec<ObjectKey>,
}

/// Every object in scope, one catalog query per kind. A kind whose query failed is a
/// hole: its objects are unknown, never absent.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    pub objects: BTreeMap<String, LiveObject>,
    pub failed: BTreeMap<Kind, String>,
}

/// Every object's definition tree; `Err` for one whose definition could not be read.
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    pub objects: BTreeMap<String, Result<SqlObject, String>>,
    pub statuses: BTreeMap<String, (String, Option<String>)>,
    pub failed: BTreeMap<Kind, String>,
}

/// Who the session acts as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhoAmI {
    pub principal: String,
    pub scope: String,
    pub endpoint: String,
    pub target: String,
}

/// A verified drop: the object, and the marker it must still carry at the moment of deletion.
#[derive(Clone, Debug)]
pub struct DropStep {
    pub entity: String,
    pub key: ObjectKey,
    pub marker: OwnershipMarker,
}

impl DropStep {
    /// Does a fresh listing still show this object carrying the marker it was planned with?
    pub fn still_ours(&self, listing: &Listing) -> bool {
        !listing.failed.contains_key(&self.key.kind)
            && listing
                .objects
                .get(&self.entity)
                .and_then(|o| o.marker.as_ref())
                .is_some_and(|m| m == &self.marker)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DropReport {
    pub dropped: Vec<String>,
    pub skipped: Vec<String>,
    /// The transaction was rolled back: (entity, error) — nothing was dropped.
    pub failed: Option<(String, String)>,
}

#[async_trait]
pub trait Session: Send + Sync {
    /// Where reads go, without credentials: `postgres://host:port/db`, `sqlite:///path`.
    fn address(&self) -> String;

    async fn list(&self, schemas: &[String]) -> Listing;

    async fn definitions(&self, schemas: &[String]) -> Definitions;

    async fn whoami(&self) -> Result<WhoAmI, Fault>;

    /// In one transaction: re-read every step's marker, skip the ones that no longer
    /// carry it, drop the rest in the given order; any failure rolls everything back.
    async fn drop_verified(
        &self,
        schemas: &[String],
        steps: &[DropStep],
    ) -> Result<DropReport, Fault>;
}
