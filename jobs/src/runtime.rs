//! Builds the apalis workers for every queue; the `worker` binary and the tests both use this.

use std::{sync::Arc, time::Duration};

use apalis::{
    layers::retry::{
        BackoffRetryPolicy, HasherRng, RetryPolicy,
        backoff::{ExponentialBackoff, ExponentialBackoffMaker, MakeBackoff},
    },
    prelude::{Monitor, PollWith, WorkerBuilder, WorkerBuilderExt},
};
use apalis_postgres::{Config as QueueConfig, PostgresStorage};
use domain::{Config, mail::Mailer, payments::PaymentGateway};
use sqlx::PgPool;

use crate::{
    booking_completion, booking_reminders, cleanup, email, payment_reconciliation, poll::Every, refunds, reservation_expiry, schedule,
    supervision, upload_cleanup,
};

/// Every queue the worker serves (for `/api/health` and the supervisor).
pub const QUEUES: &[&str] = &[
    email::QUEUE,
    cleanup::QUEUE,
    reservation_expiry::QUEUE,
    reservation_expiry::SWEEP_QUEUE,
    booking_reminders::QUEUE,
    booking_reminders::SWEEP_QUEUE,
    booking_completion::QUEUE,
    booking_completion::SWEEP_QUEUE,
    refunds::QUEUE,
    upload_cleanup::QUEUE,
    payment_reconciliation::QUEUE,
    payment_reconciliation::SWEEP_QUEUE,
];

/// What every job handler receives.
#[derive(Clone)]
pub struct JobContext {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub mailer: Mailer,
    pub gateway: Arc<dyn PaymentGateway>,
}

impl JobContext {
    pub fn new(pool: PgPool, config: Config) -> anyhow::Result<Self> {
        let mailer = Mailer::from_config(&config)?;
        let gateway = domain::payments::gateway_from_config(&config, &pool)?;
        Ok(Self { pool, config: Arc::new(config), mailer, gateway })
    }
}

#[derive(Clone, Debug)]
pub struct Settings {
    /// How often an idle worker looks for due tasks.
    pub poll_every: Duration,
    pub retry_min: Duration,
    pub retry_max: Duration,
    /// How often a worker proves it is alive; tasks of a worker silent for
    /// `heartbeat * MISSED_HEARTBEATS` are taken over by another.
    pub heartbeat: Duration,
}

pub const MISSED_HEARTBEATS: usize = 3;

impl Settings {
    /// A queue with no worker heartbeat for this long is not being polled.
    pub fn silent_after(&self) -> Duration {
        self.heartbeat * MISSED_HEARTBEATS as u32
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            poll_every: Duration::from_millis(200),
            retry_min: Duration::from_secs(2),
            retry_max: Duration::from_secs(120),
            heartbeat: Duration::from_secs(10),
        }
    }
}

/// Creates apalis' own schema (`apalis.*`), separate from ours; idempotent.
pub async fn setup_storage(pool: &PgPool) -> anyhow::Result<()> {
    PostgresStorage::<()>::setup(pool)
        .await
        .map_err(|e| anyhow::anyhow!("setting up the job storage failed: {e}"))
}

fn storage<T>(ctx: &JobContext, settings: &Settings, queue: &str, restarts: usize) -> PollWith<PostgresStorage<T>, Every> {
    let config = QueueConfig::default()
        .queue(queue)
        .heartbeat_interval(settings.heartbeat)
        .missed_heartbeats(MISSED_HEARTBEATS);
    let poll = Every::new(settings.poll_every).first_after(supervision::restart_delay(restarts));
    PollWith::new(PostgresStorage::new(&ctx.pool).with_config(config), poll)
}

fn retries(settings: &Settings, max_attempts: usize) -> BackoffRetryPolicy<ExponentialBackoff> {
    let backoff = ExponentialBackoffMaker::new(settings.retry_min, settings.retry_max, 0.5, HasherRng::default())
        .expect("valid backoff bounds")
        .make_backoff();
    RetryPolicy::retries(max_attempts.saturating_sub(1)).with_backoff(backoff)
}

/// A name unique to this process (apalis refuses two live workers with one name) that starts
/// with its queue (`supervision::queue_of`).
fn worker_name(queue: &str) -> String {
    format!("{queue}@{}-{}", std::process::id(), uuid::Uuid::new_v4().simple())
}

