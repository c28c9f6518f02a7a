//! `chant import --from <env>`: each lexicon exports its live config and writes it in its
//! own source format, which its declared reader reads back under the same entity names.

use super::{Context, ExitStatus};
use crate::cli::ImportArgs;
use crate::error::CliError;
use crate::output::Tone;
use chant_lexicon::{ExportRequest, HookError, ResourceSelector};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct ImportReport {
    schema: &'static str,
    environment: String,
    written: Vec<PathBuf>,
    skipped: Vec<PathBuf>,
    exported: Vec<Exported>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct Exported {
    lexicon: String,
    resources: usize,
}

pub async fn run(ctx: &Context, args: &ImportArgs) -> Result<ExitStatus, CliError> {
    let engine = ctx.engine(args.lexicon.as_deref())?;
    let env = engine.project.environment(&args.from)?.to_owned();
    ctx.output.warning(
        "Live import may emit sensitive values (keys, tokens, passwords) into generated source. Review before committing.",
    );
    let selector = ResourceSelector {
        entity_type: args.entity_type.clone(),
        name: args.name.clone(),
    };
    let mut report = ImportReport {
        schema: "chant.import/v1",
        environment: env.clone(),
        ..Default::default()
    };
    let exporting: Vec<_> = engine.lexicons.iter().collect();
    let several = exporting.len() > 1;
    for lexicon in exporting {
        let name = lexicon.name().to_owned();
        let request = ExportRequest {
            environment: env.clone(),
            project: engine.project.context().marker(&env),
            selector: selector.clone(),
            owned: args.owned,
            verbatim: args.verbatim,
            stack: None,
            region: None,
        };
        let template = match engine.bounded(lexicon.export_resources(&request)).await {
            Ok(template) => template,
            Err(HookError::Unsupported { .. }) => {
                if args.lexicon.is_some() {
                    return Err(CliError::message(format!(
                        "lexicon `{name}` does not support live export"
                    )));
                }
                continue;
            }
            Err(error) => {
                report
                    .warnings
                    .push(format!("{name}: live export failed — {error}"));
                continue;
            }
        };
        if template.is_empty() {
            continue;
        }
        report.exported.push(Exported {
            lexicon: name.clone(),
            resources: template.len(),
        });
        let files = lexicon
            .generate_source(&template)
            .map_err(|e| CliError::message(format!("{name}: {e}")))?;
        let base = match &args.output {
            Some(dir) if several => dir.join(&name),
            Some(dir) => dir.clone(),
            None => engine.project.root.join("imported").join(&name),
        };
        for file in files {
            let path = base.join(&file.path);
            if path.exists() && !args.force {
                report.warnings.push(format!(
                    "File {} already exists, skipping (use --force to overwrite)",
                    path.display()
                ));
                report.skipped.push(path);
                continue;
            }
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    CliError::message(format!("cannot create {}: {e}", parent.display()))
                })?;
            }
            std::fs::write(&path, file.content)
                .map_err(|e| CliError::message(format!("cannot write {}: {e}", path.display())))?;
            report.written.push(path);
        }
    }

    for warning in &report.warnings {
        ctx.output.warning(warning);
    }
    if report.exported.is_empty() {
        return Err(CliError::message(format!(
            "No resources exported from environment \"{env}\"."
        )));
    }
    if args.json {
        ctx.output.json(&report);
    } else {
        for exported in &report.exported {
            ctx.output.print(&format!(
                "Exported {} resource(s) from {}",
                exported.resources, exported.lexicon
            ));
        }
        if report.written.is_empty() {
            ctx.output.print("No files generated.");
        } else {
            ctx.output
                .print(&ctx.output.paint("Generated files:", Tone::Green));
            for path in &report.written {
                ctx.output.print(&format!("  {}", path.display()));
            }
        }
    }
    Ok(ExitStatus::Success)
}
