//! `chant lifecycle whoami <env>`: one row per lexicon, before anything acts. Never fails
//! the command: a lexicon that cannot say is a row saying why.

use super::{Context, ExitStatus};
use crate::cli::WhoamiArgs;
use crate::engine::Engine;
use crate::error::CliError;
use crate::output::Tone;
use crate::render::table::boxed;
use chant_lexicon::credentials::scrub_credentials;
use chant_lexicon::{HookError, IdentityAnswer, IdentityRequest, Lexicon, UnobservedReason};
use serde::Serialize;
use std::sync::Arc;

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase", tag = "state")]
pub enum IdentityRow {
    Resolved {
        lexicon: String,
        identity: String,
        scope: String,
        source: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        endpoint: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// Whether the target is among the environment's `allowed_targets` (absent: unrestricted).
        #[serde(skip_serializing_if = "Option::is_none")]
        allowed: Option<bool>,
    },
    Unresolved {
        lexicon: String,
        reason: UnobservedReason,
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    NotReported {
        lexicon: String,
    },
}

impl IdentityRow {
    pub fn lexicon(&self) -> &str {
        match self {
            IdentityRow::Resolved { lexicon, .. }
            | IdentityRow::Unresolved { lexicon, .. }
            | IdentityRow::NotReported { lexicon } => lexicon,
        }
    }
}

#[derive(Serialize)]
struct WhoamiReport<'a> {
    schema: &'static str,
    environment: &'a str,
    lexicons: &'a [IdentityRow],
}

pub async fn run(ctx: &Context, args: &WhoamiArgs) -> Result<ExitStatus, CliError> {
    let engine = ctx.engine(None)?;
    let env = engine.project.environment(&args.env)?.to_owned();
    let rows = identities(&engine, &env).await;
    if args.json {
        let report = WhoamiReport {
            schema: "chant.whoami/v1",
            environment: &env,
            lexicons: &rows,
        };
        ctx.output.json(&report);
    } else {
        ctx.output.print(&render(&rows, ctx));
        for row in &rows {
            if let IdentityRow::Resolved {
                lexicon,
                target: Some(target),
                allowed: Some(false),
                ..
            } = row
            {
                ctx.output.error(
                    &format!("{lexicon}: {target} is not among the allowed targets of environment `{env}`"),
                    Some("teardown --execute will refuse it; check the credentials, profile or context in use"),
                );
            }
        }
    }
    Ok(ExitStatus::Success)
}

/// Ask every lexicon, concurrently.
pub async fn identities(engine: &Engine, env: &str) -> Vec<IdentityRow> {
    let asks = engine
        .lexicons
        .iter()
        .map(|lexicon| identity_of(engine, lexicon.clone(), env));
    futures::future::join_all(asks).await
}

pub async fn identity_of(engine: &Engine, lexicon: Arc<dyn Lexicon>, env: &str) -> IdentityRow {
    let name = lexicon.name().to_owned();
    let request = IdentityRequest {
        environment: env.to_owned(),
        region: None,
    };
    let answer = engine.bounded(lexicon.describe_identity(&request)).await;
    match answer.map(IdentityAnswer::sanitized) {
        Ok(IdentityAnswer::Resolved(id)) => {
            let allowed = lexicon.allowed_targets(env).map(|list| {
                id.target
                    .as_ref()
                    .is_some_and(|t| list.iter().any(|allowed| allowed == t))
            });
            IdentityRow::Resolved {
                lexicon: name,
                identity: scrub_credentials(&id.identity),
                scope: scrub_credentials(&id.scope),
                source: scrub_credentials(&id.source),
                endpoint: id.endpoint.map(|e| scrub_credentials(&e)),
                target: id.target,
                allowed,
            }
        }
        Ok(IdentityAnswer::Unresolved { reason, detail }) => IdentityRow::Unresolved {
            lexicon: name,
            reason,
            detail: detail.map(|d| scrub_credentials(&d)),
        },
        Err(HookError::Unsupported { .. }) => IdentityRow::NotReported { lexicon: name },
        Err(HookError::Failed(message) | HookError::Refused(message)) => IdentityRow::Unresolved {
            lexicon: name,
            reason: UnobservedReason::ReadFailed,
            detail: Some(scrub_credentials(&message)),
        },
    }
}

fn render(rows: &[IdentityRow], ctx: &Context) -> String {
    let table_rows = rows
        .iter()
        .map(|row| match row {
            IdentityRow::Resolved {
                lexicon,
                identity,
                scope,
                source,
                endpoint,
                ..
            } => vec![
                lexicon.clone(),
                identity.clone(),
                scope.clone(),
                source.clone(),
                endpoint.clone().unwrap_or_default(),
            ],
            IdentityRow::Unresolved {
                lexicon,
                reason,
                detail,
            } => {
                let mut text = format!("unresolved: {}", reason.text());
                if let Some(detail) = detail {
                    text.push_str(&format!(" — {detail}"));
                }
                vec![
                    lexicon.clone(),
                    ctx.output.paint(&text, Tone::Amber),
                    String::new(),
                    String::new(),
                    String::new(),
                ]
            }
            IdentityRow::NotReported { lexicon } => {
                vec![
                    lexicon.clone(),
                    "not reported".to_owned(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]
            }
        })
        .collect();
    boxed(
        &["LEXICON", "IDENTITY", "SCOPE", "SOURCE", "ENDPOINT"],
        table_rows,
    )
}
