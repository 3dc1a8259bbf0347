//! Builds the apalis workers for every queue; the `worker` binary and the tests both use this.

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
use sqlx::PgPool;
use tower::layer::util::{Identity, Stack};

use crate::{
    announcement_fanout, booking_completion, booking_reminders, call_timeout, cleanup,
    context::JobContext,
    email, group_sessions,
    job::{Job, Sweep},
    notification_fanout, payment_reconciliation, payout_batch,
    poll::{Every, Woken},
    refunds, reservation_expiry,
    retries::{RecordedRetries, SkipDiscardedLayer},
    schedule, supervision, upload_cleanup,
    wakeups::Wakeups,
};

/// Makes, from the list of every job, [`QUEUES`], the workers of [`monitor`] (each with its
/// job's `MAX_ATTEMPTS` tries) and the cron loops of [`spawn_schedules`].
macro_rules! jobs {
    ($($kind:ident $job:ty => $handler:path;)*) => {
        /// Every queue the worker serves (for `/api/health` and the supervisor).
        pub const QUEUES: &[&str] = &[$(<$job as Job>::QUEUE),*];

        fn register_all(m: Monitor, ctx: &JobContext, settings: &Settings, wakeups: &Wakeups) -> Monitor {
            $(
                let m = {
                    let (ctx, settings, wakeups) = (ctx.clone(), settings.clone(), wakeups.clone());
                    m.register(move |restarts: usize| {
                        worker::<$job>(&ctx.pool, &settings, &wakeups, restarts)
                            .data(ctx.clone())
                            .build($handler)
                    })
                };
            )*
            m
        }

        /// Every sweep's queue and cron schedule.
        pub fn sweeps() -> Vec<(&'static str, &'static str)> {
            [$(jobs!(@sweep $kind $job)),*].into_iter().flatten().collect()
        }

        /// Every sweep's queue and the cron schedule this process runs ([`Sweep::schedule`]).
        pub fn schedules() -> Vec<(&'static str, std::borrow::Cow<'static, str>)> {
            [$(jobs!(@schedules $kind $job)),*].into_iter().flatten().collect()
        }

        /// The cron loops of every sweep; they run until the process stops.
        pub fn spawn_schedules(pool: PgPool) {
            $(jobs!(@schedule $kind $job, pool);)*
        }
    };
    (@sweep job $job:ty) => {
        None
    };
    (@sweep sweep $job:ty) => {
        Some((<$job as Job>::QUEUE, <$job as Sweep>::SCHEDULE))
    };
    (@schedules job $job:ty) => {
        None
    };
    (@schedules sweep $job:ty) => {
        Some((<$job as Job>::QUEUE, <$job as Sweep>::schedule()))
    };
    (@schedule job $job:ty, $pool:ident) => {};
    (@schedule sweep $job:ty, $pool:ident) => {
        tokio::spawn(schedule::run::<$job>($pool.clone()));
    };
}

// Every job, once: `job <payload> => <handler>;` for a job the code queues, `sweep ...` for one
// its cron schedule (`Sweep::SCHEDULE`) queues.
jobs! {
    job email::EmailJob => email::handle;
    sweep cleanup::Cleanup => cleanup::handle;
    job reservation_expiry::ExpireHold => reservation_expiry::handle;
    sweep reservation_expiry::SweepHolds => reservation_expiry::sweep;
    job booking_reminders::Remind => booking_reminders::handle;
    sweep booking_reminders::SweepReminders => booking_reminders::sweep;
    job booking_completion::Complete => booking_completion::handle;
    sweep booking_completion::SweepCompletions => booking_completion::sweep;
    job refunds::PayRefund => refunds::handle;
    job upload_cleanup::DeleteUpload => upload_cleanup::handle;
    job payment_reconciliation::Reconcile => payment_reconciliation::handle;
    sweep payment_reconciliation::SweepAttempts => payment_reconciliation::sweep;
    job domain::notifications::FanOut => notification_fanout::handle;
    job call_timeout::MissCall => call_timeout::handle;
    job call_timeout::EndDroppedCall => call_timeout::handle_grace;
    sweep payout_batch::RunPayouts => payout_batch::handle;
    job group_sessions::GroupSessionStep => group_sessions::handle;
    sweep group_sessions::SweepGroupSessions => group_sessions::sweep;
    job announcement_fanout::Announce => announcement_fanout::handle;
}

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

pub const MISSED_HEARTBEATS: usize = 3;
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

/// Tasks one fetch takes (and one acknowledgement statement completes) at most: large enough
/// that one worker works through a backlog at 13,000 to 16,000 no-op tasks a second on the 2-core
/// machine (measured by `worker bench`; 4,200 with 500).
pub const FETCH_BATCH: usize = 2000;
/// Tasks of one queue that run at once in one worker process unless its job says otherwise
/// (`Job::CONCURRENCY`): a fetched batch is worked through this many at a time, below the worker's
/// database pool (a batch of 2,000 handlers at once, each with a connection of its own, would wait
/// for its 11 connections past their acquire timeout). Batched queues (`batch`) run a whole fetch
/// at once: their tasks wait on one statement per batch, not on a connection each.
pub const MAX_RUNNING_PER_QUEUE: usize = 8;

