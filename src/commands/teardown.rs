//! `chant lifecycle teardown <env> [lexicon]`: a read-only plan of what this project owns
//! and no longer declares; with `--execute --confirm <env>`, a guarded delete of the
//! candidates a fresh re-read still verifies.

use super::read::{ReadOptions, Thin, read_thin};
use super::whoami::{IdentityRow, identity_of};
use super::{Context, ExitStatus};
use crate::cli::TeardownArgs;
use crate::engine::{Declared, Engine};
use crate::error::CliError;
use crate::lifecycle::teardown::{
    ExcludedCandidate, ExclusionReason, TeardownProposal, TeardownVerification, Unverified,
    plan_teardown, verified_plan, verify_teardown,
};
use crate::output::Tone;
use crate::render::table::aligned;
use chant_lexicon::{
    HookError, TeardownHole, TeardownOutcome, TeardownPlan, TeardownRequest, UnobservedReason,
};
use serde::Serialize;

/// One lexicon's proposal, or why there is none.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LexiconTeardown {
    pub lexicon: String,
    /// `teardown_owned`, or `marker-read` when derived from the thin read's markers.
    pub source: &'static str,
    #[serde(flatten)]
    pub proposal: TeardownProposal,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executed: Option<Execution>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Execution {
    pub verified: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unverified: Vec<Unverified>,
    pub outcome: TeardownOutcome,
}

#[derive(Serialize)]
struct TeardownReport<'a> {
    schema: &'static str,
    environment: &'a str,
    execute: bool,
    lexicons: &'a [LexiconTeardown],
}

pub async fn run(ctx: &Context, args: &TeardownArgs) -> Result<ExitStatus, CliError> {
    let engine = ctx.engine(args.target.lexicon.as_deref())?;
    let env = engine.project.environment(&args.target.env)?.to_owned();
    if args.execute && args.confirm.as_deref() != Some(env.as_str()) {
        return Err(CliError::hinted(
            format!("--confirm must name the environment exactly: `{env}`"),
            format!("chant lifecycle teardown {env} --execute --confirm {env}"),
        ));
    }
    // Teardown reads what it finds by its markers, not the declared entities.
    let declared = engine.declared_for_reads(&env, &[], None).await?;
    if args.execute {
        guard_targets(ctx, &engine, &env).await?;
    }

    let mut results = Vec::new();
    for d in &declared {
        let mut result = propose(&engine, &env, d, ctx).await;
        if args.execute && result.error.is_none() && !result.proposal.candidates.is_empty() {
            match execute(&engine, &env, d, &result.proposal, ctx).await {
                Ok(execution) => result.executed = Some(execution),
                Err(message) => result.error = Some(message),
            }
        }
        results.push(result);
    }

    if args.json {
        let report = TeardownReport {
            schema: "chant.teardown/v1",
            environment: &env,
            execute: args.execute,
            lexicons: &results,
        };
        ctx.output.json(&report);
    } else {
        ctx.output.print(&render(&env, &results, args.execute, ctx));
    }
    let failed = results.iter().any(|r| {
        r.error.is_some()
            || r.executed
                .as_ref()
                .is_some_and(|e| !e.outcome.failed.is_empty())
    });
    let holes = results.iter().any(|r| !r.proposal.holes.is_empty());
    if holes {
        ctx.output
            .warning("some kinds could not be listed — the teardown set is incomplete, not empty");
    }
    if failed {
        for r in results.iter().filter(|r| r.error.is_some()) {
            ctx.output.error(
                &format!("{}: {}", r.lexicon, r.error.clone().unwrap_or_default()),
                None,
            );
        }
        return Ok(ExitStatus::Error);
    }
    Ok(ExitStatus::Success)
}

