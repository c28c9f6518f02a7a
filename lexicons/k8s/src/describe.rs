//! `describe_resources`: the tri-state per declared object, the undeclared objects the
//! LISTs returned (so `plan` can propose deletes for owned ones), and runtime children.

use crate::kinds::{KindInfo, entity_type};
use crate::naming::{self, Nameable};
use crate::owned_lists::owned_beside_gets;
use crate::ownership::verdict;
use crate::reader::{EntityRead, Read, Reads, read_targets, resolve_targets};
use crate::session::Session;
use crate::status::{attributes, status_word};
use crate::sweep::{Owners, makes_children, sweep, sweeps};
use chant_lexicon::parallel::{off_task, release};
use chant_lexicon::{
    DeclaredEntity, Observation, ObserveRequest, OwnerChain, Ownership, ProjectMarker,
    ResourceMetadata, UnobservedEntity, UnobservedReason,
};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

pub async fn describe(session: &Session, request: &ObserveRequest, pool: usize) -> Observation {
    let entities: &[DeclaredEntity] = &request.entities;
    let targets = resolve_targets(
        session,
        &request.entities,
        request.namespace.as_deref(),
        pool,
    )
    .await;
    // Namespaces holding a declared workload are swept for its runtime children while
    // the declared objects are read.
    let sweep_namespaces: BTreeSet<String> = entities
        .iter()
        .zip(targets.iter())
        .filter(|(e, _)| makes_children(&e.entity_type))
        .filter_map(|(_, t)| t.as_ref().ok()?.namespace.clone())
        .collect();
    let (mut reads, (swept, mut notes), (owned, owned_notes)) = tokio::join!(
        read_targets(session, &targets, pool, |i, read| thin_answer(
            &entities[i],
            read,
            request
        )),
        sweep(session, &sweep_namespaces, &targets, pool),
        owned_beside_gets(
            session,
            &targets,
            &request.project,
            |t| sweeps(t, &sweep_namespaces),
            pool
        )
    );
    reads.listed.extend(owned);
    notes.extend(owned_notes);
    // CPU work over every answer: off this task, so that the command's other reads (it
    // shares the task with them) go on meanwhile.
    let request = request.clone();
    off_task(move || {
        let out = observation(&request, &mut reads, &swept, notes);
        release((reads, swept));
        out
    })
    .await
}

/// The observation of every declared object read, and of what the reads found that nothing
/// declares.
fn observation(
    request: &ObserveRequest,
    reads: &mut Reads<ThinAnswer>,
    swept: &[crate::reader::Listed],
    notes: Vec<String>,
) -> Observation {
    let mut out = Observation::new();
    let mut uids = Vec::new();
    let mut queried = Vec::new();
    let mut present = Vec::new();
    for (index, (entity, answer)) in request
        .entities
        .iter()
        .zip(std::mem::take(&mut reads.entities))
        .enumerate()
    {
        if let Some(q) = answer.queried {
            queried.push((entity.name.clone(), q));
        }
        if let Some(uid) = answer.uid {
            uids.push((uid, index));
        }
        match answer.verdict {
            None => {}
            Some(Ok(meta)) => present.push((entity.name.clone(), meta)),
            Some(Err(hole)) => out.unobserved(&entity.name, hole),
        }
    }
    // Built whole (entity names are unique): faster than one insert at a time.
    out.queried = queried.into_iter().collect();
    out.resources = present.into_iter().collect();
    for note in notes {
        out.note(note);
    }
    report_undeclared(&mut out, request, reads, swept, uids);
    out
}

/// One declared object's thin answer, worked out as soon as its read answered.
struct ThinAnswer {
    queried: Option<String>,
    /// The live object's uid, by which runtime children find their declared owner.
    uid: Option<String>,
    /// Present, or why not observed; `None` when absent.
    verdict: Option<Result<ResourceMetadata, UnobservedEntity>>,
}

fn thin_answer(entity: &DeclaredEntity, read: EntityRead, request: &ObserveRequest) -> ThinAnswer {
    let hole = |reason, detail: String| Some(Err(read.hole(entity, reason, detail)));
    let (uid, verdict) = match &read.read {
        Read::Absent => (None, None),
        Read::Unobserved(reason, detail) => (None, hole(*reason, detail.clone())),
        Read::Present(object) => {
            let uid = object["metadata"]["uid"].as_str().map(str::to_owned);
            let meta = metadata(object, &entity.entity_type, &request.project);
            let verdict = if request.owned && meta.ownership() != Ownership::Owned {
                hole(
                    UnobservedReason::Filtered,
                    format!(
                        "the live object carries no marker of stack \"{}\" env \"{}\" and --owned was requested",
                        request.project.stack, request.project.env
                    ),
                )
            } else {
                Some(Ok(meta))
            };
            (uid, verdict)
        }
    };
    ThinAnswer {
        queried: read.queried,
        uid,
        verdict,
    }
}

