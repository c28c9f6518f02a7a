//! `chant lifecycle log [env]`: the commits of the chant/lifecycle branch, newest first.

use super::{Context, ExitStatus};
use crate::cli::LogArgs;
use crate::error::CliError;

pub async fn run(ctx: &Context, args: &LogArgs) -> Result<ExitStatus, CliError> {
    let project = ctx.project()?;
    if let Some(env) = &args.env {
        project.environment(env)?;
    }
    let store = ctx.require_store(&project)?;
    let mut entries = store.log().map_err(|e| CliError::message(e.to_string()))?;
    if let Some(env) = &args.env {
        // Commit subjects name the environment they wrote: "State snapshot (dev)".
        let tag = format!("({env})");
        entries.retain(|e| e.subject.contains(&tag));
    }
    if entries.is_empty() {
        return Err(CliError::message("No state snapshots found"));
    }
    if args.json {
        ctx.output
            .json(&serde_json::json!({"schema": "chant.log/v1", "entries": entries}));
        return Ok(ExitStatus::Success);
    }
    for entry in entries {
        let date = entry.date.split('T').next().unwrap_or_default();
        ctx.output.print(&format!(
            "{}  {date}  {}",
            &entry.commit[..7.min(entry.commit.len())],
            entry.subject
        ));
    }
    Ok(ExitStatus::Success)
}
