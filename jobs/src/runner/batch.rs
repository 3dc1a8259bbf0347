//! Running the tasks of one queue that a worker holds at once as one statement.
//!
//! A fetch hands a worker up to `limits::FETCH_BATCH` tasks. Queues whose handler touches one row
//! each (hold expiry, reminders) let many run at once (`Job::BATCHED`): each call
//! submits its payload to the queue's [`Batcher`] and waits. The batcher takes what has been
//! submitted (at most its `max`), runs it as one batch (one transaction), and only then answers
//! every task of it: a task completes only after its batch committed, and a batch that fails fails
//! each of its tasks, which apalis tries again with backoff like any failed task. While a batch
//! runs, the next one gathers, so batches grow with the load and a lone task waits for nobody.

use std::{
    any::{Any, TypeId},
    collections::HashMap,
    future::Future,
    panic::AssertUnwindSafe,
    sync::{Arc, Mutex},
};

use apalis::prelude::BoxDynError;
use futures::FutureExt;
use sqlx::PgPool;
use tokio::sync::{mpsc, oneshot};

type Reply<O> = oneshot::Sender<Result<O, Arc<str>>>;

/// Gathers submitted items into batches that one background task runs in turn.
pub struct Batcher<I, O> {
    sender: mpsc::UnboundedSender<(I, Reply<O>)>,
}

impl<I: Send + 'static, O: Send + 'static> Batcher<I, O> {
    /// Starts the background task (on the current Tokio runtime); it ends when the batcher is
    /// dropped. `run` answers a batch with one output per item, in order.
    pub fn spawn<F, Fut>(max: usize, mut run: F) -> Self
    where
        F: FnMut(Vec<I>) -> Fut + Send + 'static,
        Fut: Future<Output = anyhow::Result<Vec<O>>> + Send,
    {
        let (sender, mut receiver) = mpsc::unbounded_channel::<(I, Reply<O>)>();
        tokio::spawn(async move {
            while let Some(first) = receiver.recv().await {
                let (mut items, mut replies) = (Vec::new(), Vec::new());
                let mut next = Some(first);
                loop {
                    while let Some((item, reply)) = next {
                        items.push(item);
                        replies.push(reply);
                        next = if items.len() < max.max(1) {
                            receiver.try_recv().ok()
                        } else {
                            None
                        };
                    }
                    // Tasks of one fetch are submitted one after the other: while more keep
                    // arriving, let them, rather than run the first ones alone.
                    if items.len() >= max.max(1) {
                        break;
                    }
                    tokio::task::yield_now().await;
                    next = receiver.try_recv().ok();
                    if next.is_none() {
                        break;
                    }
                }
                let n = items.len();
                // A panicking batch fails its tasks; the batcher goes on with the next.
                let outcome = match AssertUnwindSafe(run(items)).catch_unwind().await {
                    Ok(Ok(outputs)) if outputs.len() == n => Ok(outputs),
                    Ok(Ok(outputs)) => Err(format!("a batch of {n} answered {} results", outputs.len())),
                    Ok(Err(err)) => Err(format!("{err:#}")),
                    Err(_) => Err("the batch panicked".to_string()),
                };
                match outcome {
                    Ok(outputs) => {
                        for (reply, output) in replies.into_iter().zip(outputs) {
                            let _ = reply.send(Ok(output));
                        }
                    }
                    Err(error) => {
                        tracing::warn!(tasks = n, error, "a batch failed; its tasks will be tried again");
                        let error: Arc<str> = error.into();
                        for reply in replies {
                            let _ = reply.send(Err(error.clone()));
                        }
                    }
                }
            }
        });
        Self { sender }
    }

    /// Submits `item` now; the future resolves once its batch has run (committed), with its
    /// output or the batch's error.
    pub fn submit(&self, item: I) -> impl Future<Output = Result<O, BoxDynError>> + use<I, O> {
        let (reply, answer) = oneshot::channel();
        let sent = self.sender.send((item, reply)).is_ok();
        async move {
            if !sent {
                return Err("the batcher has stopped".into());
            }
            match answer.await {
                Ok(Ok(output)) => Ok(output),
                Ok(Err(error)) => Err(error.to_string().into()),
                Err(_) => Err("the batch ended without an answer".into()),
            }
        }
    }
}

