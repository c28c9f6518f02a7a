//! `observe_ambient`: what a live root's estate owns that its configuration has stopped
//! declaring — the same set choudoufu's own default policy would delete on the next apply.
//! Stock roots report their undeclared state addresses through `describe_resources`.

use crate::address::{InstanceAddress, RESOURCE_KIND, entity_name};
use crate::live::{self, ListedRow};
use crate::settings::{Mode, Root, Settings};
use crate::tool::Runner;
use chant_lexicon::{
    AmbientRequest, HookError, HookResult, Ownership, OwnershipMarker, ResourceMetadata,
};
use std::collections::{BTreeMap, BTreeSet};

/// The block addresses a root declares.
pub fn declared_addresses(root: &Root) -> HookResult<BTreeSet<String>> {
    let entities =
        crate::declared::read_root(root).map_err(|d| HookError::Failed(d.to_string()))?;
    Ok(entities
        .iter()
        .filter_map(|e| crate::address::split_entity(&e.name).map(|(_, a)| a.to_owned()))
        .collect())
}

/// An owned orphan as chant reports it.
pub fn orphan_metadata(root: &str, estate: &str, block: &str, row: &ListedRow) -> ResourceMetadata {
    let address = InstanceAddress::parse(block);
    let entity_type = address
        .as_ref()
        .map(InstanceAddress::entity_type)
        .unwrap_or_else(|| format!("{RESOURCE_KIND}::{}", row.resource_type));
    let mut meta = ResourceMetadata::new(entity_type, "PRESENT")
        .with_ownership(Ownership::Owned)
        .with_marker(Some(OwnershipMarker {
            stack: estate.to_owned(),
            env: None,
        }))
        .with_attribute("address", block)
        .with_attribute("type", row.resource_type.clone())
        .with_attribute("mode", "managed")
        .with_attribute("root", root);
    meta.physical_id = row.id.clone();
    meta
}

pub async fn observe_ambient(
    settings: &Settings,
    runner: &Runner,
    request: &AmbientRequest,
) -> HookResult<BTreeMap<String, ResourceMetadata>> {
    let mut out = BTreeMap::new();
    let mut failed = Vec::new();
    for root in settings.roots.iter().filter(|r| r.mode == Mode::Live) {
        let declared = declared_addresses(root)?;
        let estate = root.estate_for(&runner.environment).unwrap_or_default();
        match live::orphans(runner, root, &declared).await {
            Ok(orphans) => {
                for (block, row) in orphans.owned {
                    let name = entity_name(&root.name, &block);
                    let mut meta = orphan_metadata(&root.name, &estate, &block, &row);
                    if request.observed.contains_key(&name)
                        || !wanted(&request.kinds, &meta.entity_type)
                    {
                        continue;
                    }
                    meta.ambient = true;
                    out.insert(name, meta);
                }
            }
            Err(failure) => failed.push(format!("root {}: {}", root.name, failure.detail)),
        }
    }
    if failed.is_empty() {
        Ok(out)
    } else {
        Err(HookError::Failed(failed.join("; ")))
    }
}

/// A kind matches its own type and every type under it (`Terraform::Resource`).
fn wanted(kinds: &[String], entity_type: &str) -> bool {
    kinds.is_empty()
        || kinds
            .iter()
            .any(|k| entity_type == k || entity_type.starts_with(&format!("{k}::")))
}
