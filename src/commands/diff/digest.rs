//! `diff` without `--live`: the declarations against the digest the last snapshot recorded.

use crate::cli::DiffArgs;
use crate::commands::{Context, ExitStatus};
use crate::engine::declared_digest;
use crate::error::CliError;
use crate::lifecycle::digest::{BuildDigest, DigestDiff, diff_lexicon_digests};
use crate::output::Tone;
use crate::render::table::aligned;
use crate::snapshot_file::StoredSnapshot;
use crate::store::snapshot_path;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DigestReport {
    schema: &'static str,
    environment: String,
    lexicons: BTreeMap<String, DigestDiff>,
}

pub async fn run(ctx: &Context, args: &DiffArgs) -> Result<ExitStatus, CliError> {
    let engine = ctx.engine(args.target.lexicon.as_deref())?;
    let env = engine.project.environment(&args.target.env)?.to_owned();
    let declared = engine.declared().await?;
    let store = ctx.store(&engine.project);
    let current = declared_digest(&declared);
    let mut report = DigestReport {
        schema: "chant.digest-diff/v1",
        environment: env.clone(),
        lexicons: BTreeMap::new(),
    };
    for d in &declared {
        let name = d.name();
        let previous: Option<BuildDigest> = store
            .as_ref()
            .and_then(|s| s.read(&snapshot_path(&env, None, name)).ok().flatten())
            .and_then(|text| StoredSnapshot::parse(&text))
            .and_then(|s| s.digest)
            .and_then(|v| serde_json::from_value(v).ok());
        report.lexicons.insert(
            name.to_owned(),
            diff_lexicon_digests(&current, previous.as_ref(), name),
        );
    }
    let changed = report
        .lexicons
        .values()
        .any(|d| !d.added.is_empty() || !d.removed.is_empty() || !d.changed.is_empty());
    if args.json {
        ctx.output.json(&report);
        return Ok(ExitStatus::detailed(args.detailed_exitcode, changed, false));
    }
    for (lexicon, diff) in &report.lexicons {
        ctx.output
            .print(&format!("\n{}", ctx.output.paint(lexicon, Tone::Bold)));
        let type_of = |n: &str| {
            current
                .resources
                .get(n)
                .map(|r| r.entity_type.clone())
                .unwrap_or_default()
        };
        let mut rows = Vec::new();
        for (status, names) in [
            ("added", &diff.added),
            ("changed", &diff.changed),
            ("removed", &diff.removed),
            ("unchanged", &diff.unchanged),
        ] {
            rows.extend(
                names
                    .iter()
                    .map(|n| vec![n.clone(), status.to_owned(), type_of(n)]),
            );
        }
        ctx.output
            .print(&aligned(Some(&["RESOURCE", "STATUS", "TYPE"]), rows, 0));
        for change in &diff.lexicon_version_changes {
            ctx.output.print(&format!(
                "\nlexicon {}: {} → {}",
                change.lexicon,
                change.previous.as_deref().unwrap_or("(absent)"),
                change.current.as_deref().unwrap_or("(absent)")
            ));
        }
    }
    if store.is_none() {
        ctx.output.note(
            "the project is not in a git repository: there is no recorded snapshot to compare with",
        );
    }
    Ok(ExitStatus::detailed(args.detailed_exitcode, changed, false))
}
