//! CPU-bound work spread over every core, results in input order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// `map` over `items` on every core, results in the order of `items`. Items are handed
/// out in small blocks, so a run of heavy items does not leave a core idle; `state` makes
/// one value per thread (a cache that is not `Sync`). One core, or one item, runs inline.
pub fn map_on_every_core<T, S, R>(
    items: &[T],
    state: impl Fn() -> S + Sync,
    map: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 2 || items.len() < 2 {
        let mut own = state();
        return items.iter().map(|item| map(&mut own, item)).collect();
    }
    let block = (items.len() / (cores * 8)).max(1);
    let next = AtomicUsize::new(0);
    let worker = || {
        yield_to_io();
        let mut own = state();
        let mut done = Vec::new();
        loop {
            let start = next.fetch_add(block, Ordering::Relaxed);
            if start >= items.len() {
                return done;
            }
            let end = (start + block).min(items.len());
            let results: Vec<R> = items[start..end]
                .iter()
                .map(|item| map(&mut own, item))
                .collect();
            done.push((start, results));
        }
    };
    let mut blocks: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cores.min(items.len()))
            .map(|_| scope.spawn(worker))
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    blocks.sort_unstable_by_key(|(start, _)| *start);
    blocks
        .into_iter()
        .flat_map(|(_, results)| results)
        .collect()
}

/// `work` on a blocking thread, so that the task awaiting it, and every future polled in
/// that task, goes on meanwhile. A panic in `work` is the caller's.
pub async fn off_task<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> R {
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => result,
        Err(error) => std::panic::resume_unwind(error.into_panic()),
    }
}

/// Frees `value` on a thread of its own: what a hook or a command is done with (thousands
/// of listed objects) need not be freed before its answer is handed on. In a process that
/// ends with its command ([`ends_with_its_command`]), the operating system takes it back.
pub fn release<T: Send + 'static>(value: T) {
    if ENDS_WITH_ITS_COMMAND.load(Ordering::Relaxed) {
        std::mem::forget(value);
        return;
    }
    // Without a thread to spare, `spawn` drops the closure here: slower, never wrong.
    let _ = std::thread::Builder::new()
        .name("release".into())
        .spawn(move || {
            yield_to_io();
            drop(value)
        });
}

static ENDS_WITH_ITS_COMMAND: AtomicBool = AtomicBool::new(false);

/// This process ends as soon as its one command is done, without freeing what it built
/// (the CLI): [`release`] then frees nothing, which would only take CPU the command needs.
pub fn ends_with_its_command() {
    ENDS_WITH_ITS_COMMAND.store(true, Ordering::Relaxed);
}

/// Lowers the calling thread's priority, so that bulk CPU work (a parse, a diff) gives way
/// at once to the threads carrying network exchanges: a handshake step or the next
/// request would otherwise wait a time slice behind it.
pub fn yield_to_io() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its integer arguments; on Linux `0` names the calling
    // thread. A thread may always lower its own priority; a failure leaves it as it was.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, BULK_NICENESS);
    }
}

/// Measured against the benchmark's API server on the same two cores: `diff --live`
/// took ~4 ms less (median of 61 interleaved runs) with its bulk threads at 10 than at 0.
const BULK_NICENESS: i32 = 10;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    /// Says on `freed` which thread dropped it.
    struct Tracked(std::sync::mpsc::Sender<Option<String>>);

    impl Drop for Tracked {
        fn drop(&mut self) {
            let _ = self
                .0
                .send(std::thread::current().name().map(str::to_owned));
        }
    }

    #[test]
    fn a_released_value_is_freed_on_a_thread_of_its_own() {
        let (freed, on) = std::sync::mpsc::channel();
        release(Tracked(freed));
        let by = on
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("freed");
        assert_eq!(by.as_deref(), Some("release"));
    }

    #[test]
    fn results_keep_the_input_order_whatever_the_blocks() {
        for len in [0, 1, 2, 7, 100, 1001] {
            let items: Vec<usize> = (0..len).collect();
            let out = map_on_every_core(&items, || (), |_, i| i * 3);
            assert_eq!(
                out,
                items.iter().map(|i| i * 3).collect::<Vec<_>>(),
                "{len}"
            );
        }
    }

    #[test]
    fn each_thread_makes_one_state_and_keeps_it_for_all_its_items() {
        let threads = Mutex::new(HashSet::new());
        let made = AtomicUsize::new(0);
        let items: Vec<u32> = (0..500).collect();
        let out = map_on_every_core(
            &items,
            || {
                made.fetch_add(1, Ordering::SeqCst);
                assert!(
                    threads.lock().unwrap().insert(std::thread::current().id()),
                    "a second state on one thread"
                );
            },
            |_, item| item + 1,
        );
        assert_eq!(out.len(), 500);
        assert_eq!(out[499], 500);
        // 500 items go out in many small blocks; a state made per block would show here.
        let made = made.load(Ordering::SeqCst);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert!(
            made >= 1 && made <= cores,
            "{made} states for {cores} cores"
        );
    }
}
