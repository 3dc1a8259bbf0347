//! What a durable job is, and queueing it: the [`Job`] trait (queue, attempts, key, `enqueue`),
//! sweeps ([`Sweep`], [`sweep!`](crate::sweep)) and the push into apalis' Postgres storage inside
//! the caller's transaction. Each job's payload is declared in its area's `jobs.rs` (or here for
//! the e-mails, refunds and the cleanup, which several areas queue) and listed once in
//! `crate::jobs`; how jobs run is the `jobs` crate's (docs/adding-a-job.md).

pub mod account;
pub mod calendar_writeback;
pub mod cleanup;
pub mod email;
pub mod health;
mod job;
pub mod refunds;
pub mod storage;
pub mod tasks;

pub use job::{Job, SWEEP_MAX_ATTEMPTS, Sweep};

use apalis::prelude::TaskBuilder;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{Connection, PgConnection};

#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("a task with this idempotency key is already queued")]
    AlreadyQueued,
    /// The database refused or dropped the push; kept as it is, so an outage stays an outage (503).
    #[error("enqueueing into {queue} failed: {source}")]
    Database {
        queue: String,
        #[source]
        source: sqlx::Error,
    },
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<PushError> for crate::Error {
    fn from(err: PushError) -> Self {
        match err {
            PushError::Database { source, .. } if crate::error::is_outage(&source) => crate::Error::Unavailable(source),
            err => crate::Error::Internal(err.into()),
        }
    }
}

#[derive(Default)]
pub struct PushOptions {
    /// Not before this time (rounded up to the whole second); now when absent.
    pub run_at: Option<DateTime<Utc>>,
    /// At most one task per key and queue ever exists.
    pub idempotency_key: Option<String>,
    pub max_attempts: Option<usize>,
}

/// The whole second at or after `t` (apalis schedules in whole seconds; a task never runs early).
pub fn not_before(t: DateTime<Utc>) -> DateTime<Utc> {
    let whole = DateTime::from_timestamp(t.timestamp(), 0).expect("in range");
    if whole < t {
        whole + chrono::Duration::seconds(1)
    } else {
        whole
    }
}

pub async fn push(
    conn: &mut PgConnection,
    queue: &str,
    payload: &impl Serialize,
    options: PushOptions,
) -> Result<(), PushError> {
    let bytes = serde_json::to_vec(payload).map_err(anyhow::Error::from)?;
    let mut task = TaskBuilder::new(bytes);
    if let Some(at) = options.run_at {
        task = task.run_at_timestamp(not_before(at).timestamp().max(0) as u64);
    }
    if let Some(key) = &options.idempotency_key {
        task = task.idempotency_key(key);
    }
    if let Some(max) = options.max_attempts {
        task = task.max_attempts(max);
    }
    let failed = |source: sqlx::Error| PushError::Database {
        queue: queue.to_string(),
        source,
    };
    // A keyed push may meet its twin: inside a savepoint, so the caller's transaction survives that.
    let mut savepoint = conn.begin().await.map_err(failed)?;
    match apalis_postgres::queries::push_tasks(&mut *savepoint, queue, vec![task.build()]).await {
        Ok(()) => savepoint.commit().await.map_err(failed),
        Err(err) if is_unique_violation(&err) => {
            savepoint.rollback().await.map_err(failed)?;
            Err(PushError::AlreadyQueued)
        }
        Err(apalis_postgres::Error::Database(source)) => Err(failed(source)),
        Err(err) => Err(PushError::Other(anyhow::anyhow!(
            "enqueueing into {queue} failed: {err}"
        ))),
    }
}

/// Queues one task per payload in one statement (no idempotency keys, no delay), inside the
/// caller's transaction: for fan-outs that queue many tasks at once.
pub async fn push_all<T: Serialize>(
    conn: &mut PgConnection,
    queue: &str,
    payloads: &[T],
    max_attempts: usize,
) -> Result<(), PushError> {
    if payloads.is_empty() {
        return Ok(());
    }
    let mut tasks = Vec::with_capacity(payloads.len());
    for payload in payloads {
        let bytes = serde_json::to_vec(payload).map_err(anyhow::Error::from)?;
        tasks.push(TaskBuilder::new(bytes).max_attempts(max_attempts).build());
    }
    apalis_postgres::queries::push_tasks(&mut *conn, queue, tasks)
        .await
        .map_err(|err| PushError::Other(anyhow::anyhow!("enqueueing into {queue} failed: {err}")))
}

fn is_unique_violation(err: &apalis_postgres::Error) -> bool {
    matches!(err, apalis_postgres::Error::Database(sqlx::Error::Database(db)) if db.code().as_deref() == Some("23505"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_lost_to_an_outage_is_an_outage() {
        let lost = PushError::Database {
            queue: "q".into(),
            source: sqlx::Error::Io(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "closed")),
        };
        assert!(matches!(crate::Error::from(lost), crate::Error::Unavailable(_)));
        let wrong = PushError::Database {
            queue: "q".into(),
            source: sqlx::Error::RowNotFound,
        };
        assert!(matches!(crate::Error::from(wrong), crate::Error::Internal(_)));
    }

    #[test]
    fn never_before_the_time_asked() {
        let exact = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert_eq!(not_before(exact), exact);
        let fraction = DateTime::from_timestamp(1_800_000_000, 1).unwrap();
        assert_eq!(not_before(fraction), exact + chrono::Duration::seconds(1));
    }
}
