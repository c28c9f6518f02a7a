//! Reading declared objects: one paginated LIST per kind and namespace shared by several
//! declared objects (label-agnostic), one GET otherwise, and per-object GETs where a LIST
//! is forbidden. Every read goes through a bounded pool.

use crate::kinds::KindInfo;
use crate::session::{Session, Target, Targets, Unaddressable};
use chant_lexicon::{DeclaredEntity, UnobservedEntity, UnobservedReason, bounded_concurrently};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Present(LiveObject),
    Absent,
    Unobserved(UnobservedReason, String),
}

/// A live object, shared with the answer it came in: the thin and the deep read of one
/// command read the same LIST, and neither copies it.
#[derive(Clone, Debug)]
pub struct LiveObject {
    answer: Arc<[Value]>,
    index: usize,
}

impl LiveObject {
    pub fn new(object: Value) -> Self {
        LiveObject {
            answer: Arc::from([object]),
            index: 0,
        }
    }

    fn listed(answer: &Arc<[Value]>, index: usize) -> Self {
        LiveObject {
            answer: answer.clone(),
            index,
        }
    }
}

impl std::ops::Deref for LiveObject {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.answer[self.index]
    }
}

impl PartialEq for LiveObject {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntityRead {
    pub read: Read,
    /// The exact request path.
    pub queried: Option<String>,
}

impl EntityRead {
    /// A read that sent no request.
    fn unqueried(read: Read) -> Self {
        EntityRead {
            read,
            queried: None,
        }
    }

    /// Why `entity` is not observed, with the address this read queried.
    pub fn hole(
        &self,
        entity: &DeclaredEntity,
        reason: UnobservedReason,
        detail: impl Into<String>,
    ) -> UnobservedEntity {
        let mut entry = UnobservedEntity::new(reason)
            .typed(&entity.entity_type)
            .detail(detail);
        entry.queried = self.queried.clone();
        entry
    }
}

/// Everything a LIST of one kind in one namespace returned.
#[derive(Clone, Debug)]
pub struct Listed {
    pub info: KindInfo,
    pub items: Arc<[Value]>,
    /// Every item is the live object of a declared entity the LIST was made for: none
    /// of them is undeclared.
    pub all_declared: bool,
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
                all_declared: false,
            }),
            Err(e) if e.is_not_found() => {}
            Err(e) => notes.push(format!("{}: {e}", job.looking_for)),
        }
    }
    (listed, notes)
}

pub struct Reads<T> {
    /// In the order of the declared entities.
    pub entities: Vec<T>,
    pub listed: Vec<Listed>,
}

/// Read the declared objects, each read handed to `on_read` as soon as it answers — while
/// the other reads are still waiting on the server — in the order of the declared
/// entities.
pub async fn read_entities<T>(
    session: &Session,
    entities: &Arc<Vec<DeclaredEntity>>,
    cli_namespace: Option<&str>,
    pool: usize,
    on_read: impl Fn(usize, EntityRead) -> T,
) -> Reads<T> {
    let targets = resolve_targets(session, entities, cli_namespace, pool).await;
    read_targets(session, &targets, pool, on_read).await
}

/// Where each declared entity is read (discovery runs here for non-built-in kinds): worked
/// out once for the reads of one command.
pub async fn resolve_targets(
    session: &Session,
    entities: &Arc<Vec<DeclaredEntity>>,
    cli_namespace: Option<&str>,
    pool: usize,
) -> Targets {
    session
        .targets_of(entities, cli_namespace)
        .get_or_init(|| async {
            let targets = bounded_concurrently((0..entities.len()).collect(), pool, |i| {
                session.target(&entities[i], cli_namespace)
            })
            .await;
            Arc::new(targets)
        })
        .await
        .clone()
}

/// Targets read by one request: the same kind in the same namespace.
type GroupKey<'t> = (&'t str, &'t str, &'t str, &'t str);