/// `--execute` acts only where whoami's target is one the environment allows.
async fn guard_targets(ctx: &Context, engine: &Engine, env: &str) -> Result<(), CliError> {
    for lexicon in &engine.lexicons {
        let Some(allowed) = lexicon.allowed_targets(env) else {
            return Err(CliError::hinted(
                format!(
                    "teardown --execute refuses {}: environment `{env}` names no allowed targets",
                    lexicon.name()
                ),
                format!(
                    "add allowed_targets under [environments.{env}.{}] in chant.toml",
                    lexicon.name()
                ),
            ));
        };
        match identity_of(engine, lexicon.clone(), env).await {
            IdentityRow::Resolved {
                target: Some(target),
                ..
            } if allowed.contains(&target) => {}
            IdentityRow::Resolved { target, .. } => {
                return Err(CliError::hinted(
                    format!(
                        "teardown --execute refuses {}: acting as {} is not among the allowed targets ({})",
                        lexicon.name(),
                        target.unwrap_or_else(|| "an unnamed target".to_owned()),
                        allowed.join(", ")
                    ),
                    format!("run `chant lifecycle whoami {env}` to see who chant would act as"),
                ));
            }
            IdentityRow::Unresolved { reason, detail, .. } => {
                return Err(CliError::message(format!(
                    "teardown --execute refuses {}: its identity is unresolved ({}{})",
                    lexicon.name(),
                    reason.text(),
                    detail.map(|d| format!(": {d}")).unwrap_or_default()
                )));
            }
            IdentityRow::NotReported { .. } => {
                return Err(CliError::message(format!(
                    "teardown --execute refuses {}: it cannot report who it would act as",
                    lexicon.name()
                )));
            }
        }
        ctx.output.note(&format!(
            "{}: acting within the allowed targets of `{env}`",
            lexicon.name()
        ));
    }
    Ok(())
}

fn request(engine: &Engine, env: &str, declared: &Declared) -> TeardownRequest {
    TeardownRequest {
        environment: env.to_owned(),
        project: engine.project.context().marker(env),
        declared: declared.names(),
        stack: None,
        region: None,
    }
}

/// A lexicon's own listing, or (without one) the thin read's markers.
async fn listing(
    engine: &Engine,
    env: &str,
    declared: &Declared,
    ctx: &Context,
) -> Result<(TeardownPlan, Vec<ExcludedCandidate>, &'static str), String> {
    match engine
        .bounded(
            declared
                .lexicon
                .teardown_owned(&request(engine, env, declared)),
        )
        .await
    {
        Ok(plan) => Ok((plan, Vec::new(), "teardown_owned")),
        Err(HookError::Unsupported { .. }) => {
            let readings = read_thin(
                engine,
                env,
                std::slice::from_ref(declared),
                ReadOptions::default(),
                &ctx.output,
            )
            .await;
            match readings.into_iter().next().map(|r| r.thin) {
                Some(Thin::Observed(observation)) => {
                    let (plan, excluded) =
                        crate::lifecycle::teardown::teardown_plan_from_observation(&observation);
                    Ok((plan, excluded, "marker-read"))
                }
                Some(Thin::Refused(message)) => Err(format!("refused — {message}")),
                _ => Err("implements neither teardown_owned nor describe_resources".to_owned()),
            }
        }
        Err(HookError::Failed(message) | HookError::Refused(message)) => Err(message),
    }
}

async fn propose(
    engine: &Engine,
    env: &str,
    declared: &Declared,
    ctx: &Context,
) -> LexiconTeardown {
    let lexicon = declared.name().to_owned();
    let project = engine.project.context().marker(env);
    let names = declared.names();
    let planned = match listing(engine, env, declared, ctx).await {
        Ok((plan, mut excluded, source)) => plan_teardown(&plan, &names, &project)
            .map(|mut proposal| {
                excluded.append(&mut proposal.excluded);
                proposal.excluded = excluded;
                (proposal, source)
            })
            .map_err(|cycle| cycle.to_string()),
        Err(message) => Err(message),
    };
    match planned {
        Ok((proposal, source)) => LexiconTeardown {
            lexicon,
            source,
            proposal,
            error: None,
            executed: None,
        },
        Err(message) => LexiconTeardown {
            lexicon: lexicon.clone(),
            source: "teardown_owned",
            proposal: TeardownProposal {
                candidates: Vec::new(),
                holes: vec![TeardownHole {
                    kind: "*".to_owned(),
                    reason: UnobservedReason::ReadFailed,
                    detail: Some(message.clone()),
                }],
                excluded: Vec::new(),
            },
            error: Some(message),
            executed: None,
        },
    }
}

