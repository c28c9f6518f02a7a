//! `chant lifecycle plan <env> [lexicon]`: strictly read-only.

use super::read::{
    ReadOptions, Reading, THIN_AND_DEEP, Thin, deep_diffs, read_thin, report_reading_problems,
};
use super::{Context, ExitStatus, previous_resources};
use crate::cli::{PlanArgs, ReportFormat};
use crate::engine::Engine;
use crate::error::CliError;
use crate::lifecycle::change_set::{
    Action, ChangeSetEntry, PlanInput, build_change_set, gitlab_mr_report, summarize,
};
use crate::lifecycle::deep::diff::property_drift;
use crate::render::census::{CensusRow, census};
use crate::render::{self};
use chant_lexicon::disruption::settle_verdicts;
use chant_lexicon::{AttributeChange, DisruptionQuery, DisruptionRequest};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanReport {
    pub schema: &'static str,
    pub env: String,
    /// False when something declared could not be observed or a lexicon refused.
    pub complete: bool,
    pub summary: BTreeMap<String, usize>,
    pub entries: Vec<ChangeSetEntry>,
    pub census: Vec<CensusRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<LexiconMessage>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<LexiconMessage>,
}

#[derive(Clone, Serialize)]
pub struct LexiconMessage {
    pub lexicon: String,
    pub message: String,
}

pub async fn run(ctx: &Context, args: &PlanArgs) -> Result<ExitStatus, CliError> {
    let engine = ctx.engine(args.target.lexicon.as_deref())?;
    let env = engine.project.environment(&args.target.env)?.to_owned();
    let options = ReadOptions {
        owned: args.owned,
        namespace: args.namespace.as_deref(),
    };
    let declared = engine
        .declared_for_reads(&env, THIN_AND_DEEP, options.namespace)
        .await?;
    let store = ctx.store(&engine.project);
    // The thin and the deep reads are independent: run them side by side.
    let (readings, deep) = tokio::join!(
        read_thin(&engine, &env, &declared, options, &ctx.output),
        deep_diffs(&engine, &env, &declared, options, None)
    );
    let drift = deep
        .iter()
        .map(|(lexicon, diff)| (lexicon.clone(), property_drift(diff)))
        .collect();
    let mut report = build_report(&env, &readings, &drift, |lexicon| {
        previous_resources(store.as_ref(), &env, lexicon)
    });
    classify_updates(&engine, &env, &mut report.entries).await;

    let checked = readings
        .iter()
        .filter(|r| !matches!(r.thin, Thin::Unsupported))
        .count();
    if !args.json && args.report.is_none() {
        for skipped in &report.skipped {
            ctx.output.warning(&format!(
                "{skipped}: lexicon does not implement describe_resources — skipping (no declared axis to plan against)"
            ));
        }
    }
    if checked == 0 {
        return Err(CliError::message(
            "no lexicon in this project implements describe_resources — nothing to plan",
        ));
    }

    match args.report {
        Some(ReportFormat::GitlabMr) => {
            let mr = gitlab_mr_report(&report.entries);
            ctx.output
                .print(&serde_json::to_string(&mr).unwrap_or_default());
        }
        None if args.json => ctx.output.json(&report),
        None => {
            ctx.output
                .print(&render::plan::render(&env, &report.entries, &ctx.output));
            ctx.output.print("");
            ctx.output.print(&render::census::render(&report.census));
        }
    }
    report_reading_problems(&readings, &ctx.output);
    let unobserved = report.summary.get("unobserved").copied().unwrap_or(0);
    if unobserved > 0 {
        ctx.output.warning(&format!(
            "{unobserved} declared entity(ies) could not be observed — no create/update/delete is proposed for them. This plan is incomplete, not clean."
        ));
    }
    if !report.refused.is_empty() {
        return Ok(ExitStatus::Error);
    }
    let changes = report.entries.iter().any(|e| e.action.is_change());
    Ok(ExitStatus::detailed(
        args.detailed_exitcode,
        changes,
        !report.complete,
    ))
}