fn group_key(t: &Target) -> GroupKey<'_> {
    (
        &t.info.group,
        &t.info.version,
        &t.info.plural,
        t.namespace.as_deref().unwrap_or_default(),
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

/// [`read_entities`] for targets already resolved.
pub async fn read_targets<T>(
    session: &Session,
    targets: &[Result<Target, Unaddressable>],
    pool: usize,
    on_read: impl Fn(usize, EntityRead) -> T,
) -> Reads<T> {
    let on_read = &on_read;
    let mut results: Vec<Option<T>> = std::iter::repeat_with(|| None)
        .take(targets.len())
        .collect();
    let mut groups: BTreeMap<GroupKey<'_>, Vec<usize>> = BTreeMap::new();
    for (i, target) in targets.iter().enumerate() {
        let unread = |read| Some(on_read(i, EntityRead::unqueried(read)));
        match target {
            Ok(t) => groups.entry(group_key(t)).or_default().push(i),
            Err(Unaddressable::NotServed { detail }) => {
                tracing::debug!("not served: {detail}");
                results[i] = unread(Read::Absent);
            }
            Err(Unaddressable::Unobserved { reason, detail }) => {
                results[i] = unread(Read::Unobserved(*reason, detail.clone()));
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
    let outcomes = bounded_concurrently(tasks, pool, |task| async move {
        let outcomes = match task {
            Task::Get(i) => vec![(i, get(session, resolved(targets, i)).await)],
            Task::List(members) => list_group(session, targets, members).await,
        };
        outcomes
            .into_iter()
            .map(|(i, outcome)| match outcome {
                Outcome::Done(read) => Mapped::Done(i, on_read(i, read)),
                Outcome::Forbidden => Mapped::Forbidden(i),
                Outcome::Listed(listed) => Mapped::Listed(listed),
            })
            .collect::<Vec<_>>()
    })
    .await;
    let mut listed = Vec::new();
    let mut fallback = Vec::new();
    for outcome in outcomes.into_iter().flatten() {
        match outcome {
            Mapped::Done(i, answer) => results[i] = Some(answer),
            Mapped::Forbidden(i) => fallback.push(i),
            Mapped::Listed(l) => listed.push(l),
        }
    }
    let gets = bounded_concurrently(fallback, pool, |i| async move {
        match get(session, resolved(targets, i)).await {
            Outcome::Done(read) => Some((i, on_read(i, read))),
            _ => None,
        }
    })
    .await;
    for (i, answer) in gets.into_iter().flatten() {
        results[i] = Some(answer);
    }
    Reads {
        entities: results
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                r.unwrap_or_else(|| {
                    let never = Read::Unobserved(UnobservedReason::ReadFailed, "not read".into());
                    on_read(i, EntityRead::unqueried(never))
                })
            })
            .collect(),
        listed,
    }
}

/// A task's outcome once its reads are handed over.
enum Mapped<T> {
    Done(usize, T),
    Forbidden(usize),
    Listed(Listed),
}

/// Declared objects by their position in the targets.
enum Task {
    List(Vec<usize>),
    Get(usize),
}

enum Outcome {
    Done(EntityRead),
    /// The LIST was forbidden: read this member with a GET instead.
    Forbidden,
    Listed(Listed),
}

fn resolved(targets: &[Result<Target, Unaddressable>], i: usize) -> &Target {
    targets[i]
        .as_ref()
        .expect("tasks hold resolved targets only")
}

async fn get(session: &Session, target: &Target) -> Outcome {
    let path = target.path();
    let read = match session.binding.cluster.get(&path).await {
        Ok(object) => Read::Present(LiveObject::new(object)),
        Err(e) if e.is_not_found() => Read::Absent,
        Err(e) => {
            let (reason, detail) = session.classify(&e);
            Read::Unobserved(reason, detail)
        }
    };
    Outcome::Done(EntityRead {
        read,
        queried: Some(path),
    })
}

async fn list_group(
    session: &Session,
    targets: &[Result<Target, Unaddressable>],
    members: Vec<usize>,
) -> Vec<(usize, Outcome)> {
    let first = resolved(targets, members[0]);
    let collection = first.collection();
    let every = |read: &dyn Fn(&Target) -> Read| -> Vec<(usize, Outcome)> {
        members
            .iter()
            .map(|&i| {
                let done = EntityRead {
                    read: read(resolved(targets, i)),
                    queried: Some(collection.clone()),
                };
                (i, Outcome::Done(done))
            })
            .collect()
    };
    match session.binding.cluster.list(&collection, None).await {
        Ok(items) => {
            let by_name: HashMap<&str, usize> = items
                .iter()
                .enumerate()
                .filter_map(|(index, o)| Some((o["metadata"]["name"].as_str()?, index)))
                .collect();
            let index_of = |target: &Target| by_name.get(target.name.as_str()).copied();
            let declared: HashSet<usize> = members
                .iter()
                .filter_map(|&i| index_of(resolved(targets, i)))
                .collect();
            let mut out = every(&|target| match index_of(target) {
                Some(index) => Read::Present(LiveObject::listed(&items, index)),
                None => Read::Absent,
            });
            out.push((
                usize::MAX,
                Outcome::Listed(Listed {
                    info: first.info.clone(),
                    all_declared: declared.len() == items.len(),
                    items,
                }),
            ));
            out
        }
        Err(e) if e.is_forbidden() => members
            .into_iter()
            .map(|i| (i, Outcome::Forbidden))
            .collect(),
        Err(e) if e.is_not_found() => every(&|_| Read::Absent),
        Err(e) => {
            let (reason, detail) = session.classify(&e);
            every(&|_| Read::Unobserved(reason, detail.clone()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Cluster, RawResponse, RequestPolicy, Transport};
    use crate::binding::Binding;
    use async_trait::async_trait;
    use serde_json::json;
    use std::time::Duration;

    /// Built-in kinds resolve without a request: none is expected.
    struct NoRequests;

    #[async_trait]
    impl Transport for NoRequests {
        async fn send(
            &self,
            _: &str,
            path: &str,
            _: Option<Vec<u8>>,
        ) -> Result<RawResponse, String> {
            Err(format!("unexpected request {path}"))
        }
    }

    fn session() -> Session {
        Session::new(Binding {
            cluster: Arc::new(Cluster::new(
                Arc::new(NoRequests),
                RequestPolicy::new(Duration::from_secs(5)),
            )),
            server: "https://127.0.0.1:1".into(),
            context: Some("test".into()),
            default_namespace: "default".into(),
            source: "test".into(),
            credential: "none",
            ambient: false,
        })
    }

    fn config_map(name: &str) -> DeclaredEntity {
        DeclaredEntity::new(
            name,
            "K8s::Core::ConfigMap",
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}),
        )
    }

    #[tokio::test]
    async fn the_reads_of_one_command_resolve_its_entities_once() {
        let session = session();
        let entities = Arc::new(vec![config_map("a"), config_map("b")]);
        let thin = resolve_targets(&session, &entities, None, 4).await;
        let deep = resolve_targets(&session, &entities, None, 4).await;
        assert!(
            Arc::ptr_eq(&thin, &deep),
            "the second read reuses the first's"
        );
        assert_eq!(
            thin[0].as_ref().unwrap().namespace.as_deref(),
            Some("default")
        );

        // Another namespace, an equal but other list, or a new command: resolved afresh.
        let elsewhere = resolve_targets(&session, &entities, Some("ns1"), 4).await;
        assert!(!Arc::ptr_eq(&elsewhere, &thin));
        assert_eq!(
            elsewhere[1].as_ref().unwrap().namespace.as_deref(),
            Some("ns1")
        );
        let equal = Arc::new(entities.to_vec());
        let other = resolve_targets(&session, &equal, Some("ns1"), 4).await;
        assert!(!Arc::ptr_eq(&other, &elsewhere));
        assert_eq!(other, elsewhere);
        session.forget_targets();
        let next = resolve_targets(&session, &equal, Some("ns1"), 4).await;
        assert!(!Arc::ptr_eq(&next, &other));
    }
}
