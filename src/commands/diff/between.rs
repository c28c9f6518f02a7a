//! `diff --between A B`: two recorded snapshots, no live read.

use crate::cli::DiffArgs;
use crate::commands::{Context, ExitStatus};
use crate::error::CliError;
use crate::lifecycle::live_diff::{SnapshotDiff, diff_snapshots};
use crate::output::Tone;
use crate::snapshot_file::StoredSnapshot;
use crate::store::snapshot_path;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BetweenReport {
    schema: &'static str,
    environment: String,
    ref_a: String,
    ref_b: String,
    lexicons: BTreeMap<String, SnapshotDiff>,
}

pub async fn run(ctx: &Context, args: &DiffArgs, a: &str, b: &str) -> Result<ExitStatus, CliError> {
    let project = ctx.project()?;
    let env = project.environment(&args.target.env)?.to_owned();
    let store = ctx.require_store(&project)?;
    let lexicons: Vec<String> = match &args.target.lexicon {
        Some(l) => vec![l.clone()],
        None => project.lexicons.clone(),
    };
    let mut report = BetweenReport {
        schema: "chant.snapshot-diff/v1",
        environment: env.clone(),
        ref_a: a.to_owned(),
        ref_b: b.to_owned(),
        lexicons: BTreeMap::new(),
    };
    for lexicon in &lexicons {
        let path = snapshot_path(&env, None, lexicon);
        let read = |rev: &str| -> Result<Option<StoredSnapshot>, CliError> {
            Ok(store
                .read_at(rev, &path)
                .map_err(|e| CliError::message(e.to_string()))?
                .and_then(|t| StoredSnapshot::parse(&t)))
        };
        let (before, after) = (read(a)?, read(b)?);
        if before.is_none() && after.is_none() {
            if !args.json {
                ctx.output
                    .warning(&format!("{lexicon}: not captured at either ref — skipping"));
            }
            continue;
        }
        let diff = diff_snapshots(
            &before.map(|s| s.resources).unwrap_or_default(),
            &after.map(|s| s.resources).unwrap_or_default(),
        );
        report.lexicons.insert(lexicon.clone(), diff);
    }
    if args.json {
        ctx.output.json(&report);
        return Ok(ExitStatus::Success);
    }
    if report.lexicons.is_empty() {
        ctx.output
            .print(&format!("No snapshots for {env} at {a} / {b}."));
        return Ok(ExitStatus::Success);
    }
    ctx.output.print(
        &ctx.output
            .paint(&format!("Snapshot diff — {env}: {a} → {b}"), Tone::Bold),
    );
    let mut changed = false;
    for (lexicon, diff) in &report.lexicons {
        changed |= !diff.added.is_empty() || !diff.removed.is_empty() || !diff.changed.is_empty();
        ctx.output.print(&format!(
            "\n{} — {} added, {} removed, {} changed, {} unchanged",
            ctx.output.paint(lexicon, Tone::Bold),
            diff.added.len(),
            diff.removed.len(),
            diff.changed.len(),
            diff.unchanged.len()
        ));
        for name in &diff.added {
            ctx.output.print(&format!("  + {name}"));
        }
        for name in &diff.removed {
            ctx.output.print(&format!("  - {name}"));
        }
        for d in &diff.changed {
            let paths: Vec<&str> = d.changes.iter().map(|c| c.path.as_str()).collect();
            ctx.output
                .print(&format!("  ~ {} ({})", d.name, paths.join(", ")));
        }
    }
    Ok(ExitStatus::detailed(args.detailed_exitcode, changed, false))
}
