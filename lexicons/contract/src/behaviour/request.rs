//! What core hands `predict_behaviour`: the deep read's request field for field, plus the
//! traffic level, an optional named failure, and the estate's edges.
//!
//! There is no field for a credential, a client, a writer or a callback: an engine handed
//! this can reach nothing. What a type cannot see into (`entities[*].props`, straight out
//! of the build) is walked by [`super::screen_behaviour_request`] before anything is sent.

use super::edges::Edges;
use super::figures::TrafficLevel;
use crate::lexicon::ObserveRequest;
use serde::Serialize;

/// Which estate the request describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Estate {
    /// What the build output declares.
    Declared,
    /// What the live read observed (attributes in place of props).
    Live,
}

impl Estate {
    pub fn as_str(self) -> &'static str {
        match self {
            Estate::Declared => "declared",
            Estate::Live => "live",
        }
    }
}

#[derive(Clone, Debug)]
pub struct BehaviourRequest {
    /// The deep read's request: environment, project marker, entities, owned, namespace,
    /// stack, region, concurrency, request timeout.
    pub observe: ObserveRequest,
    pub estate: Estate,
    pub traffic: TrafficLevel,
    /// The failure a resilience verdict is asked for (`one zone lost`).
    pub failure: Option<String>,
    pub edges: Edges,
}

impl BehaviourRequest {
    pub fn new(observe: ObserveRequest, traffic: TrafficLevel, edges: Edges) -> Self {
        BehaviourRequest {
            observe,
            estate: Estate::Declared,
            traffic,
            failure: None,
            edges,
        }
    }

    /// The names every answer must account for, in request order.
    pub fn entity_names(&self) -> Vec<String> {
        self.observe
            .entities
            .iter()
            .map(|e| e.name.clone())
            .collect()
    }
}
