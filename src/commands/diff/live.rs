//! `diff --live`: declared vs live vs the last snapshot, identity and properties.

use crate::cli::DiffArgs;
use crate::commands::read::{
    ReadOptions, THIN_AND_DEEP, Thin, deep_diffs, read_artifacts, read_thin,
    report_reading_problems,
};
use crate::commands::{Context, ExitStatus};
use crate::error::CliError;
use crate::lifecycle::baseline::{
    ObservationBaseline, accept_deviations, deviations_to_record, empty_baseline, parse_baseline,
    serialize_baseline,
};
use crate::lifecycle::deep::diff::DeepDiff;
use crate::lifecycle::live_diff::{LiveDiff, SnapshotDiff, diff_live, diff_snapshots};
use crate::render;
use crate::snapshot_file::StoredSnapshot;
use crate::store::{LifecycleStore, baseline_path, snapshot_path};
use chant_lexicon::{ArtifactMetadata, Observation, ResourceMetadata, UnobservedEntity};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LexiconLive<'r> {
    resources: LiveDiff,
    observed: &'r BTreeMap<String, ResourceMetadata>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    unobserved: &'r BTreeMap<String, UnobservedEntity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deep: Option<DeepDiff>,
    #[serde(skip_serializing_if = "Option::is_none")]
    artifacts: Option<SnapshotDiff>,
    #[serde(skip_serializing_if = "Option::is_none")]
    observed_artifacts: Option<BTreeMap<String, ArtifactMetadata>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'r [String],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LiveReport<'r> {
    schema: &'static str,
    environment: String,
    complete: bool,
    drift: usize,
    unobserved: usize,
    lexicons: BTreeMap<String, LexiconLive<'r>>,
}

pub async fn run(ctx: &Context, args: &DiffArgs) -> Result<ExitStatus, CliError> {
    let engine = ctx.engine(args.target.lexicon.as_deref())?;
    let env = engine.project.environment(&args.target.env)?.to_owned();
    let options = ReadOptions {
        owned: false,
        namespace: args.namespace.as_deref(),
    };
    let declared = engine
        .declared_for_reads(&env, THIN_AND_DEEP, options.namespace)
        .await?;
    let store = ctx.store(&engine.project);
    let baseline = store
        .as_ref()
        .and_then(|s| s.read(&baseline_path(&env)).ok().flatten())
        .and_then(|text| parse_baseline(&text));
    let (readings, mut deep) = tokio::join!(
        read_thin(&engine, &env, &declared, options, &ctx.output),
        deep_diffs(&engine, &env, &declared, options, baseline.as_ref())
    );

    let mut report = LiveReport {
        schema: "chant.diff/v1",
        environment: env.clone(),
        complete: true,
        drift: 0,
        unobserved: 0,
        lexicons: BTreeMap::new(),
    };
    let mut checked = 0;
    let mut human = Vec::new();
    let nothing_observed = Observation::default();
    for reading in &readings {
        let d = &reading.declared;
        let name = d.name().to_owned();
        let previous = store
            .as_ref()
            .and_then(|s| s.read(&snapshot_path(&env, None, &name)).ok().flatten());
        let previous = previous.and_then(|text| StoredSnapshot::parse(&text));
        let artifacts = read_artifacts(&engine, &env, d, &ctx.output).await;
        let observation = match &reading.thin {
            Thin::Observed(observation) => observation,
            Thin::Unsupported if artifacts.is_some() => &nothing_observed,
            Thin::Unsupported => {
                if !args.json {
                    ctx.output.warning(&format!(
                        "{name}: lexicon does not implement describe_resources or list_artifacts — skipping (use without --live for the digest diff)"
                    ));
                }
                continue;
            }
            Thin::Refused(_) => {
                report.complete = false;
                continue;
            }
        };
        checked += 1;
        let resources = diff_live(
            &d.names(),
            observation,
            previous.as_ref().map(|p| &p.resources),
        );
        let deep = deep.remove(&name);
        let artifact_diff = artifacts.as_ref().map(|now| {
            diff_snapshots(
                &previous
                    .as_ref()
                    .map(|p| p.artifacts.clone())
                    .unwrap_or_default(),
                now,
            )
        });

        report.drift += resources.drift_count()
            + deep.as_ref().map_or(0, DeepDiff::drift_count)
            + artifact_diff
                .as_ref()
                .map_or(0, |a| a.added.len() + a.removed.len() + a.changed.len());
        let deep_only_holes = deep.as_ref().map_or(0, |dd| {
            dd.unobserved
                .iter()
                .filter(|u| !observation.unobserved.contains_key(&u.name))
                .count()
        });
        report.unobserved += resources.unobserved.len() + deep_only_holes;

        if !args.json {
            if matches!(reading.thin, Thin::Observed(_)) {
                human.push(render::live::resources(
                    &name,
                    &env,
                    &resources,
                    &ctx.output,
                ));
            }
            if let Some(text) = deep
                .as_ref()
                .and_then(|dd| render::live::properties(&name, dd, &ctx.output))
            {
                human.push(text);
            }
            if let Some(text) = artifact_diff
                .as_ref()
                .and_then(|a| render::live::artifacts(&name, &env, a, &ctx.output))
            {
                human.push(text);
            }
        }
        report.lexicons.insert(
            name,
            LexiconLive {
                resources,
                observed: &observation.resources,
                unobserved: &observation.unobserved,
                deep,
                artifacts: artifact_diff,
                observed_artifacts: artifacts,
                notes: &observation.notes,
            },
        );
    }
    report.complete = report.complete && report.unobserved == 0;

    if checked == 0 {
        return Err(CliError::message(
            "no lexicon in this project implements describe_resources or list_artifacts — nothing to diff with --live",
        ));
    }
    if args.json {
        ctx.output.json(&report);
    } else {
        ctx.output.print(human.join("\n").trim_start_matches('\n'));
        ctx.output.print("");
        ctx.output
            .print(&render::census::render(&render::census::census(&readings)));
    }
    report_reading_problems(&readings, &ctx.output);
    if args.update_baseline {
        update_baseline(ctx, store.as_ref(), &env, baseline, &report, args.json)?;
    }
    if !args.json {
        if report.drift == 0 && report.unobserved > 0 {
            ctx.output.warning(&format!(
                "No drift detected across {checked} lexicon(s), but {} declared entity(ies) could not be observed — that part of the estate is unknown, not clean",
                report.unobserved
            ));
        } else if report.drift == 0 && report.complete {
            ctx.output
                .success(&format!("No drift detected across {checked} lexicon(s)"));
        }
    }
    let status = if readings.iter().any(|r| matches!(r.thin, Thin::Refused(_))) {
        ExitStatus::Error
    } else {
        ExitStatus::detailed(args.detailed_exitcode, report.drift > 0, !report.complete)
    };
    let diffs: Vec<_> = report
        .lexicons
        .into_values()
        .map(|live| (live.resources, live.deep, live.artifacts))
        .collect();
    chant_lexicon::parallel::release((readings, declared, diffs, deep));
    Ok(status)
}

