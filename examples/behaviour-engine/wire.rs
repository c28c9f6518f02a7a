//! The wire version `chant-example-behaviour/v1`: the request chant sends and the answer
//! this engine writes. Documented in README.md beside this file.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub const WIRE: &str = "chant-example-behaviour/v1";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    pub wire: String,
    /// `declared` or `live`.
    pub estate: String,
    pub traffic: String,
    #[serde(default)]
    pub failure: Option<String>,
    pub entities: Vec<Entity>,
    /// Absent when the caller did not compute edges.
    #[serde(default)]
    pub edges: Option<Vec<EdgeIn>>,
}

#[derive(Deserialize)]
pub struct Entity {
    pub name: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    #[serde(default)]
    pub props: Value,
}

#[derive(Deserialize)]
pub struct EdgeIn {
    pub from: String,
    pub to: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    pub wire: &'static str,
    pub engine: EngineName,
    pub at: String,
    pub predictions: BTreeMap<String, Prediction>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub unpredicted: BTreeMap<String, Hole>,
}

#[derive(Serialize)]
pub struct EngineName {
    pub name: &'static str,
    pub version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Prediction {
    pub at: At,
    pub cost: Rate,
    pub headroom: Headroom,
    pub error_rate: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resilience: Option<Resilience>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_size: Option<RightSize>,
    pub provenance: Provenance,
}

#[derive(Serialize)]
pub struct At {
    pub traffic: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rate {
    pub rate: &'static str,
    pub per_hour: f64,
    pub currency: String,
}

#[derive(Serialize)]
pub struct Headroom {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<f64>,
}

#[derive(Serialize)]
pub struct Resilience {
    pub failure: String,
    pub verdict: &'static str,
    pub note: String,
}

#[derive(Serialize)]
pub struct RightSize {
    pub suggestion: String,
    pub reason: String,
}

#[derive(Serialize)]
pub struct Provenance {
    pub engine: &'static str,
    pub version: &'static str,
    pub tolerance: &'static str,
    pub basis: &'static str,
}

#[derive(Serialize)]
pub struct Hole {
    pub reason: &'static str,
    pub detail: String,
}
