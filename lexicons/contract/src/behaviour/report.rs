//! The report arm and the refusal arm, and the one builder that makes a report: it takes
//! the request, so `at`, the failure and the edge coverage cannot be restated differently,
//! and it refuses an answer that is not an answer to the question asked.

use super::edges::EdgeCoverage;
use super::figures::{PredictedBehaviour, PredictedRate, TrafficLevel, validate_block};
use super::reason::UnpredictedEntity;
use super::refusal::BehaviourRefusal;
use super::request::{BehaviourRequest, Estate};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What the engine states about the run itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineStamp {
    pub engine: String,
    pub version: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportMeta {
    pub engine: String,
    pub version: String,
    /// Copied from the request.
    pub at: TrafficLevel,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    pub estate: Estate,
    pub edge_coverage: EdgeCoverage,
    /// An estate total, only when the engine states one of its own; never chant's sum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<PredictedRate>,
}

/// A run that produced figures. Every asked entity is in exactly one of the two maps.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BehaviourReport {
    pub meta: ReportMeta,
    pub entities: BTreeMap<String, PredictedBehaviour>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub unpredicted: BTreeMap<String, UnpredictedEntity>,
}

impl BehaviourReport {
    pub fn is_partial(&self) -> bool {
        !self.unpredicted.is_empty()
    }
}

/// What `predict_behaviour` returns: figures, or a named refusal. Never both, never neither.
// A report is the common case and is read far more than it is moved.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum BehaviourOutcome {
    Report(BehaviourReport),
    Refusal(BehaviourRefusal),
}

/// Why an answer cannot be a report.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReportError(pub String);

