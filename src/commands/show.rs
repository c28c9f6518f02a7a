//! `chant lifecycle show <env> [lexicon]`: print recorded snapshots.

use super::{Context, ExitStatus};
use crate::cli::ShowArgs;
use crate::error::CliError;
use crate::output::Tone;
use crate::render::table::boxed;
use crate::snapshot_file::StoredSnapshot;
use crate::store::snapshot_path;
use serde_json::json;

pub async fn run(ctx: &Context, args: &ShowArgs) -> Result<ExitStatus, CliError> {
    let project = ctx.project()?;
    let env = project.environment(&args.target.env)?.to_owned();
    let store = ctx.require_store(&project)?;
    let read_error = |e: crate::store::StoreError| CliError::message(e.to_string());
    let files: Vec<String> = match &args.target.lexicon {
        Some(lexicon) => vec![format!("{lexicon}.json")],
        None => store.list(&env).map_err(read_error)?,
    };
    let mut snapshots = Vec::new();
    for file in files {
        let key = file.trim_end_matches(".json");
        let Some(text) = store
            .read(&snapshot_path(&env, None, key))
            .map_err(read_error)?
        else {
            continue;
        };
        // Other files live beside snapshots (the accepted baseline): not snapshots.
        if let Some(snapshot) = StoredSnapshot::parse(&text) {
            snapshots.push((key.to_owned(), snapshot));
        }
    }
    if snapshots.is_empty() {
        return Err(match &args.target.lexicon {
            Some(lexicon) => CliError::message(format!("No snapshot found for {env}/{lexicon}")),
            None => CliError::message(format!("No snapshots found for environment \"{env}\"")),
        });
    }
    if args.json {
        let value = json!({"schema": "chant.show/v1", "environment": env, "snapshots": snapshots.iter().map(|(k, s)| (k.clone(), s)).collect::<std::collections::BTreeMap<_, _>>()});
        ctx.output.json(&value);
        return Ok(ExitStatus::Success);
    }
    for (key, snapshot) in &snapshots {
        let depth = match snapshot.depth.as_deref() {
            Some("deep") => format!("deep ({} property trees)", snapshot.properties.len()),
            _ => "identity only".to_owned(),
        };
        let title = format!("{env}/{key}");
        ctx.output.print(&format!(
            "\n{} — {} resources — {depth} — {}",
            ctx.output.paint(&title, Tone::Bold),
            snapshot.resources.len(),
            snapshot.timestamp
        ));
        let rows = snapshot
            .resources
            .iter()
            .map(|(name, meta)| {
                vec![
                    name.clone(),
                    meta.entity_type.clone(),
                    meta.physical_id.clone().unwrap_or_default(),
                    meta.status.clone(),
                    meta.ownership().to_string(),
                ]
            })
            .collect();
        ctx.output.print(&boxed(
            &["RESOURCE", "TYPE", "PHYSICAL ID", "STATUS", "OWNERSHIP"],
            rows,
        ));
        if !snapshot.unobserved.is_empty() {
            ctx.output.print(&ctx.output.paint(
                &format!(
                    "{} declared entity(ies) were not observed when this was recorded",
                    snapshot.unobserved.len()
                ),
                Tone::Amber,
            ));
        }
    }
    Ok(ExitStatus::Success)
}
