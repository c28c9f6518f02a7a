//! A stock root: `terraform show -json` over the current state, matched against the
//! declared blocks. Ownership is state membership — an address in state is `owned`,
//! anything else is `unknown` — and never `foreign`: there is no marker to find somebody
//! else's name on.
//!
//! Of each state row only the address, mode, type, provider and `id` are kept. The state's
//! values hold secrets; they are parsed past and dropped inside this module.

use crate::address::{InstanceAddress, Mode, entity_name, split_entity};
use crate::backend::{self, Backend};
use crate::settings::Root;
use crate::tool::{Failure, Runner, unreadable};
use crate::verdict::{
    BlockKind, BlockVerdict, Grouped, InstanceVerdict, PresentInstance, fold_module, fold_resource,
    no_live_counterpart, record, unobserve_root,
};
use chant_lexicon::{DeclaredEntity, Observation, Ownership, UnobservedReason};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// The part of `terraform show -json` this lexicon reads.
#[derive(Debug, Default, Deserialize)]
pub struct ShowDocument {
    #[serde(default)]
    values: Option<StateValues>,
}

#[derive(Debug, Default, Deserialize)]
struct StateValues {
    #[serde(default)]
    root_module: Option<StateModule>,
}

#[derive(Debug, Default, Deserialize)]
struct StateModule {
    #[serde(default)]
    resources: Vec<StateRow>,
    #[serde(default)]
    child_modules: Vec<StateModule>,
}

/// One resource instance. `values` is read for its `id` alone.
#[derive(Debug, Deserialize)]
struct StateRow {
    address: String,
    #[serde(default)]
    mode: String,
    #[serde(default)]
    provider_name: Option<String>,
    #[serde(default)]
    values: IdOnly,
    #[serde(default)]
    tainted: bool,
}

#[derive(Debug, Default, Deserialize)]
struct IdOnly {
    #[serde(default)]
    id: Option<Value>,
}

/// One instance in state, reduced to what may leave this module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateInstance {
    pub address: InstanceAddress,
    pub provider: Option<String>,
    pub id: Option<String>,
    pub tainted: bool,
}

impl ShowDocument {
    /// Every instance of the root module and its child modules, in document order.
    pub fn instances(self) -> Vec<StateInstance> {
        let mut out = Vec::new();
        if let Some(module) = self.values.and_then(|v| v.root_module) {
            walk(module, &mut out);
        }
        out
    }
}

fn walk(module: StateModule, out: &mut Vec<StateInstance>) {
    for row in module.resources {
        let Some(mut address) = InstanceAddress::parse(&row.address) else {
            continue;
        };
        if !row.mode.is_empty() {
            address.mode = Mode::from_state(&row.mode);
        }
        let id = match row.values.id {
            Some(Value::String(s)) => Some(s),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        out.push(StateInstance {
            address,
            provider: row.provider_name,
            id,
            tainted: row.tainted,
        });
    }
    for child in module.child_modules {
        walk(child, out);
    }
}

/// The root's merged `terraform` block, which names its backend.
pub fn settings_block<'a>(
    entities: impl IntoIterator<Item = &'a DeclaredEntity>,
) -> Option<&'a Value> {
    entities
        .into_iter()
        .find(|e| split_entity(&e.name).is_some_and(|(_, a)| a == "terraform"))
        .map(|e| &e.props)
}