fn update_baseline(
    ctx: &Context,
    store: Option<&LifecycleStore>,
    env: &str,
    existing: Option<ObservationBaseline>,
    report: &LiveReport,
    json: bool,
) -> Result<(), CliError> {
    let now = jiff::Timestamp::now().to_string();
    let mut next = existing.unwrap_or_else(|| empty_baseline(env));
    let mut total = 0;
    for (lexicon, live) in &report.lexicons {
        if let Some(deep) = &live.deep {
            let deviations = deviations_to_record(deep);
            total += deviations.len();
            next = accept_deviations(&next, lexicon, &deviations, &now);
        }
    }
    if total == 0 {
        if !json {
            ctx.output.warning(
                "--update-baseline: nothing to accept — no property-level deviations were reported",
            );
        }
        return Ok(());
    }
    let store = store.ok_or_else(|| {
        CliError::message("--update-baseline: could not write the baseline — the project is not in a git repository")
    })?;
    let path = baseline_path(env);
    store
        .write(
            &[(path.as_str(), serialize_baseline(&next).as_str())],
            &format!("Accepted observation baseline ({env})"),
        )
        .map_err(|e| {
            CliError::message(format!(
                "--update-baseline: could not write the baseline — {e}"
            ))
        })?;
    let whereto = match store.push() {
        Ok(crate::store::PushOutcome::LocalOnly) => " (local only — no remote configured)",
        Ok(_) => " (pushed)",
        Err(e) => {
            return Err(CliError::message(format!(
                "--update-baseline: could not push the baseline — {e}"
            )));
        }
    };
    if !json {
        ctx.output.success(&format!("--update-baseline: accepted {total} deviation(s) into {path} on chant/lifecycle{whereto}"));
    }
    Ok(())
}