impl Settings {
    /// A queue with no worker heartbeat for this long is not being polled.
    pub fn silent_after(&self) -> Duration {
        self.heartbeat * MISSED_HEARTBEATS as u32
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            poll_every: SAFETY_POLL_EVERY,
            retry_min: Duration::from_secs(2),
            retry_max: Duration::from_secs(120),
            heartbeat: Duration::from_secs(10),
        }
    }
}

/// Indexes apalis' first migration made that later ones repeat under other names: `unique_job_id`
/// is the primary key again, `lidx` is `idx_apalis_jobs_lock_by`. A fetch and an acknowledgement
/// each rewrite every task's row with a new lock or status, and each index costs a write per task
/// (a fetch of 2,000 took 50 ms with them, 43 without).
pub const REDUNDANT_APALIS_INDEXES: [&str; 2] = ["apalis.unique_job_id", "apalis.lidx"];

/// What apalis writes into a task it hands back to the queue when its worker stops: one the
/// worker fetched but never started.
pub const HANDED_BACK_RESULT: &str = r#"{"Err": "Re-enqueued due to worker shutdown"}"#;

/// Makes handing a task back not count as a try: apalis adds one to `attempts` (and overwrites the
/// last error) for every task a stopping worker hands back, so a task handed back by a few
/// restarts would have used up its tries without running. The trigger keeps both as they were.
const KEEP_TRIES_OF_HANDED_BACK: &str = r#"
CREATE OR REPLACE FUNCTION apalis.keep_tries_of_handed_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.last_result = $handed_back$HANDED_BACK$handed_back$::jsonb THEN
        NEW.attempts := OLD.attempts;
        NEW.last_result := OLD.last_result;
    END IF;
    RETURN NEW;
END
$$;
CREATE OR REPLACE TRIGGER keep_tries_of_handed_back BEFORE UPDATE ON apalis.jobs FOR EACH ROW
    WHEN (NEW.status = 'Pending' AND OLD.status IN ('Queued', 'Running'))
    EXECUTE FUNCTION apalis.keep_tries_of_handed_back();
"#;

/// Announces the tasks an insert queued due now once per queue and statement, not once per task:
/// apalis' own trigger sends one NOTIFY per row, so a batch that queues 6,000 follow-up tasks sent
/// 6,000 notifications for every listening worker to read, where the wake-ups (`wakeups`) only
/// need the queue's name. The payload keeps apalis' shape (`job_type`, an `id`, the earliest
/// `run_at`).
const NOTIFY_PER_STATEMENT: &str = r#"
CREATE OR REPLACE FUNCTION apalis.notify_new_jobs_per_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('apalis::job::insert',
                      json_build_object('job_type', job_type, 'id', min(id), 'run_at', min(run_at))::text)
    FROM inserted WHERE run_at <= now() GROUP BY job_type;
    RETURN NULL;
END
$$;
DO $$
BEGIN
    -- Replaced once: later starts find the statement-level trigger and leave the table alone.
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'notify_workers_per_statement'
                   AND tgrelid = 'apalis.jobs'::regclass) THEN
        DROP TRIGGER IF EXISTS notify_workers ON apalis.jobs;
        CREATE TRIGGER notify_workers_per_statement AFTER INSERT ON apalis.jobs
            REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
            EXECUTE FUNCTION apalis.notify_new_jobs_per_statement();
    END IF;
END
$$;
"#;

/// Creates apalis' own schema (`apalis.*`), separate from ours, without its redundant indexes,
/// with handing a task back not counted as a try and one announcement per insert statement and
/// queue; idempotent, also when workers start together.
pub async fn setup_storage(pool: &PgPool) -> anyhow::Result<()> {
    PostgresStorage::<()>::setup(pool)
        .await
        .map_err(|e| anyhow::anyhow!("setting up the job storage failed: {e}"))?;
    let mut tx = pool.begin().await?;
    // Two workers replacing one function at once would fail ("tuple concurrently updated").
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('jobs::runtime::setup_storage'))")
        .execute(&mut *tx)
        .await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP INDEX IF EXISTS {}",
        REDUNDANT_APALIS_INDEXES.join(", ")
    )))
    .execute(&mut *tx)
    .await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(
        KEEP_TRIES_OF_HANDED_BACK.replace("HANDED_BACK", HANDED_BACK_RESULT),
    ))
    .execute(&mut *tx)
    .await?;
    sqlx::raw_sql(NOTIFY_PER_STATEMENT).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

/// What [`worker`] gives: a queue's storage with its limit of tasks at once and its retries.
pub type QueueWorker<J> = WorkerBuilder<
    J,
    PollWith<PostgresStorage<J>, Woken>,
    Stack<
        crate::metrics::MeteredLayer,
        Stack<SkipDiscardedLayer, Stack<RetryLayer<RecordedRetries>, Stack<ConcurrencyLimitLayer, Identity>>>,
    >,