/// The batchers of one `JobContext`, one per batch function, each started on its first task.
pub struct Batches {
    pool: PgPool,
    started: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl Batches {
    pub fn new(pool: PgPool) -> Self {
        Self {
            pool,
            started: Mutex::new(HashMap::new()),
        }
    }

    /// The batcher that runs `run` (a function: each has a type of its own) over batches of at
    /// most [`MAX_BATCH`](super::limits::MAX_BATCH) items, started on first use.
    pub fn of<I, O, F, Fut>(&self, run: F) -> Arc<Batcher<I, O>>
    where
        I: Send + 'static,
        O: Send + 'static,
        F: Fn(PgPool, Vec<I>) -> Fut + Copy + Send + 'static,
        Fut: Future<Output = anyhow::Result<Vec<O>>> + Send,
    {
        let mut started = self.started.lock().expect("not poisoned");
        let batcher = started.entry(TypeId::of::<F>()).or_insert_with(|| {
            let pool = self.pool.clone();
            Arc::new(Batcher::spawn(super::limits::MAX_BATCH, move |items| {
                run(pool.clone(), items)
            }))
        });
        batcher
            .clone()
            .downcast::<Batcher<I, O>>()
            .expect("one batch function, one batcher type")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test]
    async fn items_waiting_together_run_as_one_batch_and_each_gets_its_answer() {
        let batches = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (gate_tx, gate_rx) = tokio::sync::watch::channel(false);
        let seen = batches.clone();
        let batcher = Batcher::spawn(10, move |items: Vec<u32>| {
            seen.lock().unwrap().push(items.clone());
            let mut gate = gate_rx.clone();
            async move {
                // Every batch waits until the test opens the gate.
                gate.wait_for(|open| *open).await.unwrap();
                Ok(items.iter().map(|i| i * 2).collect())
            }
        });
        let first = batcher.submit(1);
        // The first batch has started, with its one item, once its run was called.
        while batches.lock().unwrap().is_empty() {
            tokio::task::yield_now().await;
        }
        // Submitted while the first batch runs: they wait together for the second.
        let rest: Vec<_> = (2..=4).map(|i| batcher.submit(i)).collect();
        gate_tx.send(true).unwrap();
        assert_eq!(first.await.unwrap(), 2);
        let mut answers = Vec::new();
        for r in rest {
            answers.push(r.await.unwrap());
        }
        assert_eq!(answers, [4, 6, 8]);
        assert_eq!(*batches.lock().unwrap(), [vec![1], vec![2, 3, 4]]);
    }

    #[tokio::test]
    async fn a_failed_or_panicking_batch_fails_each_of_its_tasks_and_the_next_batch_still_runs() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let batcher = Batcher::spawn(10, move |items: Vec<u32>| {
            let call = counted.fetch_add(1, Ordering::SeqCst);
            async move {
                match call {
                    0 => anyhow::bail!("database went away"),
                    1 => panic!("a bug"),
                    _ => Ok(items),
                }
            }
        });
        let err = batcher.submit(1).await.unwrap_err();
        assert!(err.to_string().contains("database went away"), "{err}");
        let err = batcher.submit(2).await.unwrap_err();
        assert!(err.to_string().contains("panicked"), "{err}");
        assert_eq!(batcher.submit(3).await.unwrap(), 3);
    }

    #[tokio::test]
    async fn a_batch_takes_at_most_max_items() {
        let sizes = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = sizes.clone();
        let batcher = Batcher::spawn(2, move |items: Vec<u32>| {
            seen.lock().unwrap().push(items.len());
            async move { Ok(items) }
        });
        // Five submitted before the batcher's task first runs (a current-thread runtime).
        let waiting: Vec<_> = (0..5).map(|i| batcher.submit(i)).collect();
        for (i, w) in waiting.into_iter().enumerate() {
            assert_eq!(w.await.unwrap(), i as u32);
        }
        assert_eq!(*sizes.lock().unwrap(), [2, 2, 1]);
    }
}
