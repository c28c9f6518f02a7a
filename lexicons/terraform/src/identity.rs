//! `describe_identity`: where each root's answer comes from — the backend type and
//! address, the workspace, the root — resolved through the same `show` path the reads use,
//! so whoami can never name a backend the reads do not reach. Terraform has no principal of
//! its own to report; the backend is what a wrong-environment read would get wrong.

use crate::declared::read_root;
use crate::settings::{Mode, Settings};
use crate::stock::{open_state, settings_block};
use crate::tool::{Failure, Runner};
use chant_lexicon::{Identity, IdentityAnswer, UnobservedReason};

/// One root's line.
struct Resolved {
    identity: String,
    scope: String,
    endpoint: String,
}

pub async fn describe_identity(settings: &Settings, runner: &Runner) -> IdentityAnswer {
    if settings.roots.is_empty() {
        return IdentityAnswer::unresolved(
            UnobservedReason::NoBinding,
            "[lexicons.terraform] names no roots",
        );
    }
    let mut resolved = Vec::new();
    let mut failures: Vec<(String, Failure)> = Vec::new();
    for root in &settings.roots {
        match root.mode {
            Mode::Live => {
                let estate = root.estate_for(&runner.environment).unwrap_or_default();
                resolved.push(Resolved {
                    identity: format!("{}: choudoufu estate {estate}", root.name),
                    scope: format!("{} (estate {estate})", root.name),
                    endpoint: format!("estate {estate}"),
                });
            }
            Mode::Stock => {
                let declared = match read_root(root) {
                    Ok(entities) => entities,
                    Err(diagnostic) => {
                        failures.push((
                            root.name.clone(),
                            Failure::read_failed(diagnostic.to_string()),
                        ));
                        continue;
                    }
                };
                match open_state(runner, root, settings_block(&declared)).await {
                    Ok((_, backend, workspace)) => resolved.push(Resolved {
                        identity: format!("{}: {}", root.name, backend.describe()),
                        scope: format!("{} (workspace {workspace})", root.name),
                        endpoint: backend.address,
                    }),
                    Err((failure, _, _)) => failures.push((root.name.clone(), failure)),
                }
            }
        }
    }
    if let Some((_, first)) = failures.first() {
        let detail = failures
            .iter()
            .map(|(root, f)| format!("root {root}: {}", f.detail))
            .collect::<Vec<_>>()
            .join("; ");
        return IdentityAnswer::unresolved(first.reason, detail);
    }
    let join = |f: fn(&Resolved) -> &str| resolved.iter().map(f).collect::<Vec<_>>().join("; ");
    let workspace_source = if runner.settings.workspace.is_some() {
        format!("[environments.{}.terraform] workspace", runner.environment)
    } else {
        "the root's selected workspace".to_owned()
    };
    IdentityAnswer::Resolved(Identity {
        identity: join(|r| &r.identity),
        scope: join(|r| &r.scope),
        source: format!("[lexicons.terraform] roots, {workspace_source}"),
        endpoint: Some(join(|r| &r.endpoint)),
        target: None,
    })
}
