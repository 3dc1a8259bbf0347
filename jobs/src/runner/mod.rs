//! How jobs run, whatever they do: each queue's apalis worker (its storage woken by `wakeups`,
//! its tries and backoff, its metrics), the monitor that restarts a failed one (`supervision`),
//! cron loops (`schedule`), batches (`batch`) and the limits (`limits`). Nothing here names a job:
//! `crate::registry` makes every job's worker from `domain::every_job!` and the handlers.

pub mod batch;
pub mod limits;
pub mod metrics;
mod poll;
pub mod retries;
pub mod schedule;
pub mod supervision;
pub mod wakeups;

use std::time::Duration;

use apalis::{
    layers::{
        limit::ConcurrencyLimitLayer,
        retry::{
            BackoffRetryPolicy, HasherRng, RetryLayer, RetryPolicy,
            backoff::{ExponentialBackoff, ExponentialBackoffMaker, MakeBackoff},
        },
    },
    prelude::{Monitor, PollWith, WorkerBuilder, WorkerBuilderExt},
};
use apalis_postgres::{Config as QueueConfig, PostgresStorage};
use domain::job_queue::{
    Job,
    storage::{self, MISSED_HEARTBEATS},
};
use sqlx::PgPool;
use tower::layer::util::{Identity, Stack};

use self::{
    limits::FETCH_BATCH,
    poll::{Every, Woken},
    retries::{RecordedRetries, SkipDiscardedLayer},
    wakeups::Wakeups,
};

#[derive(Clone, Debug)]
pub struct Settings {
    /// How often a queue looks for due tasks unasked, a safety net: a task queued due now wakes
    /// its queue at once and a scheduled one on time (`wakeups`).
    pub poll_every: Duration,
    pub retry_min: Duration,
    pub retry_max: Duration,
    /// How often a worker proves it is alive; tasks of a worker silent for
    /// `heartbeat * MISSED_HEARTBEATS` are taken over by another.
    pub heartbeat: Duration,
}

/// The default of [`Settings::poll_every`].
pub const SAFETY_POLL_EVERY: Duration = Duration::from_secs(30);
/// How long a worker told to stop (SIGTERM) lets its running tasks finish before it exits
/// anyway. It fetches nothing more meanwhile, and hands the tasks it fetched but has not started
/// back to the queue for another worker; a task cut off at the end stays locked by this worker
/// until another sees it silent for [`Settings::silent_after`] and runs it again.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// Resolves [`SHUTDOWN_GRACE`] after it is first polled (the monitor polls it once told to stop),
/// not after it is made: the monitor is made when the worker starts.
pub async fn grace_period() {
    tokio::time::sleep(SHUTDOWN_GRACE).await
}

impl Settings {
    /// A queue with no worker heartbeat for this long is not being polled.
    pub fn silent_after(&self) -> Duration {
        storage::silent_after(self.heartbeat)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            poll_every: SAFETY_POLL_EVERY,
            retry_min: Duration::from_secs(2),
            retry_max: Duration::from_secs(120),
            heartbeat: storage::HEARTBEAT,
        }
    }
}

/// What [`worker`] gives: a queue's storage with its limit of tasks at once and its retries.
pub type QueueWorker<J> = WorkerBuilder<
    J,
    PollWith<PostgresStorage<J>, Woken>,
    Stack<
        metrics::MeteredLayer,
        Stack<SkipDiscardedLayer, Stack<RetryLayer<RecordedRetries>, Stack<ConcurrencyLimitLayer, Identity>>>,
    >,
>;

/// `J`'s queue worker as the worker process runs it, for its `restarts`-th start; the caller adds
/// its data and handler (`tools bench-jobs` runs its no-op queue through this too).
pub fn worker<J: Job>(pool: &PgPool, settings: &Settings, wakeups: &Wakeups, restarts: usize) -> QueueWorker<J> {
    WorkerBuilder::new(worker_name(J::QUEUE))
        .backend(queue_storage::<J>(pool, settings, wakeups, restarts))
        .concurrency(limits::concurrency::<J>())
        .retry(RecordedRetries::new(retries(settings, J::MAX_ATTEMPTS), pool.clone()))
        .layer(SkipDiscardedLayer)
        // Inside the retries: every attempt is counted and timed.
        .layer(metrics::MeteredLayer::new(J::QUEUE))
}

/// The storage of `J`'s queue for its worker's `restarts`-th start, woken by `wakeups`.
fn queue_storage<J: Job>(
    pool: &PgPool,
    settings: &Settings,
    wakeups: &Wakeups,
    restarts: usize,
) -> PollWith<PostgresStorage<J>, Woken> {
    let config = QueueConfig::default()
        .queue(J::QUEUE)
        .batch_size(FETCH_BATCH)
        .heartbeat_interval(settings.heartbeat)
        .missed_heartbeats(MISSED_HEARTBEATS);
    let safety = Every::new(settings.poll_every).first_after(supervision::restart_delay(restarts));
    PollWith::new(
        PostgresStorage::new(pool).with_config(config),
        Woken::new(wakeups.bell(J::QUEUE), safety),
    )
}

