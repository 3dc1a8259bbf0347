//! Pushing tasks into apalis' Postgres storage, inside the caller's transaction.

use apalis::prelude::TaskBuilder;
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("a task with this idempotency key is already queued")]
    AlreadyQueued,
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<PushError> for domain::Error {
    fn from(err: PushError) -> Self {
        domain::Error::Internal(err.into())
    }
}

#[derive(Default)]
pub struct PushOptions {
    /// Not before this time (whole seconds); now when absent.
    pub run_at: Option<DateTime<Utc>>,
    /// At most one task per key and queue ever exists.
    pub idempotency_key: Option<String>,
    pub max_attempts: Option<usize>,
}

pub async fn push(conn: &mut PgConnection, queue: &str, payload: &impl Serialize, options: PushOptions) -> Result<(), PushError> {
    let bytes = serde_json::to_vec(payload).map_err(anyhow::Error::from)?;
    let mut task = TaskBuilder::new(bytes);
    if let Some(at) = options.run_at {
        task = task.run_at_timestamp(at.timestamp().max(0) as u64);
    }
    if let Some(key) = &options.idempotency_key {
        task = task.idempotency_key(key);
    }
    if let Some(max) = options.max_attempts {
        task = task.max_attempts(max);
    }
    match apalis_postgres::queries::push_tasks(conn, queue, vec![task.build()]).await {
        Ok(()) => Ok(()),
        Err(err) if is_unique_violation(&err) => Err(PushError::AlreadyQueued),
        Err(err) => Err(PushError::Other(anyhow::anyhow!("enqueueing into {queue} failed: {err}"))),
    }
}

fn is_unique_violation(err: &apalis_postgres::Error) -> bool {
    matches!(err, apalis_postgres::Error::Database(sqlx::Error::Database(db)) if db.code().as_deref() == Some("23505"))
}
