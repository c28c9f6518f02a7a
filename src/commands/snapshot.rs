//! `chant lifecycle snapshot <env> [lexicon] [--deep] [--ambient]`: record what is live on
//! the chant/lifecycle branch, secrets masked, one commit for the whole run.

use super::read::{
    Deep, ReadOptions, THIN_AND_DEEP, Thin, read_artifacts, read_deep, read_thin,
    report_reading_problems,
};
use super::{Context, ExitStatus};
use crate::cli::SnapshotArgs;
use crate::engine::declared_digest;
use crate::engine::{Declared, Engine};
use crate::error::CliError;
use crate::lifecycle::canonical::{canonical_value, to_canonical_file};
use crate::lifecycle::mask::{mask_deep_resource, mask_metadata};
use crate::snapshot_file::{SCHEMA, StoredSnapshot};
use crate::store::{StoreError, snapshot_path};
use chant_lexicon::observation::format_unobserved;
use chant_lexicon::{AmbientRequest, DependencyRequest, HookError, Observation, ResourceMetadata};
use std::collections::BTreeMap;
use std::sync::Arc;

pub async fn run(ctx: &Context, args: &SnapshotArgs) -> Result<ExitStatus, CliError> {
    let engine = ctx.engine(args.target.lexicon.as_deref())?;
    let env = engine.project.environment(&args.target.env)?.to_owned();
    let store = ctx.require_store(&engine.project)?;
    let declared = engine.declared_for_reads(&env, THIN_AND_DEEP, None).await?;
    let readings = read_thin(
        &engine,
        &env,
        &declared,
        ReadOptions::default(),
        &ctx.output,
    )
    .await;
    report_reading_problems(&readings, &ctx.output);

    let commit = store.head_commit().ok().flatten();
    let timestamp = jiff::Timestamp::now().to_string();
    let digest = declared_digest(&declared);

    let mut files = Vec::new();
    let mut saved = Vec::new();
    let mut errors = 0;
    for reading in &readings {
        let d = &reading.declared;
        let name = d.name();
        let Thin::Observed(observation) = &reading.thin else {
            if let Thin::Unsupported = reading.thin {
                ctx.output.warning(&format!(
                    "{name}: lexicon does not implement describe_resources — not snapshotted"
                ));
            }
            continue;
        };
        let resources = valid_resources(name, observation, ctx);
        let artifacts = read_artifacts(&engine, &env, d, &ctx.output)
            .await
            .unwrap_or_default();
        for (entity, entry) in &observation.unobserved {
            ctx.output.warning(&format!(
                "{name}: not observed — {}",
                format_unobserved(entity, entry)
            ));
        }
        if resources.is_empty() && artifacts.is_empty() {
            errors += 1;
            let message = if observation.unobserved.is_empty() {
                format!("{name}: no valid resources or artifacts returned")
            } else {
                format!(
                    "{name}: nothing observed — {} declared entity(ies) could not be read (see warnings); not snapshotting an unread environment as empty",
                    observation.unobserved.len()
                )
            };
            ctx.output.error(&message, None);
            continue;
        }
        let mut snapshot = StoredSnapshot {
            schema: SCHEMA.to_owned(),
            lexicon: name.to_owned(),
            environment: env.clone(),
            stack: None,
            commit: commit.clone(),
            timestamp: timestamp.clone(),
            lexicon_version: Some(d.lexicon.version().to_owned()),
            resources,
            unobserved: observation.unobserved.clone(),
            artifacts,
            depth: None,
            properties: BTreeMap::new(),
            digest: canonical_value(&digest.only(name)).ok(),
        };
        if args.deep {
            record_deep(&engine, &env, d, &mut snapshot, ctx).await;
        }
        record_dependencies(&engine, &env, d, &mut snapshot, ctx).await;
        if args.ambient {
            record_ambient(&engine, &env, d, &mut snapshot, ctx).await;
        }
        let count = snapshot.resources.len();
        let value = canonical_value(&snapshot).map_err(|e| CliError::message(e.to_string()))?;
        files.push((snapshot_path(&env, None, name), to_canonical_file(&value)));
        saved.push(format!("{name}({count})"));
    }

    if files.is_empty() {
        return Err(CliError::message(format!(
            "nothing was snapshotted for environment `{env}`"
        )));
    }
    store
        .write(&files, &format!("State snapshot ({env})"))
        .map_err(|e| CliError::message(format!("could not write the snapshot: {e}")))?;
    let pushed = match store.push() {
        Ok(outcome) => outcome,
        Err(error @ StoreError::Stale { .. }) => {
            return Err(CliError::hinted(
                format!("{error} (env: {env})."),
                format!("Pull and retry: chant lifecycle snapshot {env}"),
            ));
        }
        Err(error) => {
            return Err(CliError::message(format!(
                "the snapshot was written locally but not pushed: {error}"
            )));
        }
    };
    let whereto = match pushed {
        crate::store::PushOutcome::LocalOnly => " (local only — no remote configured)",
        _ => "",
    };
    ctx.output.success(&format!(
        "Snapshot saved to chant/lifecycle{whereto} ({})",
        saved.join(" ")
    ));
    Ok(if errors > 0 {
        ExitStatus::Error
    } else {
        ExitStatus::Success
    })
}

