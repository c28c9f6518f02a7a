//! `predict_behaviour` for the scripted lexicon: its declared entities and edges rendered
//! in the example engine's wire version (`examples/behaviour-engine/README.md`), sent
//! through whichever transport the engine variable calls for, and the answer read back
//! through the contract's report builder.
//!
//! The scripted reference syntax is `{"ref": "<entity>"}` anywhere inside props.

use chant_behaviour::Wire;
use chant_lexicon::behaviour::{
    BehaviourReport, BehaviourRequest, BehaviourUnpredictedReason, Edges, EngineStamp,
    PredictedBehaviour, PredictedRate, UnpredictedEntity, behaviour_report, edges_from_props,
};
use chant_lexicon::{DeclaredEntity, HookError};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The wire version this lexicon speaks.
pub const WIRE: &str = "chant-example-behaviour/v1";

/// A scripted reference: `{"ref": "db"}`.
pub fn reference_target(value: &Value) -> Option<String> {
    let map = value.as_object()?;
    (map.len() == 1)
        .then(|| map.get("ref")?.as_str().map(str::to_owned))
        .flatten()
}

pub fn declared_edges(entities: &[DeclaredEntity]) -> Edges {
    edges_from_props(entities, reference_target)
}

pub struct ExampleWire;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    wire: String,
    engine: EngineName,
    at: String,
    #[serde(default)]
    predictions: BTreeMap<String, PredictedBehaviour>,
    #[serde(default)]
    unpredicted: BTreeMap<String, Hole>,
    #[serde(default)]
    total: Option<PredictedRate>,
}

#[derive(Deserialize)]
struct EngineName {
    name: String,
    version: String,
}

#[derive(Deserialize, Serialize)]
struct Hole {
    reason: BehaviourUnpredictedReason,
    #[serde(default)]
    detail: Option<String>,
}

impl Wire for ExampleWire {
    fn render(&self, request: &BehaviourRequest) -> Result<String, HookError> {
        let entities: Vec<Value> = request
            .observe
            .entities
            .iter()
            .map(|e| json!({"name": e.name, "type": e.entity_type, "props": e.props}))
            .collect();
        let mut body = json!({
            "wire": WIRE,
            "estate": request.estate,
            "environment": request.observe.environment,
            "traffic": request.traffic.traffic,
            "entities": entities,
            "edgeCoverage": request.edges.coverage(),
        });
        if let Some(failure) = &request.failure {
            body["failure"] = json!(failure);
        }
        // Absent rather than empty when nobody computed them.
        if let Some(edges) = request.edges.list() {
            body["edges"] = json!(edges);
        }
        serde_json::to_string(&body).map_err(|e| HookError::Failed(e.to_string()))
    }

    fn parse(&self, request: &BehaviourRequest, text: &str) -> Result<BehaviourReport, String> {
        let answer: Answer =
            serde_json::from_str(text).map_err(|e| format!("not a {WIRE} answer: {e}"))?;
        if answer.wire != WIRE {
            return Err(format!("wire version `{}`, expected `{WIRE}`", answer.wire));
        }
        if answer.at != request.traffic.traffic {
            return Err(format!(
                "answered for `{}`, asked for `{}`",
                answer.at, request.traffic
            ));
        }
        let type_of = |name: &str| request.observe.entity(name).map(|e| e.entity_type.clone());
        let mut unpredicted: BTreeMap<String, UnpredictedEntity> = answer
            .unpredicted
            .into_iter()
            .map(|(name, hole)| {
                let mut entry = UnpredictedEntity::new(hole.reason);
                entry.entity_type = type_of(&name);
                entry.detail = hole.detail;
                (name, entry)
            })
            .collect();
        // The engine was reached and said nothing about these: that is a failed
        // prediction, never a silent omission.
        for entity in request.observe.entities.iter() {
            if !answer.predictions.contains_key(&entity.name)
                && !unpredicted.contains_key(&entity.name)
            {
                unpredicted.insert(
                    entity.name.clone(),
                    UnpredictedEntity::new(BehaviourUnpredictedReason::ReadFailed)
                        .typed(&entity.entity_type)
                        .detail("the engine's answer did not mention it"),
                );
            }
        }
        behaviour_report(
            request,
            EngineStamp {
                engine: answer.engine.name,
                version: answer.engine.version,
            },
            answer.predictions,
            unpredicted,
            answer.total,
        )
        .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::behaviour::TrafficLevel;
    use chant_lexicon::{ObserveRequest, ProjectMarker};

    fn request(edges: Edges) -> BehaviourRequest {
        let entities = vec![
            DeclaredEntity::new("web", "Demo::Service", json!({"db": {"ref": "db"}})),
            DeclaredEntity::new("db", "Demo::Database", json!({})),
        ];
        BehaviourRequest::new(
            ObserveRequest::new("dev", ProjectMarker::new("shop", "dev"), entities),
            TrafficLevel::new("100 rps"),
            edges,
        )
    }

    #[test]
    fn edges_are_absent_when_not_computed_and_listed_when_computed() {
        let not = request(Edges::NotComputed);
        let body: Value = serde_json::from_str(&ExampleWire.render(&not).unwrap()).unwrap();
        assert!(body.get("edges").is_none());
        assert_eq!(body["edgeCoverage"]["verdict"], "not-computed");
        let entities = not.observe.entities.to_vec();
        let computed = request(declared_edges(&entities));
        let body: Value = serde_json::from_str(&ExampleWire.render(&computed).unwrap()).unwrap();
        assert_eq!(body["edges"][0]["from"], "web");
        assert_eq!(body["edges"][0]["to"], "db");
    }

    #[test]
    fn an_answer_that_forgets_an_entity_marks_it_read_failed() {
        let asked = request(Edges::NotComputed);
        let answer = json!({
            "wire": WIRE, "engine": {"name": "e", "version": "1"}, "at": "100 rps",
            "unpredicted": {"web": {"reason": "unsupported-kind"}}
        });
        let report = ExampleWire.parse(&asked, &answer.to_string()).unwrap();
        assert_eq!(
            report.unpredicted["db"].reason,
            BehaviourUnpredictedReason::ReadFailed
        );
        assert_eq!(
            report.unpredicted["web"].entity_type.as_deref(),
            Some("Demo::Service")
        );
    }

    #[test]
    fn an_answer_for_another_level_is_not_an_answer() {
        let asked = request(Edges::NotComputed);
        let answer = json!({"wire": WIRE, "engine": {"name": "e", "version": "1"}, "at": "5 rps"});
        assert!(
            ExampleWire
                .parse(&asked, &answer.to_string())
                .unwrap_err()
                .contains("asked for")
        );
        assert!(
            ExampleWire
                .parse(&asked, "<html>")
                .unwrap_err()
                .contains("not a")
        );
    }
}
