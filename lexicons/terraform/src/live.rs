//! A live root: `choudoufu live-plan -json` has already split every declared instance four
//! ways (bound, unowned, adoptable, omitted), and this module maps that split onto chant's
//! tri-state without re-deriving anything from the tags. `choudoufu live-ls -estate -json
//! -consistent` answers what the estate owns that nothing declares.
//!
//! The document shapes are in the crate README ("choudoufu documents").

use crate::address::{InstanceAddress, split_entity};
use crate::settings::Root;
use crate::tool::{Failure, Runner, summarize, unreadable};
use crate::verdict::{
    BlockKind, BlockVerdict, Grouped, InstanceVerdict, PresentInstance, fold_module, fold_resource,
    no_live_counterpart, record, unobserve_root,
};
use chant_lexicon::{
    DeclaredEntity, Observation, Ownership, OwnershipMarker, UnobservedEntity, UnobservedReason,
};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The tag naming the estate that owns a resource.
pub const ESTATE_TAG: &str = "tofu-estate";
/// The tag naming the configuration address a resource was created for.
pub const ADDRESS_TAG: &str = "tofu-address";

/// `choudoufu live-plan -json`.
#[derive(Debug, Default, Deserialize)]
pub struct LivePlan {
    pub estate: String,
    #[serde(default)]
    pub bound: Vec<BoundRow>,
    #[serde(default)]
    pub unowned: Vec<UnownedRow>,
    #[serde(default)]
    pub adoptable: Vec<AdoptableRow>,
    #[serde(default)]
    pub omissions: Vec<OmissionRow>,
}

/// A declared instance bound to a live resource.
#[derive(Debug, Deserialize)]
pub struct BoundRow {
    pub address: String,
    #[serde(default)]
    pub provider: Option<String>,
    #[serde(default)]
    pub id: Option<String>,
    /// `marker` (found by the tag sweep) or `derivation` (identity from the configuration).
    pub bound_by: String,
    /// The derived identity, for a derivation bind.
    #[serde(default)]
    pub identity: Option<String>,
    /// The marker tags as read, for a marker bind.
    #[serde(default)]
    pub tags: BTreeMap<String, String>,
}

/// A resource at a declared identity that this estate does not own.
#[derive(Debug, Deserialize)]
pub struct UnownedRow {
    pub address: String,
    #[serde(default)]
    pub provider: Option<String>,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub tags: BTreeMap<String, String>,
}

/// An unmarked resource a tag write would claim.
#[derive(Debug, Deserialize)]
pub struct AdoptableRow {
    pub address: String,
    #[serde(default)]
    pub provider: Option<String>,
    #[serde(default)]
    pub id: Option<String>,
    /// Exactly the `tofu-estate` / `tofu-address` values the claim would write.
    pub claim: BTreeMap<String, String>,
}

/// A declared instance live-plan could not bind, and why.
#[derive(Debug, Deserialize)]
pub struct OmissionRow {
    pub address: String,
    pub reason: String,
    #[serde(default)]
    pub detail: Option<String>,
}

/// `choudoufu live-ls -estate -json -consistent`.
#[derive(Debug, Default, Deserialize)]
pub struct LiveListing {
    pub estate: String,
    #[serde(default)]
    pub consistent: bool,
    #[serde(default)]
    pub resources: Vec<ListedRow>,
    #[serde(default)]
    pub gaps: Vec<GapRow>,
}

#[derive(Debug, Deserialize)]
pub struct ListedRow {
    pub address: String,
    #[serde(rename = "type")]
    pub resource_type: String,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub tags: BTreeMap<String, String>,
}

/// A declared instance the tag listing cannot reach.
#[derive(Debug, Deserialize)]
pub struct GapRow {
    pub address: String,
    #[serde(rename = "type")]
    pub resource_type: String,
    /// `record` or `declaration`: where choudoufu's knowledge of it comes from.
    pub rung: String,
    #[serde(default)]
    pub detail: Option<String>,
}

