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
use domain::{Config, mail::Mailer};
use sqlx::PgPool;

use crate::{cleanup, email, poll::Every, reservation_expiry, schedule};

/// What every job handler receives.
#[derive(Clone)]
pub struct JobContext {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub mailer: Mailer,
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

/// Every worker of every queue, ready to run.
pub fn monitor(ctx: JobContext, settings: Settings) -> Monitor {
    let emails = {
        let (ctx, settings) = (ctx.clone(), settings.clone());
        move |_restarts: usize| {
            WorkerBuilder::new(worker_name(email::QUEUE))
                .backend(storage::<email::EmailJob>(&ctx, &settings, email::QUEUE))
                .retry(retries(&settings, email::MAX_ATTEMPTS))
                .data(ctx.clone())
                .build(email::handle)
        }
    };
    let cleanups = {
        let (ctx, settings) = (ctx.clone(), settings.clone());
        move |_restarts: usize| {
            WorkerBuilder::new(worker_name(cleanup::QUEUE))
                .backend(storage::<cleanup::Cleanup>(&ctx, &settings, cleanup::QUEUE))
                .retry(retries(&settings, 3))
                .data(ctx.clone())
                .build(cleanup::handle)
        }
    };
    let expiries = {
        let (ctx, settings) = (ctx.clone(), settings.clone());
        move |_restarts: usize| {
            WorkerBuilder::new(worker_name(reservation_expiry::QUEUE))
                .backend(storage::<reservation_expiry::ExpireHold>(&ctx, &settings, reservation_expiry::QUEUE))
                .retry(retries(&settings, reservation_expiry::MAX_ATTEMPTS))
                .data(ctx.clone())
                .build(reservation_expiry::handle)
        }
    };
    let sweeps = move |_restarts: usize| {
        WorkerBuilder::new(worker_name(reservation_expiry::SWEEP_QUEUE))
            .backend(storage::<reservation_expiry::SweepHolds>(&ctx, &settings, reservation_expiry::SWEEP_QUEUE))
            .retry(retries(&settings, 3))
            .data(ctx.clone())
            .build(reservation_expiry::sweep)
    };
    Monitor::new()
        .register(emails)
        .register(cleanups)
        .register(expiries)
        .register(sweeps)
        .shutdown_timeout(Duration::from_secs(30))
}

/// The cron loops; they run until the process stops.
pub fn spawn_schedules(pool: PgPool) {
    tokio::spawn(schedule::run(
        pool.clone(),
        schedule::Recurring { queue: cleanup::QUEUE, schedule: cleanup::SCHEDULE, payload: |tick| cleanup::Cleanup { tick } },
    ));
    tokio::spawn(schedule::run(
        pool,
        schedule::Recurring {
            queue: reservation_expiry::SWEEP_QUEUE,
            schedule: reservation_expiry::SWEEP_SCHEDULE,
            payload: |tick| reservation_expiry::SweepHolds { tick },
        },
    ));
}
