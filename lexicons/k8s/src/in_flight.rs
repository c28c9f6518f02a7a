//! Identical reads made at the same moment share one request: the first caller sends it,
//! the others wait for its answer. Nothing is kept once the answer is handed out, so a
//! later read asks the server again.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

pub struct InFlight<V> {
    calls: Mutex<HashMap<String, Arc<OnceCell<V>>>>,
}

impl<V> Default for InFlight<V> {
    fn default() -> Self {
        InFlight {
            calls: Mutex::default(),
        }
    }
}

impl<V: Clone> InFlight<V> {
    /// The answer of `call`, or of the identical call (same `key`) already under way.
    pub async fn run<F>(&self, key: String, call: impl FnOnce() -> F) -> V
    where
        F: Future<Output = V>,
    {
        let cell = self
            .lock()
            .entry(key.clone())
            .or_insert_with(|| Arc::new(OnceCell::new()))
            .clone();
        cell.get_or_init(call).await;
        {
            let mut calls = self.lock();
            if calls.get(&key).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                calls.remove(&key);
            }
        }
        // The last caller takes the answer; the others copy it.
        match Arc::try_unwrap(cell) {
            Ok(cell) => cell.into_inner().expect("initialized above"),
            Err(cell) => cell.get().expect("initialized above").clone(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<OnceCell<V>>>> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn identical_calls_at_the_same_moment_share_one_answer() {
        let shared = InFlight::default();
        let sent = AtomicUsize::new(0);
        let call = || async {
            sent.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(20)).await;
            vec![1, 2, 3]
        };
        let (a, b, c) = tokio::join!(
            shared.run("pods".into(), call),
            shared.run("pods".into(), call),
            shared.run("jobs".into(), call),
        );
        assert_eq!((a, b, c), (vec![1, 2, 3], vec![1, 2, 3], vec![1, 2, 3]));
        assert_eq!(sent.load(Ordering::SeqCst), 2, "pods once, jobs once");
    }

    #[tokio::test]
    async fn a_later_call_asks_again() {
        let shared = InFlight::default();
        let sent = AtomicUsize::new(0);
        for round in 1..=2 {
            let answer = shared
                .run("pods".into(), || async {
                    sent.fetch_add(1, Ordering::SeqCst) + 1
                })
                .await;
            assert_eq!(answer, round);
        }
        assert!(shared.lock().is_empty());
    }
}
