//! The observe-entities harness: bind once, read every declared entity through a bounded
//! pool, and route each answer onto the tri-state. Lexicons supply an adapter instead of
//! hand-rolling the control flow.

use crate::declared::DeclaredEntity;
use crate::metadata::ResourceMetadata;
use crate::observation::{Observation, UnobservedEntity};
use crate::reason::UnobservedReason;
use async_trait::async_trait;
use futures::StreamExt;
use std::fmt::Display;
use std::future::Future;

/// N entities is not N serial round trips.
pub const DEFAULT_OBSERVE_CONCURRENCY: usize = 16;

/// One entity's answer. Every variant may say where it looked.
// Answers live briefly, one per entity; boxing the metadata would only add noise at every
// construction site.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum EntityObservation {
    Present {
        meta: ResourceMetadata,
        queried: Option<String>,
    },
    Absent {
        queried: Option<String>,
    },
    Unobserved {
        reason: UnobservedReason,
        detail: Option<String>,
        queried: Option<String>,
    },
}

impl EntityObservation {
    pub fn present(meta: ResourceMetadata) -> Self {
        EntityObservation::Present {
            meta,
            queried: None,
        }
    }

    pub fn absent() -> Self {
        EntityObservation::Absent { queried: None }
    }

    pub fn unobserved(reason: UnobservedReason, detail: impl Into<String>) -> Self {
        EntityObservation::Unobserved {
            reason,
            detail: Some(detail.into()),
            queried: None,
        }
    }

    pub fn at(mut self, address: impl Into<String>) -> Self {
        let address = Some(address.into());
        match &mut self {
            EntityObservation::Present { queried, .. }
            | EntityObservation::Absent { queried }
            | EntityObservation::Unobserved { queried, .. } => *queried = address,
        }
        self
    }
}

/// What a failed bind means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindFailure {
    /// Every declared entity is not observed, for this reason.
    Unobserved {
        reason: UnobservedReason,
        detail: Option<String>,
    },
    /// A refusal core must not swallow (a context mismatch, a wrong account).
    Rethrow,
}

#[async_trait]
pub trait ObserverAdapter: Send + Sync {
    type Client: Send + Sync;
    type Error: Display + Send;

    /// Reach the provider on the applier's transport. A failure is whole-lexicon.
    async fn bind(&self) -> Result<Self::Client, Self::Error>;

    fn classify_bind_failure(&self, error: &Self::Error) -> BindFailure;

    /// One entity. An error here is `read-failed` for that entity alone.
    async fn read(
        &self,
        client: &Self::Client,
        entity: &DeclaredEntity,
    ) -> Result<EntityObservation, Self::Error>;

    /// The transport's own pool size.
    fn concurrency(&self) -> usize {
        DEFAULT_OBSERVE_CONCURRENCY
    }
}

/// Run `f` over `items` with at most `limit` in flight; results keep the input order.
///
/// The next item starts as soon as any one finishes: waiting for the earliest item first
/// (as `buffered` does) would hold every finished slot behind one slow answer, so the
/// reads would go out in waves paced by the slowest of each.
pub async fn bounded_concurrently<T, R, F, Fut>(items: Vec<T>, limit: usize, f: F) -> Vec<R>
where
    F: Fn(T) -> Fut,
    Fut: Future<Output = R>,
{
    let limit = limit.max(1);
    let mut results: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    let f = &f;
    let mut finished = futures::stream::iter(
        items
            .into_iter()
            .enumerate()
            .map(|(i, item)| async move { (i, f(item).await) }),
    )
    .buffer_unordered(limit);
    while let Some((i, result)) = finished.next().await {
        results[i] = Some(result);
    }
    results
        .into_iter()
        .map(|r| r.expect("every item finished"))
        .collect()
}

