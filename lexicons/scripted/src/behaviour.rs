//! The scripted lexicon's part of `predict_behaviour`: its reference syntax,
//! `{"ref": "<entity>"}` anywhere inside props, and the declared edges it gives. The
//! estate and edges are rendered in the example engine's wire version
//! (`examples/behaviour-engine/README.md`) by `chant_behaviour::ExampleWire`, shared with
//! every lexicon that speaks it, and sent through whichever transport the engine variable
//! calls for.

use chant_lexicon::DeclaredEntity;
use chant_lexicon::behaviour::{Edges, edges_from_props};
use serde_json::Value;

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

#[cfg(test)]
mod tests {
    use super::*;
    use chant_behaviour::{EXAMPLE_WIRE as WIRE, ExampleWire, Wire};
    use chant_lexicon::behaviour::{BehaviourRequest, BehaviourUnpredictedReason, TrafficLevel};
    use chant_lexicon::{ObserveRequest, ProjectMarker};
    use serde_json::json;

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
