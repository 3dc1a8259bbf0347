//! How each queue is doing, for `/api/health`: from the workers' heartbeats in `apalis.workers`
//! and what the runner's supervisor recorded in `job_queue_health` when a queue's worker failed.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::PgPool;

/// A queue whose worker failed this recently reports 'failing'.
pub const FAILING_FOR: chrono::Duration = chrono::Duration::minutes(5);

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueueState {
    Ok,
    /// Its worker failed within [`FAILING_FOR`].
    Failing,
    /// No worker of this queue has been seen within the heartbeat allowance.
    NotPolling,
}

#[derive(Clone, Debug)]
pub struct QueueHealth {
    pub queue: &'static str,
    pub state: QueueState,
    pub last_seen: Option<DateTime<Utc>>,
    pub restarts: i32,
    pub set_aside: i32,
}

/// A queue's name, its workers' last heartbeat, and its last failure, restarts and jobs set aside.
type HealthRow = (
    String,
    Option<DateTime<Utc>>,
    Option<DateTime<Utc>>,
    Option<i32>,
    Option<i32>,
);

/// How each of `queues` is doing, from the workers' heartbeats and the supervisor's records.
pub async fn queue_health(
    pool: &PgPool,
    queues: &[&'static str],
    silent_after: Duration,
) -> sqlx::Result<Vec<QueueHealth>> {
    let names: Vec<&str> = queues.to_vec();
    let rows: Vec<HealthRow> = sqlx::query!(
        r#"SELECT q.name AS "name!", (SELECT max(w.last_seen) FROM apalis.workers w WHERE w.worker_type = q.name) AS last_seen,
           h.last_error_at AS "last_error_at?", h.restarts AS "restarts?", h.set_aside AS "set_aside?"
           FROM unnest($1::text[]) AS q(name) LEFT JOIN job_queue_health h ON h.queue = q.name"#,
        &names[..] as &[&str],
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| (r.name, r.last_seen, r.last_error_at, r.restarts, r.set_aside))
    .collect();
    let now = Utc::now();
    let silent_after = chrono::Duration::from_std(silent_after).unwrap_or(chrono::Duration::MAX);
    Ok(rows
        .into_iter()
        .filter_map(|(name, last_seen, failed_at, restarts, set_aside)| {
            let queue = *queues.iter().find(|q| **q == name)?;
            let state = if last_seen.is_none_or(|t| now - t > silent_after) {
                QueueState::NotPolling
            } else if failed_at.is_some_and(|t| now - t < FAILING_FOR) {
                QueueState::Failing
            } else {
                QueueState::Ok
            };
            Some(QueueHealth {
                queue,
                state,
                last_seen,
                restarts: restarts.unwrap_or(0),
                set_aside: set_aside.unwrap_or(0),
            })
        })
        .collect())
}

/// Records that `queue`'s worker failed with `error`, and how many of its tasks were set aside.
pub async fn record_failure(
    db: impl sqlx::PgExecutor<'_>,
    queue: &str,
    error: &str,
    set_aside: i32,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO job_queue_health (queue, last_error, last_error_at, restarts, set_aside) VALUES ($1, $2, now(), 1, $3) \
         ON CONFLICT (queue) DO UPDATE SET last_error = $2, last_error_at = now(), restarts = job_queue_health.restarts + 1, \
         set_aside = job_queue_health.set_aside + $3, updated_at = now()",
        queue,
        error,
        set_aside,
    )
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_is_failing_for_five_minutes_after_its_worker_failed() {
        assert_eq!(FAILING_FOR, chrono::Duration::minutes(5));
    }
}
