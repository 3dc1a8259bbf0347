//! The statements the runner (`jobs::runner`), the cleanup job and the worker's metrics run on
//! apalis' own table, `apalis.jobs`. They live here because only `domain` carries the offline
//! query data (`domain/.sqlx`) that checks them at compile time.

use std::time::Duration;

use sqlx::PgExecutor;

/// Marks tasks of `queue` that no worker can decode (the id is not a ULID) as failed for good,
/// with `reason` as their last result; returns how many.
pub async fn set_aside_undecodable(db: impl PgExecutor<'_>, queue: &str, reason: &str) -> sqlx::Result<u64> {
    let done = sqlx::query!(
        "UPDATE apalis.jobs SET status = 'Failed', attempts = greatest(attempts, max_attempts), done_at = now(), lock_by = NULL, \
         last_result = to_jsonb($2::text) \
         WHERE job_type = $1 AND status IN ('Pending', 'Queued', 'Running', 'Failed') \
         AND id !~ '^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$'",
        queue,
        reason,
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// Records a failed try of a task still taken by a worker: its error, its tries, and when it is
/// due again (`wait` from now).
pub async fn record_try(
    db: impl PgExecutor<'_>,
    id: &str,
    attempts: i32,
    error: &str,
    wait: Duration,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE apalis.jobs SET last_result = jsonb_build_object('Err', $2::text), attempts = $3, \
         run_at = now() + make_interval(secs => $4) WHERE id = $1 AND status IN ('Queued', 'Running')",
        id,
        error,
        attempts,
        wait.as_secs_f64(),
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A task's apalis status, or `None` when there is no such task.
pub async fn status(db: impl PgExecutor<'_>, id: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT status FROM apalis.jobs WHERE id = $1", id)
        .fetch_optional(db)
        .await
}

/// Each of `queues` whose next task is due within `horizon`, and in how many seconds (zero or
/// less: due now). The order is apalis' fetch order, so the first row per queue is the task its
/// next fetch takes (every task of ours has apalis' default priority).
pub async fn next_due(
    db: impl PgExecutor<'_>,
    queues: &[String],
    horizon: Duration,
) -> sqlx::Result<Vec<(String, f64)>> {
    let rows = sqlx::query!(
        r#"SELECT q.name AS "name!", extract(epoch FROM next.run_at - now())::float8 AS "due_in!"
           FROM unnest($1::text[]) AS q(name)
           CROSS JOIN LATERAL (SELECT run_at FROM apalis.jobs
              WHERE job_type = q.name AND (status = 'Pending' OR (status = 'Failed' AND attempts < max_attempts))
              ORDER BY priority DESC, run_at ASC LIMIT 1) AS next
           WHERE next.run_at < now() + make_interval(secs => $2)"#,
        queues,
        horizon.as_secs_f64(),
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.name, r.due_in)).collect())
}

/// Deletes tasks done more than `days` days ago; returns how many.
pub async fn delete_done_before(db: impl PgExecutor<'_>, days: i32) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM apalis.jobs WHERE status = 'Done' AND done_at < now() - make_interval(days => $1)",
        days,
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// When a task of `queue` last finished successfully, in seconds since the epoch.
pub async fn last_success(db: impl PgExecutor<'_>, queue: &str) -> sqlx::Result<Option<f64>> {
    sqlx::query_scalar!(
        "SELECT extract(epoch FROM max(done_at))::float8 FROM apalis.jobs WHERE job_type = $1 AND status = 'Done'",
        queue,
    )
    .fetch_one(db)
    .await
}
