//! apalis' tables (`apalis.*`, beside ours) as this product sets them up, and how long a queue's
//! worker may stay silent: what the runner (`jobs::runner`), `api migrate`, `/api/health` and
//! the job console agree on.

use std::time::Duration;

use apalis_postgres::PostgresStorage;
use sqlx::PgPool;

/// How often a worker proves it is alive (the runner's default).
pub const HEARTBEAT: Duration = Duration::from_secs(10);
/// Tasks of a worker silent for `heartbeat * MISSED_HEARTBEATS` are taken over by another.
pub const MISSED_HEARTBEATS: usize = 3;

/// A queue with no worker heartbeat for this long is not being polled.
pub fn silent_after(heartbeat: Duration) -> Duration {
    heartbeat * MISSED_HEARTBEATS as u32
}

/// [`silent_after`] of the default heartbeat: what `/api/health` and the console go by.
pub fn default_silent_after() -> Duration {
    silent_after(HEARTBEAT)
}

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
pub async fn setup(pool: &PgPool) -> anyhow::Result<()> {
    PostgresStorage::<()>::setup(pool)
        .await
        .map_err(|e| anyhow::anyhow!("setting up the job storage failed: {e}"))?;
    let mut tx = pool.begin().await?;
    // Two workers replacing one function at once would fail ("tuple concurrently updated"). The
    // lock keeps its first name, so processes of an older build take the same one.
    sqlx::query!("SELECT pg_advisory_xact_lock(hashtext('jobs::runtime::setup_storage'))")
        .execute(&mut *tx)
        .await?;
    // Indexes apalis' first migration made that later ones repeat under other names: `unique_job_id`
    // is the primary key again, `lidx` is `idx_apalis_jobs_lock_by`. Each costs a write per task on
    // every fetch and acknowledgement (a fetch of 2,000 took 50 ms with them, 43 without).
    sqlx::query!("DROP INDEX IF EXISTS apalis.unique_job_id, apalis.lidx")
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
