//! The example engine's wire version, `chant-example-behaviour/v1`
//! (`examples/behaviour-engine/README.md`), for any lexicon: the request is the estate's
//! entities (`name`, `type`, `props`) and edges as the request carries them, the answer
//! is read back through the contract's report builder. Nothing here knows a lexicon's
//! reference syntax; the edges arrive already computed (or not) in the request.

use crate::Wire;
use chant_lexicon::HookError;
use chant_lexicon::behaviour::{
    BehaviourReport, BehaviourRequest, BehaviourUnpredictedReason, EngineStamp, PredictedBehaviour,
    PredictedRate, UnpredictedEntity, behaviour_report,
};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The wire version the example engine speaks.
pub const EXAMPLE_WIRE: &str = "chant-example-behaviour/v1";

/// Renders requests and reads answers in [`EXAMPLE_WIRE`].
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

#[derive(Deserialize)]
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
            "wire": EXAMPLE_WIRE,
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
            serde_json::from_str(text).map_err(|e| format!("not a {EXAMPLE_WIRE} answer: {e}"))?;
        if answer.wire != EXAMPLE_WIRE {
            return Err(format!(
                "wire version `{}`, expected `{EXAMPLE_WIRE}`",
                answer.wire
            ));
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
    use chant_lexicon::behaviour::{Edges, TrafficLevel};
    use chant_lexicon::{DeclaredEntity, ObserveRequest, ProjectMarker};

    fn request() -> BehaviourRequest {
        let entities = vec![
            DeclaredEntity::new("Api", "AWS::Lambda::Function", json!({"MemorySize": 512})),
            DeclaredEntity::new("Jobs", "AWS::SQS::Queue", json!({})),
        ];
        let mut request = BehaviourRequest::new(
            ObserveRequest::new("dev", ProjectMarker::new("shop", "dev"), entities),
            TrafficLevel::new("50 rps"),
            Edges::NotComputed,
        );
        request.failure = Some("one zone lost".to_owned());
        request
    }

    #[test]
    fn the_request_carries_every_entity_the_level_and_the_failure() {
        let body: Value = serde_json::from_str(&ExampleWire.render(&request()).unwrap()).unwrap();
        assert_eq!(body["wire"], EXAMPLE_WIRE);
        assert_eq!(body["estate"], "declared");
        assert_eq!(body["traffic"], "50 rps");
        assert_eq!(body["failure"], "one zone lost");
        assert_eq!(body["entities"][0]["type"], "AWS::Lambda::Function");
        assert_eq!(body["entities"][0]["props"]["MemorySize"], 512);
        assert!(body.get("edges").is_none());
    }

    #[test]
    fn another_wire_version_is_not_an_answer() {
        let answer =
            json!({"wire": "other/v9", "engine": {"name": "e", "version": "1"}, "at": "50 rps"});
        let why = ExampleWire
            .parse(&request(), &answer.to_string())
            .unwrap_err();
        assert!(why.contains("other/v9"), "{why}");
    }

    #[test]
    fn holes_keep_their_reason_detail_and_the_asked_type() {
        let answer = json!({
            "wire": EXAMPLE_WIRE, "engine": {"name": "e", "version": "1"}, "at": "50 rps",
            "unpredicted": {
                "Api": {"reason": "unsupported-kind", "detail": "no model"},
                "Jobs": {"reason": "unsupported-kind"}
            }
        });
        let report = ExampleWire.parse(&request(), &answer.to_string()).unwrap();
        assert!(report.entities.is_empty());
        let api = &report.unpredicted["Api"];
        assert_eq!(api.reason, BehaviourUnpredictedReason::UnsupportedKind);
        assert_eq!(api.detail.as_deref(), Some("no model"));
        assert_eq!(api.entity_type.as_deref(), Some("AWS::Lambda::Function"));
    }
}
