//! `chant lifecycle predict <env> --traffic <level> [--failure <event>] [--live]`: what the
//! declared estate (and with --live, the live one) would cost and how it would hold up at
//! a traffic level, from the behaviour engine each lexicon resolves. chant computes no
//! figure: a refusal is red and says what to set or check, a partial answer is amber and
//! names each reason, and a delta across figures that are not comparable is marked.

use super::read::{ReadOptions, read_thin, report_reading_problems};
use super::{Context, ExitStatus};
use crate::cli::PredictArgs;
use crate::engine::{Declared, Engine};
use crate::error::CliError;
use crate::render::behaviour as render;
use chant_lexicon::behaviour::{
    BehaviourOutcome, BehaviourRefusal, BehaviourRequest, Edges, Estate, FigureMismatch,
    PredictedRate, TrafficLevel, compare_figures, rebuild_edges,
};
use chant_lexicon::{DeclaredEntity, HookError, Observation, UnobservedReason};
use serde::Serialize;
use serde_json::Value;

/// How one lexicon's prediction ended.
// A report is the common case; boxing it would only add noise where it is matched.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase", tag = "state")]
pub enum Side {
    Answered(BehaviourOutcome),
    /// The lexicon has no `predict_behaviour`.
    Unsupported,
    /// A whole-lexicon failure (a credential in the request, a broken lexicon): every
    /// asked entity is unpredicted, read-failed.
    Failed {
        message: String,
        unpredicted: Vec<String>,
    },
}

impl Side {
    fn refusal(&self) -> Option<&BehaviourRefusal> {
        match self {
            Side::Answered(BehaviourOutcome::Refusal(r)) => Some(r),
            _ => None,
        }
    }

    fn is_partial(&self) -> bool {
        matches!(self, Side::Answered(BehaviourOutcome::Report(r)) if r.is_partial())
    }
}

/// One entity's declared and live cost, and whether the difference may be read as one.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeltaRow {
    pub entity: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<PredictedRate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<PredictedRate>,
    /// Live minus declared, per hour; absent when a side is missing or the currencies differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_hour_delta: Option<f64>,
    /// Empty: a plain difference. Otherwise every axis the two figures disagree on, and
    /// the delta must be shown marked.
    pub mismatches: Vec<FigureMismatch>,
    /// Why a side has no figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LexiconPrediction {
    pub lexicon: String,
    pub declared: Side,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<Side>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub delta: Vec<DeltaRow>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PredictReport<'a> {
    schema: &'static str,
    environment: &'a str,
    traffic: &'a TrafficLevel,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<&'a str>,
    /// False when anything was refused, failed or left unpredicted.
    complete: bool,
    lexicons: &'a [LexiconPrediction],
}

pub async fn run(ctx: &Context, args: &PredictArgs) -> Result<ExitStatus, CliError> {
    let traffic = args.traffic.trim();
    if traffic.is_empty() {
        return Err(CliError::hinted(
            "--traffic is empty",
            "name the level to predict at, as the engine reads it: --traffic \"100 rps\"",
        ));
    }
    let traffic = TrafficLevel::new(traffic);
    let failure = args
        .failure
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty());
    let engine = ctx.engine(args.target.lexicon.as_deref())?;
    let env = engine.project.environment(&args.target.env)?.to_owned();
    let declared = engine.declared().await?;
    let (engine, env) = (&engine, env.as_str());

    let asks = declared.iter().map(|d| {
        let request = request_for(engine, env, d, &traffic, failure);
        async move { settle(engine, d, request).await }
    });
    let declared_sides = futures::future::join_all(asks).await;

    let mut predictions: Vec<LexiconPrediction> = declared
        .iter()
        .zip(declared_sides)
        .map(|(d, side)| LexiconPrediction {
            lexicon: d.name().to_owned(),
            declared: side,
            live: None,
            delta: Vec::new(),
        })
        .collect();

    if args.live {
        let readings = read_thin(engine, env, &declared, ReadOptions::default(), &ctx.output).await;
        let asks = readings.iter().map(|reading| {
            let traffic = &traffic;
            let engine = &engine;
            let env = &env;
            async move {
                let observation = reading.observation()?;
                let d = &reading.declared;
                let mut request = request_for(engine, env, d, traffic, failure);
                request.estate = Estate::Live;
                request.observe.entities = std::sync::Arc::new(live_entities(observation));
                request.edges = match d.lexicon.reference_catalog() {
                    Some(catalog) => rebuild_edges(&catalog, &observation.resources),
                    None => Edges::NotComputed,
                };
                let d_live = Declared {
                    lexicon: d.lexicon.clone(),
                    entities: request.observe.entities.clone(),
                };
                Some(settle(engine, &d_live, request).await)
            }
        });
        let live_sides = futures::future::join_all(asks).await;
        for ((prediction, reading), live) in predictions.iter_mut().zip(&readings).zip(live_sides) {
            let live = live.unwrap_or_else(|| Side::Failed {
                message: "the live estate could not be read".to_owned(),
                unpredicted: reading.declared.names(),
            });
            prediction.delta = delta(
                &reading.declared,
                &prediction.declared,
                &live,
                reading.observation(),
            );
            prediction.live = Some(live);
        }
        if !args.json {
            report_reading_problems(&readings, &ctx.output);
        }
    }

    let supported: Vec<&LexiconPrediction> = predictions
        .iter()
        .filter(|p| !matches!(p.declared, Side::Unsupported))
        .collect();
    if supported.is_empty() {
        return Err(CliError::hinted(
            "no lexicon in this project implements predict_behaviour — nothing to predict",
            "behaviour prediction needs a lexicon that can send its estate to an engine",
        ));
    }
    let sides = || {
        predictions
            .iter()
            .flat_map(|p| std::iter::once(&p.declared).chain(p.live.iter()))
    };
    let refused = sides().any(|s| s.refusal().is_some() || matches!(s, Side::Failed { .. }));
    let partial = sides().any(Side::is_partial);

    if args.json {
        let report = PredictReport {
            schema: "chant.predict/v1",
            environment: env,
            traffic: &traffic,
            failure,
            complete: !refused && !partial,
            lexicons: &predictions,
        };
        ctx.output.json(&report);
    } else {
        render::print(env, &traffic, &predictions, &ctx.output);
    }
    Ok(if refused {
        ExitStatus::Error
    } else {
        ExitStatus::Success
    })
}

