//! What makes a payload a durable job: its queue, its attempts and the key that keeps it from
//! being queued twice. A job is queued with [`Job::enqueue`] inside the caller's transaction; the
//! `jobs` crate's runner runs it with the handler it declares for it (docs/adding-a-job.md).

use std::future::Future;

use chrono::{DateTime, Utc};
use serde::{Serialize, de::DeserializeOwned};
use sqlx::PgConnection;

use super::{PushError, PushOptions};

pub trait Job: Serialize + DeserializeOwned + Send + Sync + Unpin + 'static {
    /// The queue's name in `apalis.jobs`; never rename it (queued tasks keep the old one).
    const QUEUE: &'static str;
    /// Tries in all (the first and its retries with backoff) before the task is marked failed.
    const MAX_ATTEMPTS: usize;
    /// Whether its handler submits to a batch (one statement for many tasks) instead of using a
    /// connection of its own; the runner then runs all of a fetch at once (`jobs::runner::limits`).
    const BATCHED: bool = false;

    /// At most one task with this key ever exists in the queue. `run_at` is the time it is
    /// queued for, for the jobs whose identity includes it.
    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        None
    }

    /// Queues the job to run now; one already queued under its key counts as queued.
    fn enqueue(&self, conn: &mut PgConnection) -> impl Future<Output = crate::Result<()>> + Send {
        push(self, conn, None)
    }

    /// Queues the job to run at `at` or at most a second later, never before.
    fn enqueue_at(&self, conn: &mut PgConnection, at: DateTime<Utc>) -> impl Future<Output = crate::Result<()>> + Send {
        push(self, conn, Some(at))
    }
}

async fn push<J: Job>(job: &J, conn: &mut PgConnection, run_at: Option<DateTime<Utc>>) -> crate::Result<()> {
    let options = PushOptions {
        run_at,
        idempotency_key: job.idempotency_key(run_at),
        max_attempts: Some(J::MAX_ATTEMPTS),
    };
    match super::push(conn, J::QUEUE, job, options).await {
        Ok(()) | Err(PushError::AlreadyQueued) => Ok(()),
        Err(err) => Err(err.into()),
    }
}

/// A job queued by a cron schedule, one task per tick however many workers run it.
pub trait Sweep: Job {
    /// Seconds, minutes, hours, day of month, month, day of week.
    const SCHEDULE: &'static str;

    /// The schedule this process runs: [`Sweep::SCHEDULE`] unless the sweep lets the environment
    /// replace it (the payout batch's `PAYOUT_SCHEDULE`).
    fn schedule() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed(Self::SCHEDULE)
    }

    fn from_tick(tick: i64) -> Self;
}

/// A sweep's tries; the next tick comes soon anyway.
pub const SWEEP_MAX_ATTEMPTS: usize = 3;

/// Declares a sweep: its payload `{ "tick": <unix seconds> }`, queued once per tick of
/// `schedule` in `queue` (key `<queue>:<tick>`).
#[macro_export]
macro_rules! sweep {
    ($(#[$doc:meta])* $name:ident, queue: $queue:expr, schedule: $schedule:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
        pub struct $name {
            /// The cron tick this run belongs to (unix seconds).
            pub tick: i64,
        }

        impl $crate::job_queue::Job for $name {
            const QUEUE: &'static str = $queue;
            const MAX_ATTEMPTS: usize = $crate::job_queue::SWEEP_MAX_ATTEMPTS;

            fn idempotency_key(&self, _run_at: Option<chrono::DateTime<chrono::Utc>>) -> Option<String> {
                Some(format!("{}:{}", $queue, self.tick))
            }
        }

        impl $crate::job_queue::Sweep for $name {
            const SCHEDULE: &'static str = $schedule;

            fn from_tick(tick: i64) -> Self {
                Self { tick }
            }
        }
    };
}