/// `max_attempts` tries in all, with exponential backoff between them.
fn retries(settings: &Settings, max_attempts: usize) -> BackoffRetryPolicy<ExponentialBackoff> {
    let backoff = ExponentialBackoffMaker::new(settings.retry_min, settings.retry_max, 0.5, HasherRng::default())
        .expect("valid backoff bounds")
        .make_backoff();
    RetryPolicy::retries(max_attempts.saturating_sub(1)).with_backoff(backoff)
}

/// A name unique to this process (apalis refuses two live workers with one name) that starts
/// with its queue (`supervision::queue_of`).
pub fn worker_name(queue: &str) -> String {
    format!("{queue}@{}-{}", std::process::id(), uuid::Uuid::new_v4().simple())
}

/// Sets aside what no worker could decode in `queues`, before the workers start.
pub async fn set_aside_undecodable(pool: &PgPool, queues: &[&str]) -> anyhow::Result<()> {
    for queue in queues {
        let n = supervision::set_aside_undecodable(pool, queue).await?;
        if n > 0 {
            tracing::error!(queue, tasks = n, "set aside tasks that no worker can decode");
        }
    }
    Ok(())
}

/// A monitor that restarts a queue's worker that ends with an error (after
/// `supervision::restart_delay`), however often, and gives running tasks [`SHUTDOWN_GRACE`] when
/// told to stop; the caller registers the workers.
pub fn supervised(pool: &PgPool) -> Monitor {
    let pool = pool.clone();
    Monitor::new()
        .with_terminator(grace_period())
        .should_restart(move |worker, error| {
            let queue = supervision::queue_of(worker.name()).to_string();
            let error = error.to_string();
            tracing::error!(
                queue,
                error,
                restarts = worker.restarts(),
                "a queue's worker failed; restarting it"
            );
            let pool = pool.clone();
            tokio::spawn(async move { supervision::worker_failed(&pool, &queue, &error).await });
            true
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    mod shutdown {
        use std::sync::{
            Arc, Mutex,
            atomic::{AtomicBool, Ordering},
        };

        use apalis::prelude::{BoxDynError, Data, MemoryStorage, TaskSink};
        use tokio::{sync::Notify, time::Instant};

        use super::super::*;

        #[derive(Default)]
        struct Seen {
            started: Notify,
            finished: AtomicBool,
        }

        async fn slow(millis: u64, seen: Data<Arc<Seen>>) -> Result<(), BoxDynError> {
            seen.started.notify_one();
            tokio::time::sleep(Duration::from_millis(millis)).await;
            seen.finished.store(true, Ordering::SeqCst);
            Ok(())
        }

        /// A monitor stopped like the worker process's (its terminator) while its one task,
        /// which takes `takes`, runs; the monitor was made long before. Whether the task
        /// finished, and how long the monitor took to stop once told to.
        async fn stop_while_running(takes: Duration) -> (bool, Duration) {
            let mut store = MemoryStorage::new();
            store.push(takes.as_millis() as u64).await.expect("pushed");
            let store = Mutex::new(Some(store));
            let seen = Arc::new(Seen::default());
            let monitor = Monitor::new().with_terminator(grace_period()).register({
                let seen = seen.clone();
                move |_| {
                    let store = store.lock().expect("not poisoned").take().expect("started once");
                    WorkerBuilder::new("slow").backend(store).data(seen.clone()).build(slow)
                }
            });
            // The grace counts from the signal, not from when the monitor was made.
            tokio::time::sleep(SHUTDOWN_GRACE * 2).await;
            let told = Arc::new(Mutex::new(None));
            let signal = {
                let (seen, told) = (seen.clone(), told.clone());
                async move {
                    seen.started.notified().await;
                    *told.lock().expect("not poisoned") = Some(Instant::now());
                    Ok(())
                }
            };
            monitor.run_with_signal(signal).await.expect("stops cleanly");
            let told = told.lock().expect("not poisoned").expect("the signal came");
            (seen.finished.load(Ordering::SeqCst), told.elapsed())
        }

        #[tokio::test(start_paused = true)]
        async fn a_task_finishing_within_the_grace_finishes_before_the_worker_stops() {
            let takes = SHUTDOWN_GRACE - Duration::from_millis(1);
            let (finished, stop_took) = stop_while_running(takes).await;
            assert!(finished);
            assert_eq!(stop_took, takes);
        }

        #[tokio::test(start_paused = true)]
        async fn a_task_running_past_the_grace_is_cut_off_when_it_ends() {
            let (finished, stop_took) = stop_while_running(SHUTDOWN_GRACE + Duration::from_millis(1)).await;
            assert!(!finished);
            assert_eq!(stop_took, SHUTDOWN_GRACE);
        }

        #[test]
        fn the_grace_is_thirty_seconds() {
            assert_eq!(SHUTDOWN_GRACE, Duration::from_secs(30));
        }
    }

    #[test]
    fn queues_poll_unasked_at_the_safety_interval_by_default() {
        assert_eq!(Settings::default().poll_every, SAFETY_POLL_EVERY);
    }
}