fn request_for(
    engine: &Engine,
    env: &str,
    declared: &Declared,
    traffic: &TrafficLevel,
    failure: Option<&str>,
) -> BehaviourRequest {
    let mut request = BehaviourRequest::new(
        engine.observe_request(env, declared),
        traffic.clone(),
        declared.lexicon.declared_edges(&declared.entities),
    );
    request.failure = failure.map(str::to_owned);
    request
}

/// What was observed live, in the shape a request carries: attributes stand for props.
fn live_entities(observation: &Observation) -> Vec<DeclaredEntity> {
    observation
        .resources
        .iter()
        .map(|(name, meta)| {
            DeclaredEntity::new(
                name.clone(),
                meta.entity_type.clone(),
                Value::Object(meta.attributes.clone()),
            )
        })
        .collect()
}

async fn settle(engine: &Engine, declared: &Declared, request: BehaviourRequest) -> Side {
    match engine
        .bounded(declared.lexicon.predict_behaviour(&request))
        .await
    {
        Ok(outcome) => Side::Answered(outcome),
        Err(HookError::Unsupported { .. }) => Side::Unsupported,
        Err(HookError::Failed(message) | HookError::Refused(message)) => Side::Failed {
            message,
            unpredicted: request.entity_names(),
        },
    }
}