/// Objects the LISTs and the sweep returned that nothing declares: orphans of declared
/// kinds (keyed by entity name) and runtime children (keyed `<Kind>/<ns>/<name>`).
/// `uids`: the uid of each declared object read, with the entity's index.
fn report_undeclared(
    out: &mut Observation,
    request: &ObserveRequest,
    reads: &Reads<ThinAnswer>,
    swept: &[crate::reader::Listed],
    uids: Vec<(String, usize)>,
) {
    let children = swept.iter().any(|l| !l.items.is_empty());
    if !children && reads.listed.iter().all(|l| l.all_declared) {
        return;
    }
    let declared_uids: HashMap<String, String> = uids
        .into_iter()
        .map(|(uid, index)| (uid, request.entities[index].name.clone()))
        .collect();
    let declared_uids = &declared_uids;
    let orphans: Vec<(&KindInfo, &Value)> = reads
        .listed
        .iter()
        .filter(|l| !l.all_declared)
        .flat_map(|l| l.items.iter().map(move |o| (&l.info, o)))
        .filter(|(_, o)| !is_declared(o, declared_uids))
        .collect();
    if orphans.is_empty() && !children {
        return;
    }
    let all_objects = reads
        .listed
        .iter()
        .chain(swept)
        .flat_map(|l| l.items.iter());
    let owners = Owners::new(&request.entities, declared_uids, all_objects);
    let declared_names: BTreeSet<String> =
        request.entities.iter().map(|e| e.name.clone()).collect();
    let nameables: Vec<Nameable<'_>> = orphans.iter().map(|(_, o)| Nameable::of(o)).collect();
    let names = naming::assign(&nameables, &declared_names);
    for ((info, object), name) in orphans.into_iter().zip(names) {
        let mut meta = metadata(object, &info.entity_type(), &request.project);
        let chain = owners.chain(object);
        if request.owned && meta.ownership() != Ownership::Owned {
            continue;
        }
        if chain != OwnerChain::Unowned {
            meta.owner_chain = Some(chain);
        }
        out.present(name, meta);
    }

    for listed in swept {
        for object in listed.items.iter() {
            if is_declared(object, declared_uids) {
                continue;
            }
            let chain = owners.chain(object);
            let rooted = matches!(chain, OwnerChain::Declared { .. });
            if !rooted && listed.info.kind != "Pod" {
                continue;
            }
            let meta = metadata(object, &listed.info.entity_type(), &request.project);
            if request.owned && !rooted && meta.ownership() != Ownership::Owned {
                continue;
            }
            let key = format!(
                "{}/{}/{}",
                listed.info.kind,
                object["metadata"]["namespace"].as_str().unwrap_or_default(),
                object["metadata"]["name"].as_str().unwrap_or_default()
            );
            let mut meta = meta;
            meta.owner_chain = Some(chain);
            out.present(key, meta);
        }
    }
}

fn is_declared(object: &Value, declared_uids: &HashMap<String, String>) -> bool {
    object["metadata"]["uid"]
        .as_str()
        .is_some_and(|uid| declared_uids.contains_key(uid))
}

/// The thin view of one live object.
pub fn metadata(object: &Value, entity: &str, project: &ProjectMarker) -> ResourceMetadata {
    let (ownership, marker) = verdict(object, project);
    let mut meta = ResourceMetadata::new(entity, status_word(object))
        .with_ownership(ownership)
        .with_marker(marker);
    meta.physical_id = object["metadata"]["uid"].as_str().map(str::to_owned);
    meta.last_updated = object["metadata"]["creationTimestamp"]
        .as_str()
        .map(str::to_owned);
    meta.attributes = attributes(object);
    meta
}

/// The entity type of a live object.
pub fn type_of(object: &Value) -> String {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let (group, _) = crate::kinds::split_api_version(api_version);
    entity_type(group, object["kind"].as_str().unwrap_or_default())
}
