//! `teardown_owned`: on a live root, the owned orphans `live-ls` lists, each carrying the
//! `tofu-estate` marker exactly as read; the listing's gaps, and any root it could not
//! list, are holes. A stock root has no marker to verify a delete against, so it is a hole
//! too: state membership names what terraform manages, not what chant may remove.
//! Nothing here writes: the estate belongs to terraform.

use crate::address::entity_name;
use crate::ambient::{declared_addresses, orphan_metadata};
use crate::live;
use crate::settings::{Mode, Settings};
use crate::tool::Runner;
use chant_lexicon::{
    HookResult, TeardownCandidate, TeardownHole, TeardownPlan, TeardownRequest, UnobservedReason,
};

pub async fn teardown_owned(
    settings: &Settings,
    runner: &Runner,
    request: &TeardownRequest,
) -> HookResult<TeardownPlan> {
    let mut plan = TeardownPlan::default();
    for root in &settings.roots {
        if root.mode == Mode::Stock {
            plan.holes.push(TeardownHole {
                kind: "Terraform::Root".to_owned(),
                reason: UnobservedReason::UnsupportedKind,
                detail: Some(format!(
                    "root {}: a stock root carries no ownership marker; its state names what terraform manages, not what chant may delete",
                    root.name
                )),
            });
            continue;
        }
        let declared = declared_addresses(root)?;
        let estate = root.estate_for(&runner.environment).unwrap_or_default();
        let queried = live::queried(&root.name, "live-ls", &estate);
        match live::orphans(runner, root, &declared).await {
            Ok(orphans) => {
                for (block, row) in orphans.owned {
                    let name = entity_name(&root.name, &block);
                    if request.declared.contains(&name) {
                        continue;
                    }
                    let meta = orphan_metadata(&root.name, &estate, &block, &row);
                    plan.candidates.push(TeardownCandidate {
                        name,
                        entity_type: meta.entity_type,
                        physical_id: meta.physical_id,
                        marker: meta
                            .marker
                            .unwrap_or_else(|| chant_lexicon::OwnershipMarker {
                                stack: estate.clone(),
                                env: None,
                            }),
                        depends_on: Vec::new(),
                        queried: Some(queried.clone()),
                    });
                }
                for gap in orphans.gaps {
                    let detail = match gap.detail {
                        Some(d) => format!(
                            "root {}: {} cannot be reached by the tag listing ({} rung): {d}",
                            root.name, gap.address, gap.rung
                        ),
                        None => format!(
                            "root {}: {} cannot be reached by the tag listing ({} rung)",
                            root.name, gap.address, gap.rung
                        ),
                    };
                    plan.holes.push(TeardownHole {
                        kind: format!("{}::{}", crate::address::RESOURCE_KIND, gap.resource_type),
                        reason: UnobservedReason::UnsupportedKind,
                        detail: Some(detail),
                    });
                }
            }
            Err(failure) => plan.holes.push(TeardownHole {
                kind: crate::address::RESOURCE_KIND.to_owned(),
                reason: failure.reason,
                detail: Some(format!("root {}: {}", root.name, failure.detail)),
            }),
        }
    }
    Ok(plan)
}
