//! The LISTs a command's reads are certain to make, sent while its declared side is still
//! being parsed, so that their answers are on the way before the reads begin.
//!
//! The reads LIST a kind in a namespace where two declared objects share it, and sweep a
//! namespace holding a declared workload for its runtime children. So the second object
//! of a kind parsed in a namespace makes that LIST certain, and the first workload the
//! sweep's. Only built-in kinds count (a CRD's address needs discovery), and objects that
//! name no namespace count apart from those that name one: nothing is sent that the reads
//! would not send themselves. The answers wait in the cluster for the reads
//! ([`Cluster::list_ahead`]).
//!
//! A sweep's LIST is sent when the declared side is read, behind every group LIST sent
//! meanwhile: the requests queue for the same slots, and what the last of them answer
//! is what the command still has to work through when the last answer is in. A sweep
//! mostly finds nothing to map; a group LIST always has its declared objects.

use crate::api::Cluster;
use crate::kinds::{KindInfo, builtin_at, entity_type};
use crate::session::Session;
use crate::sweep::{CHILD_KINDS, makes_children};
use chant_lexicon::ReadPath;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tokio::runtime::Handle;

/// Collections of one kind, by the namespace the declared objects name (`None`: they name
/// none, or the kind is cluster-scoped).
type Place = (&'static KindInfo, Option<String>);

pub struct ListsAhead {
    thin: bool,
    deep: bool,
    /// The reads' default for objects that name no namespace (`--namespace`).
    namespace: Option<String>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Declared objects parsed so far.
    seen: HashMap<Place, usize>,
    /// Namespaces holding a declared workload.
    workloads: HashSet<Option<String>>,
    /// Places whose LIST is certain, with the reads that will make it.
    certain: HashMap<Place, usize>,
    /// Certain places only the sweep lists, sent when the declared side is read.
    sweeps: Vec<Place>,
    /// Where to send, once the reads' session is bound.
    bound: Option<Bound>,
    /// The declared side is read: too late to send anything ahead.
    over: bool,
}

struct Bound {
    cluster: Arc<Cluster>,
    default_namespace: String,
    runtime: Handle,
}

impl ListsAhead {
    pub fn new(reads: &[ReadPath], namespace: Option<String>) -> Self {
        ListsAhead {
            thin: reads.contains(&ReadPath::DescribeResources),
            deep: reads.contains(&ReadPath::ObserveResourcesDeep),
            namespace,
            state: Mutex::default(),
        }
    }

    /// One declared object was parsed.
    pub fn saw(&self, object: &Value) {
        if !self.thin && !self.deep {
            return;
        }
        let (Some(api_version), Some(kind)) =
            (object["apiVersion"].as_str(), object["kind"].as_str())
        else {
            return;
        };
        let Some(info) = builtin_at(api_version, kind) else {
            return;
        };
        let metadata = &object["metadata"];
        if metadata["name"].as_str().is_none_or(str::is_empty) {
            // The reads cannot address it: it is in no LIST's group.
            return;
        }
        let namespace = info
            .namespaced
            .then(|| metadata["namespace"].as_str().filter(|n| !n.is_empty()))
            .flatten()
            .map(str::to_owned);
        let mut state = self.lock();
        if state.over {
            return;
        }
        let place = (info, namespace);
        let seen = state.seen.entry(place.clone()).or_default();
        *seen += 1;
        let seen = *seen;
        match seen {
            // A place's first object: is it a workload, whose namespace the sweep lists?
            1 if self.thin
                && info.namespaced
                && makes_children(&entity_type(&info.group, &info.kind))
                && state.workloads.insert(place.1.clone()) =>
            {
                for (api_version, kind) in CHILD_KINDS {
                    if let Some(child) = builtin_at(api_version, kind) {
                        self.certain(&mut state, (child, place.1.clone()));
                    }
                }
            }
            2 => self.certain(&mut state, place),
            _ => {}
        }
    }

    /// The reads' session is bound to `cluster`: send what is certain, and from now on
    /// each LIST as it becomes certain. Too late once the declared side is read (the reads
    /// send their own).
    pub fn bound(&self, cluster: Arc<Cluster>, default_namespace: &str) {
        let mut state = self.lock();
        if state.over {
            return;
        }
        state.bound = Some(Bound {
            cluster,
            default_namespace: default_namespace.to_owned(),
            runtime: Handle::current(),
        });
        let certain: Vec<(Place, usize)> = state
            .certain
            .iter()
            .filter(|(place, _)| !state.sweeps.contains(place))
            .map(|(place, takers)| (place.clone(), *takers))
            .collect();
        for (place, takers) in certain {
            self.send(&state, &place, takers);
        }
    }

    /// [`ListsAhead::bound`] to the session the reads will use.
    pub fn bound_to(&self, session: &Session) {
        self.bound(
            session.binding.cluster.clone(),
            &session.binding.default_namespace,
        );
    }

    /// The declared side is read: the sweeps' LISTs go now.
    pub fn end(&self) {
        let mut state = self.lock();
        for place in std::mem::take(&mut state.sweeps) {
            let takers = state.certain[&place];
            self.send(&state, &place, takers);
        }
        state.over = true;
        state.bound = None;
    }

    /// `place`'s LIST is certain (again): as a group LIST when two objects share it,
    /// else by the sweep.
    fn certain(&self, state: &mut State, place: Place) {
        let grouped = state.seen.get(&place).is_some_and(|n| *n > 1);
        let swept = state.workloads.contains(&place.1)
            && CHILD_KINDS
                .iter()
                .any(|(v, k)| builtin_at(v, k) == Some(place.0));
        // The thin read lists it either way (the sweep skips what its reads list); the
        // deep read only what it reads.
        let takers =
            usize::from(self.thin && (grouped || swept)) + usize::from(self.deep && grouped);
        if takers == 0 || state.certain.get(&place) == Some(&takers) {
            return;
        }
        state.certain.insert(place.clone(), takers);
        if grouped {
            self.send(state, &place, takers);
        } else {
            state.sweeps.push(place);
        }
    }

    fn send(&self, state: &State, place: &Place, takers: usize) {
        let Some(bound) = &state.bound else {
            return;
        };
        let (info, namespace) = place;
        let namespace = namespace
            .as_deref()
            .or(self.namespace.as_deref())
            .unwrap_or(&bound.default_namespace);
        bound.cluster.list_ahead(
            &info.collection_path(Some(namespace)),
            takers,
            &bound.runtime,
        );
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{RawResponse, RequestPolicy, Transport};
    use async_trait::async_trait;
    use serde_json::json;
    use std::collections::BTreeMap;
    use std::time::Duration;

    /// Answers every request with an empty list.
    struct EmptyLists;

    #[async_trait]
    impl Transport for EmptyLists {
        async fn send(&self, _: &str, _: &str, _: Option<Vec<u8>>) -> Result<RawResponse, String> {
            Ok(RawResponse {
                status: 200,
                retry_after: None,
                body: br#"{"kind":"List","apiVersion":"v1","metadata":{},"items":[]}"#.to_vec(),
            })
        }
    }

    const THIN_AND_DEEP: [ReadPath; 2] =
        [ReadPath::DescribeResources, ReadPath::ObserveResourcesDeep];

    fn cluster() -> Arc<Cluster> {
        Arc::new(Cluster::new(
            Arc::new(EmptyLists),
            RequestPolicy::new(Duration::from_secs(5)),
        ))
    }

    fn object(api_version: &str, kind: &str, name: &str, namespace: Option<&str>) -> Value {
        let mut object =
            json!({"apiVersion": api_version, "kind": kind, "metadata": {"name": name}});
        if let Some(ns) = namespace {
            object["metadata"]["namespace"] = json!(ns);
        }
        object
    }

    fn config_map(name: &str, namespace: Option<&str>) -> Value {
        object("v1", "ConfigMap", name, namespace)
    }

    fn listed(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
        pairs.iter().map(|(c, n)| ((*c).to_owned(), *n)).collect()
    }

    #[tokio::test]
    async fn the_second_object_of_a_kind_in_a_namespace_makes_its_list_certain() {
        let cluster = cluster();
        let ahead = ListsAhead::new(&THIN_AND_DEEP, None);
        ahead.bound(cluster.clone(), "default");
        ahead.saw(&config_map("a", Some("x")));
        assert!(
            cluster.listed_ahead().is_empty(),
            "one object is read with a GET"
        );
        ahead.saw(&config_map("b", Some("x")));
        ahead.saw(&config_map("c", Some("y")));
        // Cluster-scoped: the namespace an object names does not matter.
        ahead.saw(&object(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            "r1",
            Some("x"),
        ));
        ahead.saw(&object(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            "r2",
            None,
        ));
        // A CRD's address needs discovery; an object without a name is read by no LIST.
        ahead.saw(&object("example.com/v1", "Widget", "w1", Some("x")));
        ahead.saw(&object("example.com/v1", "Widget", "w2", Some("x")));
        ahead.saw(&json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"namespace": "x"}}));
        ahead.saw(&json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"namespace": "x"}}));
        assert_eq!(
            cluster.listed_ahead(),
            listed(&[
                ("/api/v1/namespaces/x/configmaps", 2),
                ("/apis/rbac.authorization.k8s.io/v1/clusterroles", 2),
            ]),
            "each kept for the thin and the deep read"
        );
    }

    #[tokio::test]
    async fn objects_naming_no_namespace_are_listed_where_the_reads_default_them() {
        for (flag, expected) in [
            (Some("cli"), "/api/v1/namespaces/cli/configmaps"),
            (None, "/api/v1/namespaces/default/configmaps"),
        ] {
            let cluster = cluster();
            let ahead = ListsAhead::new(&THIN_AND_DEEP, flag.map(str::to_owned));
            ahead.bound(cluster.clone(), "default");
            ahead.saw(&config_map("a", None));
            ahead.saw(&config_map("b", None));
            assert_eq!(cluster.listed_ahead(), listed(&[(expected, 2)]));
        }
        // Defaulted and named apart, even where they meet: the reads may list, this may not.
        let cluster = cluster();
        let ahead = ListsAhead::new(&THIN_AND_DEEP, None);
        ahead.bound(cluster.clone(), "default");
        ahead.saw(&config_map("a", None));
        ahead.saw(&config_map("b", Some("default")));
        assert!(cluster.listed_ahead().is_empty());
    }

    #[tokio::test]
    async fn a_workload_makes_the_sweep_of_its_namespace_certain_for_the_thin_read() {
        let cluster = cluster();
        let ahead = ListsAhead::new(&THIN_AND_DEEP, None);
        ahead.bound(cluster.clone(), "default");
        ahead.saw(&object("apps/v1", "Deployment", "web", Some("x")));
        ahead.saw(&object("apps/v1", "Deployment", "api", Some("x")));
        assert_eq!(
            cluster.listed_ahead(),
            listed(&[("/apis/apps/v1/namespaces/x/deployments", 2)]),
            "the sweep waits for the end of the parse; the group LIST goes at once"
        );
        ahead.saw(&object("v1", "Pod", "p1", Some("x")));
        ahead.saw(&object("v1", "Pod", "p2", Some("x")));
        assert_eq!(
            cluster.listed_ahead()["/api/v1/namespaces/x/pods"],
            2,
            "declared pods are read by both (the sweep reads that LIST): sent at once"
        );
        ahead.end();
        assert_eq!(
            cluster.listed_ahead(),
            listed(&[
                ("/api/v1/namespaces/x/pods", 2),
                ("/apis/apps/v1/namespaces/x/deployments", 2),
                ("/apis/apps/v1/namespaces/x/replicasets", 1),
                ("/apis/batch/v1/namespaces/x/jobs", 1),
            ]),
            "the sweep is the thin read's alone"
        );

        let cluster = self::cluster();
        let deep_only = ListsAhead::new(&[ReadPath::ObserveResourcesDeep], None);
        deep_only.bound(cluster.clone(), "default");
        deep_only.saw(&object("apps/v1", "Deployment", "web", Some("x")));
        deep_only.end();
        assert!(
            cluster.listed_ahead().is_empty(),
            "the deep read sweeps nothing"
        );
    }

    #[tokio::test]
    async fn what_is_certain_waits_for_the_binding_and_nothing_is_sent_once_the_parse_is_over() {
        let cluster = cluster();
        let ahead = ListsAhead::new(&THIN_AND_DEEP, None);
        ahead.saw(&config_map("a", Some("x")));
        ahead.saw(&config_map("b", Some("x")));
        ahead.bound(cluster.clone(), "default");
        assert_eq!(
            cluster.listed_ahead(),
            listed(&[("/api/v1/namespaces/x/configmaps", 2)])
        );
        ahead.end();
        ahead.saw(&config_map("a", Some("y")));
        ahead.saw(&config_map("b", Some("y")));
        assert_eq!(cluster.listed_ahead().len(), 1);

        let late = ListsAhead::new(&THIN_AND_DEEP, None);
        late.saw(&config_map("a", Some("x")));
        late.saw(&config_map("b", Some("x")));
        late.end();
        let cluster = self::cluster();
        late.bound(cluster.clone(), "default");
        assert!(
            cluster.listed_ahead().is_empty(),
            "bound after the parse: the reads list"
        );

        let nothing_read = ListsAhead::new(&[], None);
        nothing_read.bound(cluster.clone(), "default");
        nothing_read.saw(&config_map("a", Some("x")));
        nothing_read.saw(&config_map("b", Some("x")));
        assert!(
            cluster.listed_ahead().is_empty(),
            "no declared read follows"
        );
    }
}
