//! The deep diff worked out while the deep read is still going on: each tree a lexicon
//! hands over is classified at once, on threads of their own, so that when the last
//! answer arrives only the last few trees are left to diff.

use super::diff::{Streamed, classify_entity};
use crate::lifecycle::baseline::LexiconBaseline;
use chant_lexicon::{DeclaredEntity, DeepSink, HandedTree, HookCache, NormalizationHooks};
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

type Handed = (String, HandedTree);

pub struct StreamingDiff {
    /// Taken by [`StreamingDiff::finish`]: once it is gone the workers drain and stop, even
    /// if a lexicon kept a copy of the sink.
    sender: Arc<Mutex<Option<Sender<Handed>>>>,
    workers: Vec<JoinHandle<Streamed>>,
}

impl StreamingDiff {
    /// One worker per core, each with its own hook cache.
    pub fn start(
        entities: Arc<Vec<DeclaredEntity>>,
        hooks: Arc<NormalizationHooks>,
        baseline: Option<Arc<LexiconBaseline>>,
    ) -> Self {
        let (sender, receiver) = channel();
        let receiver = Arc::new(Mutex::new(receiver));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = (0..cores)
            .map(|_| {
                let (entities, hooks) = (entities.clone(), hooks.clone());
                let (baseline, receiver) = (baseline.clone(), receiver.clone());
                std::thread::spawn(move || {
                    chant_lexicon::parallel::yield_to_io();
                    classify_handed(&entities, &hooks, baseline.as_deref(), &receiver)
                })
            })
            .collect();
        StreamingDiff {
            sender: Arc::new(Mutex::new(Some(sender))),
            workers,
        }
    }

    /// What the lexicon hands each tree to.
    pub fn sink(&self) -> DeepSink {
        let sender = self.sender.clone();
        DeepSink::new(move |name, tree| {
            if let Some(sender) = lock(&sender).as_ref() {
                let _ = sender.send((name.to_owned(), tree));
            }
        })
    }

    /// Every tree handed over, classified. Blocks until the workers are done.
    pub fn finish(self) -> Streamed {
        lock(&self.sender).take();
        let mut all = Streamed::default();
        for worker in self.workers {
            match worker.join() {
                Ok(part) => {
                    all.classified.extend(part.classified);
                    all.undeclared.extend(part.undeclared);
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    }
}

fn classify_handed(
    entities: &[DeclaredEntity],
    hooks: &NormalizationHooks,
    baseline: Option<&LexiconBaseline>,
    receiver: &Mutex<Receiver<Handed>>,
) -> Streamed {
    let by_name: HashMap<&str, &DeclaredEntity> =
        entities.iter().map(|e| (e.name.as_str(), e)).collect();
    let cache = HookCache::new(hooks);
    let mut done = Streamed::default();
    loop {
        let next = lock(receiver).recv();
        let Ok((name, tree)) = next else {
            return done;
        };
        match by_name.get(name.as_str()) {
            Some(entity) => {
                done.classified
                    .push(classify_entity(entity, tree.make(), &cache, baseline))
            }
            None => done.undeclared.push(name),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifecycle::deep::diff::{diff_deep, diff_deep_with};
    use chant_lexicon::{DeepObservation, DeepResourceObservation};
    use serde_json::json;

    fn entity(name: &str, replicas: u64) -> DeclaredEntity {
        DeclaredEntity::new(
            name,
            "K8s::Apps::Deployment",
            json!({"metadata": {"name": name}, "spec": {"replicas": replicas}}),
        )
    }

    fn tree(name: &str, replicas: u64) -> DeepResourceObservation {
        DeepResourceObservation {
            entity_type: "K8s::Apps::Deployment".into(),
            physical_id: None,
            properties: json!({"metadata": {"name": name}, "spec": {"replicas": replicas, "paused": false}}),
            field_owners: Default::default(),
            ownership: None,
            marker: None,
        }
    }

    #[test]
    fn handed_over_trees_diff_as_if_they_were_in_the_answer() {
        let declared: Vec<DeclaredEntity> = (0..40).map(|i| entity(&format!("d{i}"), 2)).collect();
        let live_replicas = |i: usize| if i.is_multiple_of(3) { 5 } else { 2 };
        let mut whole = DeepObservation::default();
        for i in 0..40 {
            whole
                .resources
                .insert(format!("d{i}"), tree(&format!("d{i}"), live_replicas(i)));
        }
        whole.resources.insert("stray".into(), tree("stray", 1));
        let hooks = NormalizationHooks::default();
        let expected = diff_deep(&declared, &whole, &hooks, None);
        assert_eq!(expected.drifted.len(), 14, "every third entity drifted");

        // Half the trees (and the undeclared one) are handed over, some made and some for
        // the diff's threads to make; the rest are answered.
        let streaming =
            StreamingDiff::start(Arc::new(declared.clone()), Arc::new(hooks.clone()), None);
        let sink = streaming.sink();
        let mut answered = DeepObservation::default();
        for (name, t) in whole.resources.clone() {
            if name == "stray" || name.ends_with(['1', '3']) {
                sink.hand_over(&name, t);
            } else if name.ends_with(['5', '7', '9']) {
                sink.hand_over_to_make(&name, move || t);
            } else {
                answered.resources.insert(name, t);
            }
        }
        let streamed = streaming.finish();
        assert_eq!(streamed.classified.len(), 20);
        assert_eq!(streamed.undeclared, vec!["stray".to_owned()]);
        // A sink kept past the end takes nothing and does not fail.
        sink.hand_over("late", tree("late", 1));
        let merged = diff_deep_with(&declared, &answered, &hooks, None, streamed);
        assert_eq!(merged, expected);
    }
}