/// Registers a worker for `queue`, running `handler` on `Args` with up to `max_attempts` tries.
macro_rules! register {
    ($monitor:expr, $ctx:expr, $settings:expr, $args:ty, $queue:expr, $max_attempts:expr, $handler:expr) => {{
        let (ctx, settings) = ($ctx.clone(), $settings.clone());
        $monitor.register(move |restarts: usize| {
            WorkerBuilder::new(worker_name($queue))
                .backend(storage::<$args>(&ctx, &settings, $queue, restarts))
                .retry(retries(&settings, $max_attempts))
                .data(ctx.clone())
                .build($handler)
        })
    }};
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
    let pool = ctx.pool.clone();
    let m = Monitor::new().shutdown_timeout(Duration::from_secs(30)).should_restart(move |worker, error| {
        let queue = supervision::queue_of(worker.name()).to_string();
        let error = error.to_string();
        tracing::error!(queue, error, restarts = worker.restarts(), "a queue's worker failed; restarting it");
        let pool = pool.clone();
        tokio::spawn(async move { supervision::worker_failed(&pool, &queue, &error).await });
        true
    });
    let m = register!(m, ctx, settings, email::EmailJob, email::QUEUE, email::MAX_ATTEMPTS, email::handle);
    let m = register!(m, ctx, settings, cleanup::Cleanup, cleanup::QUEUE, 3, cleanup::handle);
    let m = register!(
        m, ctx, settings, upload_cleanup::DeleteUpload, upload_cleanup::QUEUE, upload_cleanup::MAX_ATTEMPTS, upload_cleanup::handle
    );
    let m = register!(
        m, ctx, settings, reservation_expiry::ExpireHold, reservation_expiry::QUEUE, reservation_expiry::MAX_ATTEMPTS, reservation_expiry::handle
    );
    let m = register!(m, ctx, settings, reservation_expiry::SweepHolds, reservation_expiry::SWEEP_QUEUE, 3, reservation_expiry::sweep);
    let m = register!(
        m, ctx, settings, booking_reminders::Remind, booking_reminders::QUEUE, booking_reminders::MAX_ATTEMPTS, booking_reminders::handle
    );
    let m = register!(m, ctx, settings, booking_reminders::SweepReminders, booking_reminders::SWEEP_QUEUE, 3, booking_reminders::sweep);
    let m = register!(
        m, ctx, settings, booking_completion::Complete, booking_completion::QUEUE, booking_completion::MAX_ATTEMPTS, booking_completion::handle
    );
    let m = register!(m, ctx, settings, booking_completion::SweepCompletions, booking_completion::SWEEP_QUEUE, 3, booking_completion::sweep);
    let m = register!(
        m, ctx, settings, payment_reconciliation::Reconcile, payment_reconciliation::QUEUE, payment_reconciliation::MAX_ATTEMPTS,
        payment_reconciliation::handle
    );
    let m = register!(
        m, ctx, settings, payment_reconciliation::SweepAttempts, payment_reconciliation::SWEEP_QUEUE, 3, payment_reconciliation::sweep
    );
    register!(m, ctx, settings, refunds::PayRefund, refunds::QUEUE, refunds::MAX_ATTEMPTS, refunds::handle)
}

/// The cron loops; they run until the process stops.
pub fn spawn_schedules(pool: PgPool) {
    use schedule::Recurring;
    tokio::spawn(schedule::run(
        pool.clone(),
        Recurring { queue: cleanup::QUEUE, schedule: cleanup::SCHEDULE, payload: |tick| cleanup::Cleanup { tick } },
    ));
    tokio::spawn(schedule::run(
        pool.clone(),
        Recurring {
            queue: reservation_expiry::SWEEP_QUEUE,
            schedule: reservation_expiry::SWEEP_SCHEDULE,
            payload: |tick| reservation_expiry::SweepHolds { tick },
        },
    ));
    tokio::spawn(schedule::run(
        pool.clone(),
        Recurring {
            queue: booking_reminders::SWEEP_QUEUE,
            schedule: booking_reminders::SWEEP_SCHEDULE,
            payload: |tick| booking_reminders::SweepReminders { tick },
        },
    ));
    tokio::spawn(schedule::run(
        pool.clone(),
        Recurring {
            queue: payment_reconciliation::SWEEP_QUEUE,
            schedule: payment_reconciliation::SWEEP_SCHEDULE,
            payload: |tick| payment_reconciliation::SweepAttempts { tick },
        },
    ));
    tokio::spawn(schedule::run(
        pool,
        Recurring {
            queue: booking_completion::SWEEP_QUEUE,
            schedule: booking_completion::SWEEP_SCHEDULE,
            payload: |tick| booking_completion::SweepCompletions { tick },
        },
    ));
}