>;

/// `J`'s queue worker as the worker process runs it, for its `restarts`-th start; the caller adds
/// its data and handler (`worker bench` runs its no-op queue through this too).
pub fn worker<J: Job>(pool: &PgPool, settings: &Settings, wakeups: &Wakeups, restarts: usize) -> QueueWorker<J> {
    WorkerBuilder::new(worker_name(J::QUEUE))
        .backend(storage::<J>(pool, settings, wakeups, restarts))
        .concurrency(J::CONCURRENCY)
        .retry(RecordedRetries::new(retries(settings, J::MAX_ATTEMPTS), pool.clone()))
        .layer(SkipDiscardedLayer)
        // Inside the retries: every attempt is counted and timed.
        .layer(crate::metrics::MeteredLayer::new(J::QUEUE))
}

/// The storage of `J`'s queue for its worker's `restarts`-th start, woken by `wakeups`.
fn storage<J: Job>(
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

/// Sets aside what no worker could decode, in every queue, before the workers start.
pub async fn set_aside_undecodable(pool: &PgPool) -> anyhow::Result<()> {
    for queue in QUEUES {
        let n = supervision::set_aside_undecodable(pool, queue).await?;
        if n > 0 {
            tracing::error!(queue, tasks = n, "set aside tasks that no worker can decode");
        }
    }
    Ok(())
}

/// Every worker of every queue, ready to run. A worker that ends with an error is restarted
/// (after `supervision::restart_delay`), however often.
pub fn monitor(ctx: JobContext, settings: Settings) -> Monitor {
    let wakeups = Wakeups::start(&ctx.pool, QUEUES);
    monitor_with(ctx, settings, &wakeups)
}

/// [`monitor`] with the caller's [`Wakeups`] (which must know every queue in [`QUEUES`]), for
/// a process that also registers queues of its own (the benchmark's).
pub fn monitor_with(ctx: JobContext, settings: Settings, wakeups: &Wakeups) -> Monitor {
    let pool = ctx.pool.clone();
    let m = Monitor::new()
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
        });
    register_all(m, &ctx, &settings, wakeups)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queued tasks carry these names, tries and ticks: they never change.
    #[test]
    fn queues_attempts_and_schedules_stay_as_they_were() {
        assert_eq!(
            QUEUES,
            [
                "emails",
                "cleanup",
                "reservation_expiry",
                "reservation_expiry_sweep",
                "booking_reminders",
                "booking_reminders_sweep",
                "booking_completion",
                "booking_completion_sweep",
                "refunds",
                "upload_cleanup",
                "payment_reconciliation",
                "payment_reconciliation_sweep",
                "notification_fanout",
                "call_timeout",
                "call_reconnect_grace",
                "payout_batch",
                "group_session_state",
                "group_session_state_sweep",
                "announcement_fanout",
            ]
        );
        let attempts = [
            email::EmailJob::MAX_ATTEMPTS,
            reservation_expiry::ExpireHold::MAX_ATTEMPTS,
            booking_reminders::Remind::MAX_ATTEMPTS,
            booking_completion::Complete::MAX_ATTEMPTS,
            refunds::PayRefund::MAX_ATTEMPTS,
            upload_cleanup::DeleteUpload::MAX_ATTEMPTS,
            payment_reconciliation::Reconcile::MAX_ATTEMPTS,
            cleanup::Cleanup::MAX_ATTEMPTS,
            domain::notifications::FanOut::MAX_ATTEMPTS,
            call_timeout::MissCall::MAX_ATTEMPTS,
            call_timeout::EndDroppedCall::MAX_ATTEMPTS,
            payout_batch::RunPayouts::MAX_ATTEMPTS,
            group_sessions::GroupSessionStep::MAX_ATTEMPTS,
            announcement_fanout::Announce::MAX_ATTEMPTS,
        ];
        assert_eq!(attempts, [5, 10, 5, 5, 8, 5, 20, 3, 10, 5, 5, 3, 5, 10]);
        assert_eq!(
            sweeps(),
            [
                ("cleanup", "0 30 3 * * *"),
                ("reservation_expiry_sweep", "0 * * * * *"),
                ("booking_reminders_sweep", "0 */5 * * * *"),
                ("booking_completion_sweep", "0 0 * * * *"),
                ("payment_reconciliation_sweep", "30 * * * * *"),
                ("payout_batch", "0 0 6 * * Mon"),
                ("group_session_state_sweep", "*/15 * * * * *"),
            ]
        );
    }

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

    #[test]
    fn every_schedule_is_a_valid_cron_expression() {
        use std::str::FromStr;
        for (queue, schedule) in sweeps() {
            assert!(cron::Schedule::from_str(schedule).is_ok(), "{queue}: {schedule}");
        }
    }
}
