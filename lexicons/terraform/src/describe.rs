//! `describe_resources`: every root read on its own and the answers merged, so a root
//! whose read failed never un-observes a root that answered.

use crate::address::split_entity;
use crate::settings::{Mode, Root, Settings};
use crate::tool::Runner;
use crate::{live, stock};
use chant_lexicon::{
    DeclaredEntity, Observation, ObserveRequest, Ownership, UnobservedEntity, UnobservedReason,
    bounded_concurrently,
};

/// Read every configured root and merge.
pub async fn describe(
    settings: &Settings,
    runner: &Runner,
    request: &ObserveRequest,
    pool: usize,
) -> Observation {
    let mut parts = Vec::new();
    let mut unrooted = Observation::new();
    for entity in request.entities.iter() {
        let root = split_entity(&entity.name).and_then(|(r, _)| settings.root(r));
        if root.is_none() {
            unrooted.unobserved(
                &entity.name,
                UnobservedEntity::new(UnobservedReason::NoBinding)
                    .typed(&entity.entity_type)
                    .detail("no terraform root of that name is configured"),
            );
        }
    }
    parts.push(unrooted);
    // Owned work items: a borrowed one trips rustc's higher-ranked inference inside the
    // `Send` future async_trait builds.
    let work: Vec<(Root, Vec<DeclaredEntity>)> = settings
        .roots
        .iter()
        .map(|root| {
            let entities = entities_of(root, &request.entities)
                .into_iter()
                .cloned()
                .collect();
            (root.clone(), entities)
        })
        .collect();
    let reads = bounded_concurrently(work, pool, |(root, entities)| async move {
        let entities: Vec<&DeclaredEntity> = entities.iter().collect();
        observe_root(runner, &root, &entities).await
    })
    .await;
    parts.extend(reads);
    let mut merged = Observation::merge(parts);
    if request.owned {
        withhold_unowned(&mut merged, request);
    }
    merged
}

/// The declared entities of one root.
pub fn entities_of<'a>(root: &Root, entities: &'a [DeclaredEntity]) -> Vec<&'a DeclaredEntity> {
    entities
        .iter()
        .filter(|e| split_entity(&e.name).is_some_and(|(r, _)| r == root.name))
        .collect()
}

async fn observe_root(runner: &Runner, root: &Root, entities: &[&DeclaredEntity]) -> Observation {
    match root.mode {
        Mode::Stock => stock::observe(runner, root, entities).await,
        Mode::Live => live::observe(runner, root, entities).await,
    }
}

/// `--owned`: a declared entity that is present but not owned becomes `filtered`; an
/// undeclared one is dropped.
fn withhold_unowned(observation: &mut Observation, request: &ObserveRequest) {
    let withheld: Vec<String> = observation
        .resources
        .iter()
        .filter(|(_, meta)| meta.ownership() != Ownership::Owned)
        .map(|(name, _)| name.clone())
        .collect();
    for name in withheld {
        let Some(meta) = observation.resources.remove(&name) else {
            continue;
        };
        if request.entity(&name).is_some() {
            observation.unobserved(
                &name,
                UnobservedEntity::new(UnobservedReason::Filtered)
                    .typed(&meta.entity_type)
                    .detail(format!("present, {}", meta.ownership())),
            );
        } else {
            observation.queried.remove(&name);
        }
    }
}