/// Re-read, keep what is still verified, and delete only that.
async fn execute(
    engine: &Engine,
    env: &str,
    declared: &Declared,
    proposal: &TeardownProposal,
    ctx: &Context,
) -> Result<Execution, String> {
    let (fresh, _, _) = listing(engine, env, declared, ctx).await?;
    let project = engine.project.context().marker(env);
    let verification: TeardownVerification =
        verify_teardown(proposal, &fresh, &declared.names(), &project);
    let plan = verified_plan(proposal, &verification);
    let outcome = if plan.candidates.is_empty() {
        TeardownOutcome::default()
    } else {
        engine
            .bounded(
                declared
                    .lexicon
                    .execute_teardown(&request(engine, env, declared), &plan),
            )
            .await
            .map_err(|e| e.to_string())?
    };
    Ok(Execution {
        verified: verification.verified.clone(),
        unverified: verification.unverified,
        outcome,
    })
}

fn render(env: &str, results: &[LexiconTeardown], execute: bool, ctx: &Context) -> String {
    let mut out = Vec::new();
    let total: usize = results.iter().map(|r| r.proposal.candidates.len()).sum();
    let title = if execute {
        format!("Teardown of {env}")
    } else {
        format!("Teardown plan for {env} (read-only)")
    };
    out.push(
        ctx.output
            .paint(&format!("{title}: {total} candidate(s)"), Tone::Bold),
    );
    for r in results {
        out.push(String::new());
        out.push(
            ctx.output
                .paint(&format!("{} ({})", r.lexicon, r.source), Tone::Bold),
        );
        if r.proposal.candidates.is_empty() {
            out.push("  nothing this project owns is undeclared".to_owned());
        } else {
            out.push("  in deletion order:".to_owned());
            let rows = r
                .proposal
                .candidates
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    vec![
                        format!("{}.", i + 1),
                        c.name.clone(),
                        c.entity_type.clone(),
                        c.physical_id.clone().unwrap_or_default(),
                    ]
                })
                .collect();
            out.push(aligned(None, rows, 4));
        }
        for hole in &r.proposal.holes {
            let line = format!(
                "  ? {} — {}{} (not listed: unknown, not safe)",
                hole.kind,
                hole.reason.text(),
                hole.detail
                    .as_ref()
                    .map(|d| format!(": {d}"))
                    .unwrap_or_default()
            );
            out.push(ctx.output.paint(&line, Tone::Amber));
        }
        // Still-declared objects are not candidates by definition; only surprising
        // exclusions are worth a line (JSON keeps them all).
        for excluded in r
            .proposal
            .excluded
            .iter()
            .filter(|e| e.reason != ExclusionReason::Declared)
        {
            out.push(format!(
                "  excluded {} ({}): {}",
                excluded.name, excluded.entity_type, excluded.detail
            ));
        }
        if let Some(execution) = &r.executed {
            for name in &execution.outcome.deleted {
                out.push(ctx.output.paint(&format!("  deleted {name}"), Tone::Green));
            }
            for skipped in &execution.unverified {
                out.push(ctx.output.paint(
                    &format!("  kept {}: {}", skipped.name, skipped.detail),
                    Tone::Amber,
                ));
            }
            for failure in &execution.outcome.failed {
                out.push(ctx.output.paint(
                    &format!("  failed {}: {}", failure.name, failure.detail),
                    Tone::Red,
                ));
            }
        }
    }
    if !execute && total > 0 {
        out.push(String::new());
        out.push(format!(
            "To delete these: chant lifecycle teardown {env} --execute --confirm {env}"
        ));
    }
    out.join("\n")
}