/// An omission reason, mapped: `ABSENT` is the one that is an observation.
pub fn omission_verdict(row: &OmissionRow) -> InstanceVerdict {
    let reason = match row.reason.as_str() {
        "ABSENT" => return InstanceVerdict::Absent,
        "NO_CREDENTIALS" | "ACCESS_DENIED" | "EXPIRED_CREDENTIALS" => {
            UnobservedReason::NoCredentials
        }
        "UNSUPPORTED_TYPE" => UnobservedReason::UnsupportedKind,
        _ => UnobservedReason::ReadFailed,
    };
    let detail = match row.detail.as_deref().map(summarize) {
        Some(d) if !d.is_empty() => format!("live-plan omitted it: {}: {d}", row.reason),
        _ => format!("live-plan omitted it: {}", row.reason),
    };
    InstanceVerdict::Unobserved { reason, detail }
}

fn marker_of(tags: &BTreeMap<String, String>) -> Option<OwnershipMarker> {
    tags.get(ESTATE_TAG).map(|estate| OwnershipMarker {
        stack: estate.clone(),
        env: None,
    })
}

impl LivePlan {
    /// Every row as (instance address, verdict).
    pub fn verdicts(&self) -> Vec<(String, InstanceVerdict)> {
        let mut out = Vec::new();
        for row in &self.bound {
            let by_marker = row.bound_by == "marker";
            out.push((
                row.address.clone(),
                InstanceVerdict::Present(PresentInstance {
                    id: row.id.clone(),
                    provider: row.provider.clone(),
                    ownership: Ownership::Owned,
                    marker: if by_marker {
                        marker_of(&row.tags).or_else(|| {
                            Some(OwnershipMarker {
                                stack: self.estate.clone(),
                                env: None,
                            })
                        })
                    } else {
                        None
                    },
                    bound_by: (!by_marker).then(|| match &row.identity {
                        Some(identity) => format!("{}: {identity}", row.bound_by),
                        None => row.bound_by.clone(),
                    }),
                    ..Default::default()
                }),
            ));
        }
        for row in &self.unowned {
            out.push((
                row.address.clone(),
                InstanceVerdict::Present(PresentInstance {
                    id: row.id.clone(),
                    provider: row.provider.clone(),
                    ownership: Ownership::Foreign,
                    marker: marker_of(&row.tags),
                    ..Default::default()
                }),
            ));
        }
        for row in &self.adoptable {
            let claim: Map<String, Value> = row
                .claim
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            out.push((
                row.address.clone(),
                InstanceVerdict::Present(PresentInstance {
                    id: row.id.clone(),
                    provider: row.provider.clone(),
                    ownership: Ownership::Unknown,
                    claim: Some(claim),
                    ..Default::default()
                }),
            ));
        }
        for row in &self.omissions {
            out.push((row.address.clone(), omission_verdict(row)));
        }
        out
    }
}

/// `edge: choudoufu live-plan (estate shop-edge)`.
pub fn queried(root: &str, verb: &str, estate: &str) -> String {
    format!("{root}: choudoufu {verb} (estate {estate})")
}

/// Run a choudoufu command and parse its JSON, insisting it answers for `estate`.
async fn read_document<T: for<'de> Deserialize<'de>>(
    runner: &Runner,
    root: &Root,
    args: &[&str],
    estate: &str,
    estate_of: impl Fn(&T) -> &str,
) -> Result<T, Failure> {
    let command = runner.command(root, args, runner.timeout);
    let output = runner.run(&command).await?;
    let document: T = serde_json::from_str(&output.stdout)
        .map_err(|e| unreadable(&format!("choudoufu {}", args[0]), &e))?;
    let answered = estate_of(&document);
    if answered != estate {
        return Err(Failure::read_failed(format!(
            "choudoufu {} answered for estate `{answered}`, chant.toml names `{estate}`",
            args[0]
        )));
    }
    Ok(document)
}