/// Open a root's state: check the configured workspace exists, then `show -json`, with
/// `init` when terraform asks for it. The backend is resolved after, so an init's record
/// is what names it.
pub async fn open_state(
    runner: &Runner,
    root: &Root,
    settings_block: Option<&Value>,
) -> Result<(Vec<StateInstance>, Backend, String), (Failure, Backend, String)> {
    let workspace = backend::workspace(runner.settings.workspace.as_deref(), &root.dir);
    let located = || backend::resolve(&root.dir, settings_block, &workspace);
    if runner.settings.workspace.is_some() && workspace != "default" {
        // `show` on a missing workspace creates it in a local backend and reads an empty
        // state; the listing is a read that answers the question instead.
        let list = runner.command(root, &["workspace", "list", "-no-color"], runner.timeout);
        let listed = match runner.run_initialized(root, &list).await {
            Ok(output) => output.stdout,
            Err(failure) => return Err((failure, located(), workspace)),
        };
        let exists = listed
            .lines()
            .map(|l| l.trim().trim_start_matches('*').trim())
            .any(|w| w == workspace);
        if !exists {
            let backend = located();
            let failure = Failure {
                reason: UnobservedReason::NoBinding,
                detail: format!(
                    "workspace `{workspace}` does not exist in {}",
                    backend.describe()
                ),
            };
            return Err((failure, backend, workspace));
        }
    }
    let show = runner.command(root, &["show", "-json", "-no-color"], runner.timeout);
    let output = match runner.run_initialized(root, &show).await {
        Ok(output) => output,
        Err(failure) => return Err((failure, located(), workspace)),
    };
    let backend = located();
    match serde_json::from_str::<ShowDocument>(&output.stdout) {
        Ok(document) => Ok((document.instances(), backend, workspace)),
        Err(e) => Err((unreadable("terraform show -json", &e), backend, workspace)),
    }
}

/// `network: local /p/infra/network/terraform.tfstate (workspace dev)`.
pub fn queried(root: &str, backend: &Backend, workspace: &str) -> String {
    if workspace == "default" {
        format!("{root}: {}", backend.describe())
    } else {
        format!("{root}: {} (workspace {workspace})", backend.describe())
    }
}

/// Observe one stock root.
pub async fn observe(runner: &Runner, root: &Root, entities: &[&DeclaredEntity]) -> Observation {
    match open_state(runner, root, settings_block(entities.iter().copied())).await {
        Ok((instances, backend, workspace)) => {
            let queried = queried(&root.name, &backend, &workspace);
            let mut out = classify(&root.name, entities, instances, &queried);
            if runner.settings.drift {
                out.note(crate::drift::check(runner, root).await.note());
            }
            out
        }
        Err((failure, backend, workspace)) => unobserve_root(
            &root.name,
            entities,
            failure.reason,
            &failure.detail,
            Some(&queried(&root.name, &backend, &workspace)),
        ),
    }
}

/// Match state instances against the declared blocks; undeclared managed addresses
/// come back as owned orphans under their block address.
pub fn classify(
    root: &str,
    entities: &[&DeclaredEntity],
    instances: Vec<StateInstance>,
    queried: &str,
) -> Observation {
    let grouped = Grouped::new(instances.into_iter().map(|instance| {
        let verdict = InstanceVerdict::Present(PresentInstance {
            id: instance.id,
            provider: instance.provider,
            ownership: Ownership::Owned,
            tainted: instance.tainted,
            ..Default::default()
        });
        (instance.address, verdict)
    }));

    let mut out = Observation::new();
    let mut declared: BTreeSet<&str> = BTreeSet::new();
    for entity in entities {
        let Some((_, address)) = split_entity(&entity.name) else {
            continue;
        };
        declared.insert(address);
        match BlockKind::of(&entity.entity_type) {
            BlockKind::Resource | BlockKind::Data => {
                let verdict = match grouped.blocks.get(address) {
                    Some((block, rows)) => fold_resource(root, block, rows),
                    None => BlockVerdict::Absent,
                };
                record(&mut out, entity, verdict, queried);
            }
            BlockKind::Module => {
                let rows = grouped
                    .modules
                    .get(address)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                record(&mut out, entity, fold_module(root, address, rows), queried);
            }
            BlockKind::Other => out.unobserved(&entity.name, no_live_counterpart(entity)),
        }
    }

    for (block, (address, rows)) in &grouped.blocks {
        let covered = declared.contains(block.as_str())
            || address
                .top_module()
                .is_some_and(|m| declared.contains(m.as_str()));
        if covered || address.mode == Mode::Data {
            continue;
        }
        if let BlockVerdict::Present(meta) = fold_resource(root, address, rows) {
            let name = entity_name(root, block);
            out.queried(&name, queried);
            out.present(name, *meta);
        }
    }
    out
}