/// Drop entries a snapshot cannot use, and mask secrets by key name.
fn valid_resources(
    lexicon: &str,
    observation: &Observation,
    ctx: &Context,
) -> BTreeMap<String, ResourceMetadata> {
    let mut out = BTreeMap::new();
    let mut dropped = 0;
    for (name, meta) in &observation.resources {
        if meta.entity_type.is_empty() || meta.status.is_empty() {
            ctx.output.warning(&format!(
                "{lexicon}: dropped {name}: missing type or status"
            ));
            dropped += 1;
            continue;
        }
        out.insert(name.clone(), mask_metadata(meta));
    }
    if dropped > 0 {
        ctx.output
            .warning(&format!("{lexicon}: dropped {dropped} invalid resource(s)"));
    }
    out
}

async fn record_deep(
    engine: &Engine,
    env: &str,
    d: &Declared,
    snapshot: &mut StoredSnapshot,
    ctx: &Context,
) {
    let name = d.name();
    match read_deep(engine, env, d, ReadOptions::default()).await {
        Deep::Unsupported => ctx.output.warning(&format!(
            "{name}: no deep reader — recording an identity snapshot; property questions cannot be answered from it"
        )),
        Deep::Observed(deep) => {
            for (entity, entry) in &deep.unobserved {
                ctx.output.warning(&format!("{name}: not observed deeply — {}", format_unobserved(entity, entry)));
            }
            if deep.resources.is_empty() {
                ctx.output.warning(&format!("{name}: deep read returned no properties — recording an identity snapshot"));
                return;
            }
            let hooks = d.lexicon.normalization_hooks();
            snapshot.properties =
                deep.resources.iter().map(|(k, v)| (k.clone(), mask_deep_resource(v, &hooks))).collect();
            snapshot.depth = Some("deep".to_owned());
        }
    }
}

async fn record_ambient(
    engine: &Engine,
    env: &str,
    d: &Declared,
    snapshot: &mut StoredSnapshot,
    ctx: &Context,
) {
    let mut kinds: Vec<String> = d.entities.iter().map(|e| e.entity_type.clone()).collect();
    kinds.sort();
    kinds.dedup();
    let request = AmbientRequest {
        environment: env.to_owned(),
        kinds,
        observed: Arc::new(snapshot.resources.clone()),
        stack: None,
        region: None,
    };
    match engine.bounded(d.lexicon.observe_ambient(&request)).await {
        Ok(ambient) => {
            for (name, mut meta) in ambient {
                if snapshot.resources.contains_key(&name) {
                    continue;
                }
                meta.ambient = true;
                snapshot.resources.insert(name, mask_metadata(&meta));
            }
        }
        Err(HookError::Unsupported { .. }) => {}
        Err(error) => ctx.output.warning(&format!(
            "{}: ambient resources not read — {error}",
            d.name()
        )),
    }
}

/// What the estate relies on and does not declare. A dependency with no referrer is
/// unbounded discovery: dropped, with a warning.
async fn record_dependencies(
    engine: &Engine,
    env: &str,
    d: &Declared,
    snapshot: &mut StoredSnapshot,
    ctx: &Context,
) {
    let request = DependencyRequest {
        environment: env.to_owned(),
        entities: d.entities.clone(),
        observed: Arc::new(snapshot.resources.clone()),
        stack: None,
        region: None,
    };
    match engine
        .bounded(d.lexicon.observe_dependencies(&request))
        .await
    {
        Ok(dependencies) => {
            for (name, meta) in dependencies {
                if meta.referenced_by.is_empty() {
                    ctx.output.warning(&format!(
                        "{}: dropped dependency {name}: it names no declared entity that references it",
                        d.name()
                    ));
                } else {
                    snapshot
                        .resources
                        .entry(name)
                        .or_insert_with(|| mask_metadata(&meta));
                }
            }
        }
        Err(HookError::Unsupported { .. }) => {}
        Err(error) => ctx
            .output
            .warning(&format!("{}: dependencies not read — {error}", d.name())),
    }
}