/// Observe one live root.
pub async fn observe(runner: &Runner, root: &Root, entities: &[&DeclaredEntity]) -> Observation {
    let estate = root.estate_for(&runner.environment).unwrap_or_default();
    let queried = queried(&root.name, "live-plan", &estate);
    let mut args = vec!["live-plan".to_owned(), "-json".to_owned()];
    args.extend(runner.var_file_args());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let plan = match read_document(runner, root, &refs, &estate, |p: &LivePlan| &p.estate).await {
        Ok(plan) => plan,
        Err(failure) => {
            return unobserve_root(
                &root.name,
                entities,
                failure.reason,
                &failure.detail,
                Some(&queried),
            );
        }
    };
    classify(&root.name, entities, &plan, &queried)
}

/// Map a live-plan document onto the declared blocks of one root.
pub fn classify(
    root: &str,
    entities: &[&DeclaredEntity],
    plan: &LivePlan,
    queried: &str,
) -> Observation {
    let grouped = Grouped::new(
        plan.verdicts()
            .into_iter()
            .filter_map(|(instance, verdict)| Some((InstanceAddress::parse(&instance)?, verdict))),
    );

    let mut out = Observation::new();
    for entity in entities {
        let Some((_, address)) = split_entity(&entity.name) else {
            continue;
        };
        let verdict = match BlockKind::of(&entity.entity_type) {
            BlockKind::Resource => match grouped.blocks.get(address) {
                Some((block, rows)) => fold_resource(root, block, rows),
                None => no_rows(address),
            },
            BlockKind::Module => match grouped.modules.get(address) {
                Some(rows) => fold_module(root, address, rows),
                None => no_rows(address),
            },
            BlockKind::Data => {
                out.unobserved(
                    &entity.name,
                    UnobservedEntity::new(UnobservedReason::UnsupportedKind)
                        .typed(&entity.entity_type)
                        .detail("live-plan carries prior state for managed resources only; a data block has no row in it"),
                );
                continue;
            }
            BlockKind::Other => {
                out.unobserved(&entity.name, no_live_counterpart(entity));
                continue;
            }
        };
        let verdict = match verdict {
            BlockVerdict::Unobserved { reason, detail } => BlockVerdict::Unobserved {
                reason,
                detail: format!("root {root}: {detail}"),
            },
            other => other,
        };
        record(&mut out, entity, verdict, queried);
    }
    out
}

/// A declared block live-plan said nothing about is a hole, never an absence.
fn no_rows(address: &str) -> BlockVerdict {
    BlockVerdict::Unobserved {
        reason: UnobservedReason::ReadFailed,
        detail: format!("live-plan returned no instance of {address}"),
    }
}

/// What the estate owns that the root no longer declares, and what the listing cannot see.
#[derive(Debug, Default)]
pub struct Orphans {
    /// (block address, row) for every owned, undeclared resource.
    pub owned: Vec<(String, ListedRow)>,
    pub gaps: Vec<GapRow>,
}

/// Run `live-ls` for one root and split it against the declared block addresses.
pub async fn orphans(
    runner: &Runner,
    root: &Root,
    declared: &BTreeSet<String>,
) -> Result<Orphans, Failure> {
    let estate = root.estate_for(&runner.environment).unwrap_or_default();
    let listing: LiveListing = read_document(
        runner,
        root,
        &["live-ls", "-estate", "-json", "-consistent"],
        &estate,
        |l: &LiveListing| &l.estate,
    )
    .await?;
    if !listing.consistent {
        return Err(Failure::read_failed(
            "choudoufu live-ls could not give a consistent listing (the tag index lags writes)",
        ));
    }
    Ok(split_listing(listing, &estate, declared))
}

pub fn split_listing(listing: LiveListing, estate: &str, declared: &BTreeSet<String>) -> Orphans {
    let mut out = Orphans {
        gaps: listing.gaps,
        ..Default::default()
    };
    for row in listing.resources {
        if row.tags.get(ESTATE_TAG).map(String::as_str) != Some(estate) {
            continue;
        }
        let tagged = row.tags.get(ADDRESS_TAG).unwrap_or(&row.address);
        let Some(address) = InstanceAddress::parse(tagged) else {
            continue;
        };
        let block = address.block();
        let covered = declared.contains(&block)
            || address.top_module().is_some_and(|m| declared.contains(&m));
        if !covered {
            out.owned.push((block, row));
        }
    }
    out
}