/// Observe every declared entity through `adapter`.
///
/// Returns `Err` only when the bind failed and the adapter asked for it to be rethrown.
pub async fn observe_entities<A: ObserverAdapter>(
    declared: &[DeclaredEntity],
    adapter: &A,
) -> Result<Observation, A::Error> {
    let client = match adapter.bind().await {
        Ok(client) => client,
        Err(error) => {
            return match adapter.classify_bind_failure(&error) {
                BindFailure::Rethrow => Err(error),
                BindFailure::Unobserved { reason, detail } => Ok(Observation::all_unobserved(
                    declared
                        .iter()
                        .map(|e| (e.name.as_str(), Some(e.entity_type.as_str()))),
                    reason,
                    detail.as_deref(),
                )),
            };
        }
    };
    let client = &client;
    let answers = bounded_concurrently(
        declared.iter().collect(),
        adapter.concurrency(),
        |entity| async move {
            let answer = adapter.read(client, entity).await.unwrap_or_else(|error| {
                EntityObservation::Unobserved {
                    reason: UnobservedReason::ReadFailed,
                    detail: Some(error.to_string()),
                    queried: None,
                }
            });
            (entity, answer)
        },
    )
    .await;

    let mut out = Observation::new();
    for (entity, answer) in answers {
        match answer {
            EntityObservation::Present { meta, queried } => {
                if let Some(q) = queried {
                    out.queried(&entity.name, q);
                }
                out.present(&entity.name, meta);
            }
            EntityObservation::Absent { queried } => {
                if let Some(q) = queried {
                    out.queried(&entity.name, q);
                }
            }
            EntityObservation::Unobserved {
                reason,
                detail,
                queried,
            } => {
                if let Some(q) = &queried {
                    out.queried(&entity.name, q.clone());
                }
                out.unobserved(
                    &entity.name,
                    UnobservedEntity {
                        entity_type: Some(entity.entity_type.clone()),
                        reason,
                        detail,
                        queried,
                    },
                );
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Fake {
        bind_error: Option<(&'static str, BindFailure)>,
        in_flight: AtomicUsize,
        peak: AtomicUsize,
    }

    impl Fake {
        fn new() -> Self {
            Fake {
                bind_error: None,
                in_flight: AtomicUsize::new(0),
                peak: AtomicUsize::new(0),
            }
        }
    }

    #[async_trait]
    impl ObserverAdapter for Fake {
        type Client = ();
        type Error = String;

        async fn bind(&self) -> Result<(), String> {
            match &self.bind_error {
                Some((message, _)) => Err((*message).to_owned()),
                None => Ok(()),
            }
        }

        fn classify_bind_failure(&self, _error: &String) -> BindFailure {
            self.bind_error
                .clone()
                .map(|(_, f)| f)
                .unwrap_or(BindFailure::Rethrow)
        }

        async fn read(
            &self,
            _client: &(),
            entity: &DeclaredEntity,
        ) -> Result<EntityObservation, String> {
            let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            self.peak.fetch_max(now, Ordering::SeqCst);
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            self.in_flight.fetch_sub(1, Ordering::SeqCst);
            match entity.name.as_str() {
                "gone" => Ok(EntityObservation::absent().at("/gone")),
                "hidden" => Ok(EntityObservation::unobserved(
                    UnobservedReason::NoCredentials,
                    "403",
                )
                .at("/hidden")),
                "boom" => Err("boom".to_owned()),
                _ => Ok(EntityObservation::present(ResourceMetadata::new(
                    &entity.entity_type,
                    "READY",
                ))
                .at("/here")),
            }
        }

        fn concurrency(&self) -> usize {
            4
        }
    }

    fn entities(names: &[&str]) -> Vec<DeclaredEntity> {
        names
            .iter()
            .map(|n| DeclaredEntity::new(*n, "T", json!({})))
            .collect()
    }

    #[tokio::test]
    async fn routes_each_answer_onto_the_tri_state() {
        let obs = observe_entities(&entities(&["here", "gone", "hidden", "boom"]), &Fake::new())
            .await
            .unwrap();
        assert!(obs.resources.contains_key("here"));
        assert!(!obs.resources.contains_key("gone") && !obs.unobserved.contains_key("gone"));
        assert_eq!(obs.queried["gone"], "/gone");
        assert_eq!(obs.queried["here"], "/here");
        let hidden = &obs.unobserved["hidden"];
        assert_eq!(hidden.reason, UnobservedReason::NoCredentials);
        assert_eq!(hidden.queried.as_deref(), Some("/hidden"));
        assert_eq!(hidden.entity_type.as_deref(), Some("T"));
        let boom = &obs.unobserved["boom"];
        assert_eq!(
            (boom.reason, boom.detail.as_deref()),
            (UnobservedReason::ReadFailed, Some("boom"))
        );
    }

    #[tokio::test]
    async fn a_bind_failure_unobserves_everything_or_rethrows() {
        let mut fake = Fake::new();
        fake.bind_error = Some((
            "expired",
            BindFailure::Unobserved {
                reason: UnobservedReason::NoCredentials,
                detail: Some("expired".into()),
            },
        ));
        let obs = observe_entities(&entities(&["a", "b"]), &fake)
            .await
            .unwrap();
        assert_eq!(obs.unobserved.len(), 2);
        assert!(
            obs.unobserved
                .values()
                .all(|e| e.reason == UnobservedReason::NoCredentials
                    && e.entity_type.as_deref() == Some("T"))
        );
        fake.bind_error = Some(("context mismatch", BindFailure::Rethrow));
        assert_eq!(
            observe_entities(&entities(&["a"]), &fake)
                .await
                .unwrap_err(),
            "context mismatch"
        );
    }

    #[tokio::test]
    async fn the_pool_is_bounded_and_concurrent() {
        let names: Vec<String> = (0..20).map(|i| format!("e{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let fake = Fake::new();
        observe_entities(&entities(&refs), &fake).await.unwrap();
        let peak = fake.peak.load(Ordering::SeqCst);
        assert!(peak > 1 && peak <= 4, "peak {peak}");
    }

    #[tokio::test]
    async fn a_slow_item_does_not_hold_back_the_next_ones() {
        // Item 0 waits until item 3 has started: with the next item started only once the
        // earliest finished, this would never end.
        let started = tokio::sync::Notify::new();
        let started = &started;
        let out = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            bounded_concurrently((0..6).collect(), 2, |i: usize| async move {
                if i == 0 {
                    started.notified().await;
                } else if i == 3 {
                    started.notify_one();
                }
                i * 10
            }),
        )
        .await
        .expect("item 3 started while item 0 was still running");
        assert_eq!(
            out,
            vec![0, 10, 20, 30, 40, 50],
            "results keep the input order"
        );
    }

    #[tokio::test]
    async fn an_empty_list_resolves_immediately() {
        let out: Vec<u8> = bounded_concurrently(Vec::<u8>::new(), 4, |x| async move { x }).await;
        assert!(out.is_empty());
    }
}
