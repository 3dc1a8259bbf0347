//! Builds the apalis workers for every queue; the `worker` binary and the tests both use this.

use std::{sync::Arc, time::Duration};

use apalis::{
    layers::retry::{
        BackoffRetryPolicy, HasherRng, RetryPolicy,
        backoff::{ExponentialBackoff, ExponentialBackoffMaker, MakeBackoff},
    },
    prelude::{Monitor, PollWith, WorkerBuilder, WorkerBuilderExt, WorkerContext, WorkerError},
};
use apalis_postgres::{Config as QueueConfig, PostgresStorage};
use domain::{Config, mail::Mailer, payments::PaymentGateway};
use sqlx::PgPool;

use crate::{booking_completion, booking_reminders, cleanup, email, poll::Every, refunds, reservation_expiry, schedule};

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
        let gateway = domain::payments::gateway_from_config(&config)?;
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

fn storage<T>(ctx: &JobContext, settings: &Settings, queue: &str) -> PollWith<PostgresStorage<T>, Every> {
    let config = QueueConfig::default()
        .queue(queue)
        .heartbeat_interval(settings.heartbeat)
        .missed_heartbeats(MISSED_HEARTBEATS);
    PollWith::new(PostgresStorage::new(&ctx.pool).with_config(config), Every::new(settings.poll_every))
}

fn retries(settings: &Settings, max_attempts: usize) -> BackoffRetryPolicy<ExponentialBackoff> {
    let backoff = ExponentialBackoffMaker::new(settings.retry_min, settings.retry_max, 0.5, HasherRng::default())
        .expect("valid backoff bounds")
        .make_backoff();
    RetryPolicy::retries(max_attempts.saturating_sub(1)).with_backoff(backoff)
}

/// A name unique to this process: apalis refuses two live workers with one name.
fn worker_name(queue: &str) -> String {
    format!("{queue}-{}-{}", std::process::id(), uuid::Uuid::new_v4().simple())
}

/// Registers a worker for `queue`, running `handler` on `Args` with up to `max_attempts` tries.
macro_rules! register {
    ($monitor:expr, $ctx:expr, $settings:expr, $args:ty, $queue:expr, $max_attempts:expr, $handler:expr) => {{
        let (ctx, settings) = ($ctx.clone(), $settings.clone());
        $monitor.register(move |_restarts: usize| {
            WorkerBuilder::new(worker_name($queue))
                .backend(storage::<$args>(&ctx, &settings, $queue))
                .retry(retries(&settings, $max_attempts))
                .data(ctx.clone())
                .build($handler)
        })
    }};
}

/// A worker whose storage fails (the database stopped, restarting or unreachable) is started again
/// instead of ending, which would end the process: the worker rides out an outage and resumes.
/// The pool's acquire timeout paces the attempts while the database is away.
fn restart_after(_: &WorkerContext, error: &WorkerError) -> bool {
    matches!(error, WorkerError::BackendError(_))
}

/// Every worker of every queue, ready to run.
pub fn monitor(ctx: JobContext, settings: Settings) -> Monitor {
    let m = Monitor::new().shutdown_timeout(Duration::from_secs(30)).should_restart(restart_after);
    let m = register!(m, ctx, settings, email::EmailJob, email::QUEUE, email::MAX_ATTEMPTS, email::handle);
    let m = register!(m, ctx, settings, cleanup::Cleanup, cleanup::QUEUE, 3, cleanup::handle);
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
        pool,
        Recurring {
            queue: booking_completion::SWEEP_QUEUE,
            schedule: booking_completion::SWEEP_SCHEDULE,
            payload: |tick| booking_completion::SweepCompletions { tick },
        },
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_storage_failures_restart_a_worker() {
        let ctx = WorkerContext::new("restart-test");
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        assert!(restart_after(&ctx, &WorkerError::BackendError(Box::new(refused))));
        assert!(!restart_after(&ctx, &WorkerError::PanicError("boom".into())));
    }
}