pub fn build_report(
    env: &str,
    readings: &[Reading],
    drift: &BTreeMap<String, BTreeMap<String, Vec<AttributeChange>>>,
    previous: impl Fn(&str) -> Option<BTreeMap<String, chant_lexicon::ResourceMetadata>>,
) -> PlanReport {
    let mut entries = Vec::new();
    let mut skipped = Vec::new();
    let mut refused = Vec::new();
    let mut notes = Vec::new();
    for reading in readings {
        let lexicon = reading.declared.name().to_owned();
        match &reading.thin {
            Thin::Unsupported => skipped.push(lexicon),
            Thin::Refused(message) => {
                refused.push(LexiconMessage {
                    lexicon: lexicon.clone(),
                    message: message.clone(),
                });
                let all = chant_lexicon::Observation::all_unobserved(
                    reading
                        .declared
                        .entities
                        .iter()
                        .map(|e| (e.name.as_str(), Some(e.entity_type.as_str()))),
                    chant_lexicon::UnobservedReason::ReadFailed,
                    Some(&format!("refused: {message}")),
                );
                let names = reading.declared.names();
                entries.extend(build_change_set(&PlanInput {
                    lexicon: &lexicon,
                    declared: &names,
                    now: &all,
                    then: None,
                    property_drift: None,
                }));
            }
            Thin::Observed(observation) => {
                let names = reading.declared.names();
                let then = previous(&lexicon);
                entries.extend(build_change_set(&PlanInput {
                    lexicon: &lexicon,
                    declared: &names,
                    now: observation,
                    then: then.as_ref(),
                    property_drift: drift.get(&lexicon),
                }));
                fill_declared_types(&mut entries, &reading.declared);
                notes.extend(observation.notes.iter().map(|n| LexiconMessage {
                    lexicon: lexicon.clone(),
                    message: n.clone(),
                }));
            }
        }
    }
    entries.sort_by(|a, b| {
        (a.name.as_str(), a.lexicon.as_str()).cmp(&(b.name.as_str(), b.lexicon.as_str()))
    });
    let summary = summarize(&entries)
        .into_iter()
        .map(|(a, n)| (a.as_str().to_owned(), n))
        .collect();
    let complete = refused.is_empty() && !entries.iter().any(|e| e.action == Action::Unobserved);
    PlanReport {
        schema: "chant.plan/v1",
        env: env.to_owned(),
        complete,
        summary,
        entries,
        census: census(readings),
        skipped,
        refused,
        notes,
    }
}

/// A create has no live reading to take its type from: use the declaration's.
fn fill_declared_types(entries: &mut [ChangeSetEntry], declared: &crate::engine::Declared) {
    for entry in entries
        .iter_mut()
        .filter(|e| e.entity_type.is_none() && e.lexicon == declared.name())
    {
        entry.entity_type = declared
            .entities
            .iter()
            .find(|d| d.name == entry.name)
            .map(|d| d.entity_type.clone());
    }
}

/// Ask each lexicon what its updates cost. No answer, a failed call or an unknown word is
/// `unknown`: in-place is only ever a deliberate claim.
async fn classify_updates(engine: &Engine, env: &str, entries: &mut [ChangeSetEntry]) {
    for lexicon in &engine.lexicons {
        let changes: Vec<DisruptionQuery> = entries
            .iter()
            .filter(|e| e.action == Action::Update && e.lexicon == lexicon.name())
            .map(|e| DisruptionQuery {
                name: e.name.clone(),
                entity_type: e.entity_type.clone(),
                deltas: e.deltas.clone(),
            })
            .collect();
        if changes.is_empty() {
            continue;
        }
        let request = DisruptionRequest {
            environment: env.to_owned(),
            changes: changes.clone(),
        };
        let answer = engine
            .bounded(lexicon.classify_disruption(&request))
            .await
            .ok();
        let verdicts = settle_verdicts(&changes, answer);
        for entry in entries
            .iter_mut()
            .filter(|e| e.action == Action::Update && e.lexicon == lexicon.name())
        {
            entry.disruption = verdicts.get(&entry.name).cloned();
        }
    }
}
