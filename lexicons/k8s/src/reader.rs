//! Reading declared objects: one paginated LIST per kind and namespace shared by several
//! declared objects (label-agnostic), one GET otherwise, and per-object GETs where a LIST
//! is forbidden. Every read goes through a bounded pool.

use crate::kinds::KindInfo;
use crate::session::{Session, Target, Unaddressable};
use chant_lexicon::{DeclaredEntity, UnobservedReason, bounded_concurrently};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Present(Value),
    Absent,
    Unobserved(UnobservedReason, String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntityRead {
    pub read: Read,
    /// The exact request path.
    pub queried: Option<String>,
    pub target: Option<Target>,
}

/// Everything a LIST of one kind in one namespace returned.
#[derive(Clone, Debug)]
pub struct Listed {
    pub info: KindInfo,
    pub items: Vec<Value>,
}

/// One extra LIST, and what its failure note says was being looked for.
pub struct ListJob {
    pub info: KindInfo,
    pub collection: String,
    pub looking_for: String,
}

/// LIST each job's collection, all with `label_selector`. A collection that is not there
/// lists nothing; any other failure becomes a note: an extra listing never turns into a
/// verdict.
pub async fn list_collections(
    session: &Session,
    jobs: Vec<ListJob>,
    label_selector: Option<&str>,
    pool: usize,
) -> (Vec<Listed>, Vec<String>) {
    let results = bounded_concurrently(jobs, pool, |job| async move {
        let result = session
            .binding
            .cluster
            .list(&job.collection, label_selector)
            .await;
        (job, result)
    })
    .await;
    let mut listed = Vec::new();
    let mut notes = Vec::new();
    for (job, result) in results {
        match result {
            Ok(items) => listed.push(Listed {
                info: job.info,
                items,
            }),
            Err(e) if e.is_not_found() => {}
            Err(e) => notes.push(format!("{}: {e}", job.looking_for)),
        }
    }
    (listed, notes)
}

pub struct Reads {
    /// In the order of the declared entities.
    pub entities: Vec<EntityRead>,
    pub listed: Vec<Listed>,
}

enum Task {
    List(Vec<usize>),
    Get(usize),
}

pub async fn read_entities(
    session: &Session,
    entities: &[DeclaredEntity],
    cli_namespace: Option<&str>,
    pool: usize,
) -> Reads {
    let targets = resolve_targets(session, entities, cli_namespace, pool).await;
    read_targets(session, &targets, pool).await
}

/// Where each declared entity is read (discovery runs here for non-built-in kinds).
pub async fn resolve_targets(
    session: &Session,
    entities: &[DeclaredEntity],
    cli_namespace: Option<&str>,
    pool: usize,
) -> Vec<Result<Target, Unaddressable>> {
    bounded_concurrently((0..entities.len()).collect(), pool, |i| {
        session.target(&entities[i], cli_namespace)
    })
    .await
}

type GroupKey = (String, String, String, String);

fn group_key(t: &Target) -> GroupKey {
    (
        t.info.group.clone(),
        t.info.version.clone(),
        t.info.plural.clone(),
        t.namespace.clone().unwrap_or_default(),
    )
}

/// Whether the reads will LIST this kind in this namespace (several declared objects).
pub fn will_list(
    targets: &[Result<Target, Unaddressable>],
    info: &KindInfo,
    namespace: &str,
) -> bool {
    targets
        .iter()
        .flatten()
        .filter(|t| t.info == *info && t.namespace.as_deref() == Some(namespace))
        .count()
        > 1
}

pub async fn read_targets(
    session: &Session,
    targets: &[Result<Target, Unaddressable>],
    pool: usize,
) -> Reads {
    let count = targets.len();
    let mut results: Vec<Option<EntityRead>> = vec![None; count];
    let mut groups: BTreeMap<GroupKey, Vec<usize>> = BTreeMap::new();
    let mut resolved: Vec<Option<Target>> = vec![None; count];
    for (i, target) in targets.iter().enumerate() {
        match target {
            Ok(t) => {
                groups.entry(group_key(t)).or_default().push(i);
                resolved[i] = Some(t.clone());
            }
            Err(Unaddressable::NotServed { detail }) => {
                tracing::debug!("not served: {detail}");
                results[i] = Some(EntityRead {
                    read: Read::Absent,
                    queried: None,
                    target: None,
                });
            }
            Err(Unaddressable::Unobserved { reason, detail }) => {
                results[i] = Some(EntityRead {
                    read: Read::Unobserved(*reason, detail.clone()),
                    queried: None,
                    target: None,
                });
            }
        }
    }
    let tasks: Vec<Task> = groups
        .into_values()
        .flat_map(|members| {
            if members.len() > 1 {
                vec![Task::List(members)]
            } else {
                members.into_iter().map(Task::Get).collect()
            }
        })
        .collect();
    let resolved = &resolved;
    let outcomes = bounded_concurrently(tasks, pool, |task| async move {
        match task {
            Task::Get(i) => {
                let target = resolved[i].as_ref().expect("a resolved target");
                vec![(i, get(session, target).await)]
            }
            Task::List(members) => list_group(session, resolved, members).await,
        }
    })
    .await;
    let mut listed = Vec::new();
    let mut fallback = Vec::new();
    for outcome in outcomes.into_iter().flatten() {
        match outcome {
            (i, Outcome::Done(read)) => results[i] = Some(read),
            (i, Outcome::Forbidden) => fallback.push(i),
            (_, Outcome::Listed(l)) => listed.push(l),
        }
    }
    let gets = bounded_concurrently(fallback, pool, |i| async move {
        let target = resolved[i].as_ref().expect("a resolved target");
        (i, get(session, target).await)
    })
    .await;
    for (i, outcome) in gets {
        if let Outcome::Done(read) = outcome {
            results[i] = Some(read);
        }
    }
    Reads {
        entities: results
            .into_iter()
            .map(|r| {
                r.unwrap_or(EntityRead {
                    read: Read::Unobserved(UnobservedReason::ReadFailed, "not read".into()),
                    queried: None,
                    target: None,
                })
            })
            .collect(),
        listed,
    }
}

enum Outcome {
    Done(EntityRead),
    /// The LIST was forbidden: read this member with a GET instead.
    Forbidden,
    Listed(Listed),
}

async fn get(session: &Session, target: &Target) -> Outcome {
    let path = target.path();
    let read = match session.binding.cluster.get(&path).await {
        Ok(object) => Read::Present(object),
        Err(e) if e.is_not_found() => Read::Absent,
        Err(e) => {
            let (reason, detail) = session.classify(&e);
            Read::Unobserved(reason, detail)
        }
    };
    Outcome::Done(EntityRead {
        read,
        queried: Some(path),
        target: Some(target.clone()),
    })
}

async fn list_group(
    session: &Session,
    resolved: &[Option<Target>],
    members: Vec<usize>,
) -> Vec<(usize, Outcome)> {
    let first = resolved[members[0]].as_ref().expect("a resolved target");
    let collection = first.collection();
    match session.binding.cluster.list(&collection, None).await {
        Ok(items) => {
            let by_name: HashMap<&str, &Value> = items
                .iter()
                .filter_map(|o| Some((o["metadata"]["name"].as_str()?, o)))
                .collect();
            let mut out: Vec<(usize, Outcome)> = members
                .iter()
                .map(|&i| {
                    let target = resolved[i].as_ref().expect("a resolved target");
                    let read = match by_name.get(target.name.as_str()) {
                        Some(object) => Read::Present((*object).clone()),
                        None => Read::Absent,
                    };
                    (
                        i,
                        Outcome::Done(EntityRead {
                            read,
                            queried: Some(collection.clone()),
                            target: Some(target.clone()),
                        }),
                    )
                })
                .collect();
            out.push((
                usize::MAX,
                Outcome::Listed(Listed {
                    info: first.info.clone(),
                    items,
                }),
            ));
            out
        }
        Err(e) if e.is_forbidden() => members
            .into_iter()
            .map(|i| (i, Outcome::Forbidden))
            .collect(),
        Err(e) if e.is_not_found() => members
            .into_iter()
            .map(|i| {
                let target = resolved[i].as_ref().expect("a resolved target");
                (
                    i,
                    Outcome::Done(EntityRead {
                        read: Read::Absent,
                        queried: Some(collection.clone()),
                        target: Some(target.clone()),
                    }),
                )
            })
            .collect(),
        Err(e) => {
            let (reason, detail) = session.classify(&e);
            members
                .into_iter()
                .map(|i| {
                    (
                        i,
                        Outcome::Done(EntityRead {
                            read: Read::Unobserved(reason, detail.clone()),
                            queried: Some(collection.clone()),
                            target: resolved[i].clone(),
                        }),
                    )
                })
                .collect()
        }
    }
}