/// Build a report, refusing one that is not an answer to `request`: an asked entity in
/// neither map or in both, a figure or a hole for something nobody asked about, a block
/// at another traffic level, about another failure, or failing [`validate_block`].
pub fn behaviour_report(
    request: &BehaviourRequest,
    stamp: EngineStamp,
    entities: BTreeMap<String, PredictedBehaviour>,
    unpredicted: BTreeMap<String, UnpredictedEntity>,
    total: Option<PredictedRate>,
) -> Result<BehaviourReport, ReportError> {
    let fail = |message: String| Err(ReportError(message));
    if stamp.engine.trim().is_empty() || stamp.version.trim().is_empty() {
        return fail("the answer names no engine or no version".into());
    }
    let asked: BTreeSet<String> = request.entity_names().into_iter().collect();
    for (name, block) in &entities {
        if unpredicted.contains_key(name) {
            return fail(format!("`{name}` is both predicted and unpredicted"));
        }
        if !asked.contains(name) {
            return fail(format!("a figure for `{name}`, which nobody asked about"));
        }
        validate_block(block).map_err(|why| ReportError(format!("`{name}`: {why}")))?;
        if block.at != request.traffic {
            return fail(format!(
                "`{name}` was priced at `{}` in a run asked for `{}`: one run, one level",
                block.at, request.traffic
            ));
        }
        if let Some(failure) = &request.failure {
            match &block.resilience {
                Some(r) if &r.failure == failure => {}
                Some(r) => {
                    return fail(format!(
                        "`{name}` has a verdict about `{}` in a run asked about `{failure}`",
                        r.failure
                    ));
                }
                None => return fail(format!("`{name}` has no verdict under `{failure}`")),
            }
        }
    }
    if let Some(name) = unpredicted.keys().find(|n| !asked.contains(*n)) {
        return fail(format!(
            "`{name}` is unpredicted, and nobody asked about it"
        ));
    }
    let missing: Vec<&str> = asked
        .iter()
        .filter(|n| !entities.contains_key(*n) && !unpredicted.contains_key(*n))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return fail(format!("no verdict at all for {}", missing.join(", ")));
    }
    if let Some(total) = &total
        && (!total.per_hour.is_finite() || total.per_hour < 0.0)
    {
        return fail("the stated total is not a non-negative number".into());
    }
    Ok(BehaviourReport {
        meta: ReportMeta {
            engine: stamp.engine,
            version: stamp.version,
            at: request.traffic.clone(),
            failure: request.failure.clone(),
            estate: request.estate,
            edge_coverage: request.edges.coverage(),
            total,
        },
        entities,
        unpredicted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::behaviour::edges::Edges;
    use crate::behaviour::figures::tests::block;
    use crate::behaviour::figures::{Resilience, ResilienceVerdict};
    use crate::behaviour::reason::BehaviourUnpredictedReason;
    use crate::{DeclaredEntity, ObserveRequest, ProjectMarker};
    use serde_json::json;

    fn request() -> BehaviourRequest {
        let entities = vec![
            DeclaredEntity::new("web", "S", json!({})),
            DeclaredEntity::new("db", "D", json!({})),
        ];
        BehaviourRequest::new(
            ObserveRequest::new("dev", ProjectMarker::new("shop", "dev"), entities),
            TrafficLevel::new("100 rps"),
            Edges::NotComputed,
        )
    }

    fn stamp() -> EngineStamp {
        EngineStamp {
            engine: "acme".into(),
            version: "1".into(),
        }
    }

    fn hole() -> UnpredictedEntity {
        UnpredictedEntity::new(BehaviourUnpredictedReason::UnsupportedKind)
    }

    #[test]
    fn a_total_answer_builds_and_copies_the_request() {
        let report = behaviour_report(
            &request(),
            stamp(),
            BTreeMap::from([("web".to_owned(), block("100 rps"))]),
            BTreeMap::from([("db".to_owned(), hole())]),
            None,
        )
        .unwrap();
        assert_eq!(report.meta.at, TrafficLevel::new("100 rps"));
        assert!(report.is_partial());
        let json = serde_json::to_value(BehaviourOutcome::Report(report)).unwrap();
        assert_eq!(json["outcome"], "report");
        assert_eq!(json["meta"]["edgeCoverage"]["verdict"], "not-computed");
    }

    #[test]
    fn a_block_at_another_level_is_refused() {
        let err = behaviour_report(
            &request(),
            stamp(),
            BTreeMap::from([
                ("web".to_owned(), block("100 rps")),
                ("db".to_owned(), block("50 rps")),
            ]),
            BTreeMap::new(),
            None,
        )
        .unwrap_err();
        assert!(err.0.contains("one run, one level"), "{err}");
    }

    #[test]
    fn totality_is_enforced_both_ways() {
        let neither = behaviour_report(
            &request(),
            stamp(),
            BTreeMap::from([("web".to_owned(), block("100 rps"))]),
            BTreeMap::new(),
            None,
        );
        assert!(neither.unwrap_err().0.contains("no verdict at all for db"));
        let both = behaviour_report(
            &request(),
            stamp(),
            BTreeMap::from([("web".to_owned(), block("100 rps"))]),
            BTreeMap::from([("web".to_owned(), hole()), ("db".to_owned(), hole())]),
            None,
        );
        assert!(both.unwrap_err().0.contains("both"));
        let stranger = behaviour_report(
            &request(),
            stamp(),
            BTreeMap::new(),
            BTreeMap::from([
                ("web".to_owned(), hole()),
                ("db".to_owned(), hole()),
                ("cache".to_owned(), hole()),
            ]),
            None,
        );
        assert!(stranger.unwrap_err().0.contains("nobody asked"));
    }

    #[test]
    fn a_named_failure_needs_a_verdict_about_it() {
        let mut asked = request();
        asked.failure = Some("one zone lost".into());
        let mut web = block("100 rps");
        let answer = |web: PredictedBehaviour| {
            behaviour_report(
                &asked,
                stamp(),
                BTreeMap::from([("web".to_owned(), web)]),
                BTreeMap::from([("db".to_owned(), hole())]),
                None,
            )
        };
        assert!(answer(web.clone()).is_err());
        web.resilience = Some(Resilience {
            failure: "region lost".into(),
            verdict: ResilienceVerdict::Fails,
            note: None,
        });
        assert!(answer(web.clone()).is_err());
        web.resilience.as_mut().unwrap().failure = "one zone lost".into();
        assert_eq!(
            answer(web).unwrap().meta.failure.as_deref(),
            Some("one zone lost")
        );
    }
}