fn delta(
    declared: &Declared,
    declared_side: &Side,
    live_side: &Side,
    observation: Option<&Observation>,
) -> Vec<DeltaRow> {
    let figures = |side: &Side| match side {
        Side::Answered(BehaviourOutcome::Report(report)) => Some(report.entities.clone()),
        _ => None,
    };
    let (Some(before), Some(after)) = (figures(declared_side), figures(live_side)) else {
        return Vec::new();
    };
    let mut names: Vec<String> = declared.names();
    for name in after.keys() {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
        .into_iter()
        .map(|name| {
            let (a, b) = (before.get(&name), after.get(&name));
            let mismatches = match (a, b) {
                (Some(a), Some(b)) => compare_figures(a, b),
                _ => Vec::new(),
            };
            let per_hour_delta = match (a, b) {
                (Some(a), Some(b)) if !mismatches.contains(&FigureMismatch::MixedCurrency) => {
                    Some(((b.cost.per_hour - a.cost.per_hour) * 10_000.0).round() / 10_000.0)
                }
                _ => None,
            };
            let missing = match (a, b) {
                (Some(_), Some(_)) => None,
                (None, _) => Some("no declared figure".to_owned()),
                (Some(_), None) => Some(live_gap(&name, live_side, observation)),
            };
            DeltaRow {
                declared: a.map(|f| f.cost.clone()),
                live: b.map(|f| f.cost.clone()),
                entity: name,
                per_hour_delta,
                mismatches,
                missing,
            }
        })
        .collect()
}

fn live_gap(name: &str, live: &Side, observation: Option<&Observation>) -> String {
    if let Some(observation) = observation {
        if let Some(entry) = observation.unobserved.get(name) {
            return format!("not observed live: {}", entry.reason.text());
        }
        if !observation.resources.contains_key(name) {
            return "absent live".to_owned();
        }
    }
    match live {
        Side::Answered(BehaviourOutcome::Report(report)) => report
            .unpredicted
            .get(name)
            .map(|u| format!("live unpredicted: {}", u.reason.text()))
            .unwrap_or_else(|| "no live figure".to_owned()),
        _ => UnobservedReason::ReadFailed.text().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chant_lexicon::behaviour::{
        Basis, BehaviourReport, EngineStamp, Headroom, PredictedBehaviour, Provenance,
        behaviour_report,
    };
    use chant_lexicon::{ObserveRequest, ProjectMarker, ResourceMetadata};
    use std::collections::BTreeMap;
    use std::sync::Arc;

    struct Nobody;

    #[async_trait::async_trait]
    impl chant_lexicon::Lexicon for Nobody {
        fn name(&self) -> &str {
            "nobody"
        }
        fn version(&self) -> &str {
            "0"
        }
        async fn declared(&self) -> Result<Vec<DeclaredEntity>, chant_lexicon::SourceDiagnostic> {
            Ok(Vec::new())
        }
    }

    fn figure(per_hour: f64, currency: &str, basis: Basis) -> PredictedBehaviour {
        PredictedBehaviour {
            at: TrafficLevel::new("10 rps"),
            cost: PredictedRate::per_hour(per_hour, currency),
            headroom: Headroom {
                cpu: Some(0.5),
                latency: None,
            },
            error_rate: 0.0,
            resilience: None,
            right_size: None,
            provenance: Provenance {
                engine: "e".into(),
                version: "1".into(),
                tolerance: "±10%".into(),
                basis,
            },
        }
    }

    fn report(names: &[&str], figures: Vec<(&str, PredictedBehaviour)>) -> Side {
        let entities: Vec<DeclaredEntity> = names
            .iter()
            .map(|n| DeclaredEntity::new(*n, "T", Value::Null))
            .collect();
        let request = BehaviourRequest::new(
            ObserveRequest::new("dev", ProjectMarker::new("s", "dev"), entities),
            TrafficLevel::new("10 rps"),
            Edges::NotComputed,
        );
        let predicted: BTreeMap<String, PredictedBehaviour> = figures
            .into_iter()
            .map(|(n, f)| (n.to_owned(), f))
            .collect();
        let holes = names
            .iter()
            .filter(|n| !predicted.contains_key(**n))
            .map(|n| {
                (
                    n.to_string(),
                    chant_lexicon::behaviour::UnpredictedEntity::new(
                        chant_lexicon::behaviour::BehaviourUnpredictedReason::UnsupportedKind,
                    ),
                )
            })
            .collect();
        let built: BehaviourReport = behaviour_report(
            &request,
            EngineStamp {
                engine: "e".into(),
                version: "1".into(),
            },
            predicted,
            holes,
            None,
        )
        .unwrap();
        Side::Answered(BehaviourOutcome::Report(built))
    }

    #[test]
    fn a_delta_is_marked_on_every_axis_and_never_subtracts_currencies() {
        let declared = Declared {
            lexicon: Arc::new(Nobody),
            entities: Arc::new(
                ["web", "db", "cache", "gone"]
                    .iter()
                    .map(|n| DeclaredEntity::new(*n, "T", Value::Null))
                    .collect(),
            ),
        };
        let before = report(
            &["web", "db", "cache", "gone"],
            vec![
                ("web", figure(1.0, "USD", Basis::Modeled)),
                ("db", figure(2.0, "USD", Basis::Modeled)),
                ("cache", figure(3.0, "USD", Basis::Modeled)),
                ("gone", figure(4.0, "USD", Basis::Modeled)),
            ],
        );
        let after = report(
            &["web", "db", "cache"],
            vec![
                ("web", figure(1.5, "USD", Basis::Validated)),
                ("db", figure(2.0, "EUR", Basis::Modeled)),
                ("cache", figure(3.25, "USD", Basis::Modeled)),
            ],
        );
        let mut observed = Observation::new();
        for name in ["web", "db", "cache"] {
            observed.present(name, ResourceMetadata::new("T", "OK"));
        }
        let rows = delta(&declared, &before, &after, Some(&observed));
        let row = |name: &str| rows.iter().find(|r| r.entity == name).unwrap();
        assert_eq!(row("web").mismatches, vec![FigureMismatch::MixedBasis]);
        assert_eq!(row("web").per_hour_delta, Some(0.5));
        assert_eq!(row("db").mismatches, vec![FigureMismatch::MixedCurrency]);
        assert_eq!(row("db").per_hour_delta, None);
        assert!(row("cache").mismatches.is_empty());
        assert_eq!(row("cache").per_hour_delta, Some(0.25));
        assert_eq!(row("gone").missing.as_deref(), Some("absent live"));
    }
}
