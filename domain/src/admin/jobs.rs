//! The admin job console: every queue's figures, its tasks in the console's states, and the two
//! actions on a task (run a failed one again, discard one from work). The tasks live in apalis'
//! own table, `apalis.jobs`; the console reads its statuses as these states:
//!
//! - `pending`: due and not taken by a worker (apalis `Pending`, or `Failed` with tries left, due);
//! - `scheduled`: due later, including a task waiting for its next try (which keeps its error);
//! - `running`: taken by a worker (`Queued` or `Running`) and due;
//! - `failed`: used all its tries (or killed);
//! - `set_aside`: a row no worker could decode, set aside by the supervisor ([`SET_ASIDE_PREFIX`]);
//! - `done`;
//! - `discarded`: removed from work by an admin, kept with the status [`DISCARDED_STATUS`], which
//!   apalis never fetches, re-queues or deletes.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use crate::{
    Error, Result,
    audit::{self, AuditEntry},
};

/// The apalis status of a discarded task: none of apalis' queries looks at it.
pub const DISCARDED_STATUS: &str = "Discarded";
/// How the supervisor's record of a set-aside task begins (`jobs::runner::supervision`).
pub const SET_ASIDE_PREFIX: &str = "set aside:";
/// What a secret in a payload shows instead.
pub const MASK: &str = "********";
/// A payload key containing any of these (any case) holds a secret.
pub const SECRET_KEY_PARTS: [&str; 8] = [
    "password",
    "token",
    "secret",
    "card",
    "cvv",
    "iban",
    "authorization",
    "api_key",
];

/// The console lists this many tasks a page unless asked otherwise.
pub const DEFAULT_PAGE_SIZE: i64 = 50;
/// The largest page a caller may ask for.
pub const MAX_PAGE_SIZE: i64 = 200;
/// Pages beyond this are refused before any arithmetic.
pub const MAX_PAGE: i64 = 100_000;

pub const INVALID_STATE: &str = "Invalid state: use pending, scheduled, running, failed, set_aside, done or discarded";
pub const INVALID_PAGE: &str = "Invalid page: use a whole number from 1 to 100000";
pub const INVALID_PAGE_SIZE: &str = "Invalid pageSize: use a whole number from 1 to 200";
pub const TASK_NOT_FOUND: &str = "Task not found";
pub const RETRY_CONFLICT: &str = "Only a failed or set-aside task can be retried";
pub const DISCARD_CONFLICT: &str = "Only a pending, scheduled, failed or set-aside task can be discarded";

closed_set! {
    /// A task's state as the console names it (read from apalis's own statuses by [`STATE_SQL`]).
    pub enum JobState ("job state") {
        Pending = "pending",
        Scheduled = "scheduled",
        Running = "running",
        Failed = "failed",
        SetAside = "set_aside",
        Done = "done",
        Discarded = "discarded",
    }
}

impl JobState {
    pub fn parse(raw: &str) -> Option<Self> {
        raw.parse().ok()
    }

    pub fn can_retry(self) -> bool {
        matches!(self, Self::Failed | Self::SetAside)
    }

    pub fn can_discard(self) -> bool {
        matches!(self, Self::Pending | Self::Scheduled | Self::Failed | Self::SetAside)
    }
}

/// The console's statements on `apalis.jobs`, checked at compile time: in `[...]`, the SQL as
/// literals joined by `+`, where `STATE` stands for a row's console state and `LAST_ERROR` for its
/// last error (none for a task that succeeded), both SQL over `apalis.jobs` with columns
/// unqualified; then the arguments. `console_sql!(text STATE)` is the state's SQL alone.
macro_rules! console_sql {
    (@go $out:tt [$($done:tt)*] [STATE $($rest:tt)*] $args:tt) => {
        console_sql!(@go $out [$($done)* "(CASE \
             WHEN status = 'Discarded' THEN 'discarded' \
             WHEN status = 'Done' THEN 'done' \
             WHEN status = 'Failed' AND jsonb_typeof(last_result) = 'string' AND (last_result #>> '{}') LIKE 'set aside:%' THEN 'set_aside' \
             WHEN status = 'Killed' OR (status = 'Failed' AND attempts >= max_attempts) THEN 'failed' \
             WHEN run_at > now() THEN 'scheduled' \
             WHEN status IN ('Queued', 'Running') THEN 'running' \
             ELSE 'pending' END)"] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [LAST_ERROR $($rest:tt)*] $args:tt) => {
        console_sql!(@go $out [$($done)* "(CASE \
             WHEN status = 'Done' OR last_result IS NULL THEN NULL \
             WHEN jsonb_typeof(last_result) = 'string' THEN last_result #>> '{}' \
             WHEN jsonb_typeof(last_result) = 'object' AND last_result ? 'Err' THEN \
                (CASE WHEN jsonb_typeof(last_result -> 'Err') = 'string' THEN last_result ->> 'Err' ELSE (last_result -> 'Err')::text END) \
             ELSE NULL END)"] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [$t:tt $($rest:tt)*] $args:tt) => {
        console_sql!(@go $out [$($done)* $t] [$($rest)*] $args)
    };
    (@go text [$($done:tt)*] [] []) => { concat!($($done)*) };
    (@go scalar [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_scalar!($($done)* $($args)*) };
    (@go (as $ty:path) [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_as!($ty, $($done)* $($args)*) };
    (text $($sql:tt)*) => { console_sql!(@go text [] [$($sql)*] []) };
    ($out:tt [$($sql:tt)*] $($args:tt)*) => { console_sql!(@go $out [] [$($sql)*] [$($args)*]) };
}

/// A row's console state, in SQL over `apalis.jobs` (columns unqualified).
pub const STATE_SQL: &str = console_sql!(text STATE);

/// One queue's figures.
#[derive(Clone, Debug, FromRow)]
pub struct QueueFigures {
    pub queue: String,
    pub pending: i64,
    pub scheduled: i64,
    pub running: i64,
    pub failed: i64,
    pub set_aside: i64,
    pub discarded: i64,
    /// How long the oldest due task has waited, in seconds (0 when none).
    pub oldest_due_seconds: f64,
    pub succeeded_last_hour: i64,
    pub failed_last_hour: i64,
    /// Worker processes serving the queue now (a heartbeat within `silent_after`).
    pub workers: i64,
}

/// Every one of `queues`, in its order, with its figures.
pub async fn queues(pool: &PgPool, queues: &[&str], silent_after: Duration) -> Result<Vec<QueueFigures>> {
    let names: Vec<&str> = queues.to_vec();
    let rows = console_sql!(
        (as QueueFigures)[
            "WITH t AS (SELECT job_type, " + STATE + r#" AS state, run_at, done_at FROM apalis.jobs
                WHERE job_type = ANY($1) AND (status <> 'Done' OR done_at > now() - interval '1 hour'))
             SELECT q.name AS "queue!",
                count(t.state) FILTER (WHERE t.state = 'pending') AS "pending!",
                count(t.state) FILTER (WHERE t.state = 'scheduled') AS "scheduled!",
                count(t.state) FILTER (WHERE t.state = 'running') AS "running!",
                count(t.state) FILTER (WHERE t.state = 'failed') AS "failed!",
                count(t.state) FILTER (WHERE t.state = 'set_aside') AS "set_aside!",
                count(t.state) FILTER (WHERE t.state = 'discarded') AS "discarded!",
                coalesce(extract(epoch FROM now() - min(t.run_at) FILTER (WHERE t.state = 'pending')), 0)::float8 AS "oldest_due_seconds!",
                count(t.state) FILTER (WHERE t.state = 'done') AS "succeeded_last_hour!",
                count(t.state) FILTER (WHERE t.state = 'failed' AND t.done_at > now() - interval '1 hour') AS "failed_last_hour!",
                (SELECT count(*) FROM apalis.workers w WHERE w.worker_type = q.name
                   AND w.last_seen > now() - make_interval(secs => $2)) AS "workers!"
             FROM unnest($1::text[]) WITH ORDINALITY AS q(name, n) LEFT JOIN t ON t.job_type = q.name
             GROUP BY q.name, q.n ORDER BY q.n"#
        ],
        &names[..] as &[&str],
        silent_after.as_secs_f64(),
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|mut q| {
            q.oldest_due_seconds = q.oldest_due_seconds.max(0.0);
            q
        })
        .collect())
}

/// What the admin asked for, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskQuery {
    pub queue: Option<String>,
    pub state: Option<JobState>,
    pub page: i64,
    pub page_size: i64,
}

impl TaskQuery {
    pub fn parse(queue: Option<&str>, state: Option<&str>, page: Option<i64>, page_size: Option<i64>) -> Result<Self> {
        let state = match state.map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => Some(JobState::parse(s).ok_or_else(|| Error::validation(INVALID_STATE))?),
        };
        let page = page.unwrap_or(1);
        if !(1..=MAX_PAGE).contains(&page) {
            return Err(Error::validation(INVALID_PAGE));
        }
        let page_size = page_size.unwrap_or(DEFAULT_PAGE_SIZE);
        if !(1..=MAX_PAGE_SIZE).contains(&page_size) {
            return Err(Error::validation(INVALID_PAGE_SIZE));
        }
        Ok(Self {
            queue: queue.map(str::trim).filter(|q| !q.is_empty()).map(str::to_string),
            state,
            page,
            page_size,
        })
    }
}

/// One task as the console shows it.
#[derive(Clone, Debug)]
pub struct Task {
    pub id: String,
    pub queue: String,
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    pub run_at: DateTime<Utc>,
    pub last_error: Option<String>,
    pub done_at: Option<DateTime<Utc>>,
    /// The payload as JSON, secrets masked; a payload that is not JSON shows as its text.
    pub payload: Value,
}

#[derive(FromRow)]
struct TaskRow {
    id: String,
    job_type: String,
    state: String,
    attempts: i32,
    max_attempts: i32,
    run_at: DateTime<Utc>,
    last_error: Option<String>,
    done_at: Option<DateTime<Utc>>,
    job: Vec<u8>,
}

impl From<TaskRow> for Task {
    fn from(r: TaskRow) -> Self {
        Self {
            id: r.id,
            queue: r.job_type,
            state: JobState::parse(&r.state).unwrap_or(JobState::Pending),
            attempts: r.attempts,
            max_attempts: r.max_attempts,
            run_at: r.run_at,
            last_error: r.last_error,
            done_at: r.done_at,
            payload: payload(&r.job),
        }
    }
}

/// `SELECT <TaskRow columns> FROM apalis.jobs <rest>`, as a [`TaskRow`] query.
macro_rules! select_task {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        console_sql!(
            (as TaskRow)[
                "SELECT id, job_type, " + STATE + r#" AS "state!", attempts, max_attempts, run_at, "# + LAST_ERROR
                    + " AS last_error, done_at, job FROM apalis.jobs " + $rest
            ]
            $(, $arg)*
        )
    };
}

/// The tasks matching `q`, newest `run_at` first, one page, and how many match in all.
pub async fn tasks(pool: &PgPool, q: &TaskQuery) -> Result<(Vec<Task>, i64)> {
    let rows: Vec<(i64, TaskRow)> = console_sql!(
        (as TaskRowWithTotal)[
            "WITH t AS (SELECT id, job_type, " + STATE + " AS state, attempts, max_attempts, run_at, " + LAST_ERROR
                + r#" AS last_error, done_at, job FROM apalis.jobs WHERE ($1::text IS NULL OR job_type = $1))
                 SELECT id AS "id!", job_type AS "job_type!", state AS "state!", attempts AS "attempts!",
                   max_attempts AS "max_attempts!", run_at AS "run_at!", last_error, done_at, job AS "job!",
                   count(*) OVER () AS "total!"
                 FROM t WHERE ($2::text IS NULL OR state = $2)
                 ORDER BY run_at DESC, id DESC LIMIT $3 OFFSET $4"#
        ],
        q.queue.as_deref(),
        q.state.map(JobState::as_str),
        q.page_size,
        crate::paging::offset(q.page, q.page_size),
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(TaskRowWithTotal::split)
    .collect();
    let total = match rows.first() {
        Some((total, _)) => *total,
        // An empty page: count on its own (the page may lie past the last one).
        None if q.page > 1 => count(pool, q).await?,
        None => 0,
    };
    Ok((rows.into_iter().map(|(_, r)| r.into()).collect(), total))
}

/// A [`TaskRow`] and how many rows match in all.
struct TaskRowWithTotal {
    id: String,
    job_type: String,
    state: String,
    attempts: i32,
    max_attempts: i32,
    run_at: DateTime<Utc>,
    last_error: Option<String>,
    done_at: Option<DateTime<Utc>>,
    job: Vec<u8>,
    total: i64,
}

impl TaskRowWithTotal {
    fn split(self) -> (i64, TaskRow) {
        let row = TaskRow {
            id: self.id,
            job_type: self.job_type,
            state: self.state,
            attempts: self.attempts,
            max_attempts: self.max_attempts,
            run_at: self.run_at,
            last_error: self.last_error,
            done_at: self.done_at,
            job: self.job,
        };
        (self.total, row)
    }
}

async fn count(pool: &PgPool, q: &TaskQuery) -> Result<i64> {
    Ok(console_sql!(
        scalar[
            r#"SELECT count(*) AS "count!" FROM apalis.jobs WHERE ($1::text IS NULL OR job_type = $1) AND ($2::text IS NULL OR "#
                + STATE + " = $2)"
        ],
        q.queue.as_deref(),
        q.state.map(JobState::as_str),
    )
    .fetch_one(pool)
    .await?)
}

/// One task, or `None`.
pub async fn find(pool: &PgPool, id: &str) -> Result<Option<Task>> {
    Ok(select_task!("WHERE id = $1", id)
        .fetch_optional(pool)
        .await?
        .map(Task::from))
}

/// Runs a failed or set-aside task again at once, its tries reset; audited.
pub async fn retry(pool: &PgPool, admin_id: Uuid, id: &str) -> Result<Task> {
    act(pool, admin_id, id, Action::Retry).await
}

/// Removes a pending, scheduled, failed or set-aside task from work, kept as discarded; audited.
pub async fn discard(pool: &PgPool, admin_id: Uuid, id: &str) -> Result<Task> {
    act(pool, admin_id, id, Action::Discard).await
}

#[derive(Clone, Copy)]
enum Action {
    Retry,
    Discard,
}

async fn act(pool: &PgPool, admin_id: Uuid, id: &str, action: Action) -> Result<Task> {
    let mut tx = pool.begin().await?;
    let before: Task = select_task!("WHERE id = $1 FOR UPDATE", id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found(TASK_NOT_FOUND))?
        .into();
    let (allowed, conflict, name) = match action {
        Action::Retry => (before.state.can_retry(), RETRY_CONFLICT, "job.retry"),
        Action::Discard => (before.state.can_discard(), DISCARD_CONFLICT, "job.discard"),
    };
    if !allowed {
        return Err(Error::conflict(conflict));
    }
    match action {
        Action::Retry => sqlx::query!(
            "UPDATE apalis.jobs SET status = 'Pending', attempts = 0, run_at = now(), lock_by = NULL, lock_at = NULL, \
             done_at = NULL WHERE id = $1",
            id,
        ),
        Action::Discard => sqlx::query!(
            "UPDATE apalis.jobs SET status = 'Discarded', lock_by = NULL, lock_at = NULL, done_at = now() WHERE id = $1",
            id,
        ),
    }
    .execute(&mut *tx)
    .await?;
    let after: Task = select_task!("WHERE id = $1", id).fetch_one(&mut *tx).await?.into();
    audit::record(
        &mut tx,
        AuditEntry {
            admin_id,
            action: name,
            object_type: "job",
            object_id: id.to_string(),
            before: Some(summary(&before)),
            after: Some(summary(&after)),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(after)
}

fn summary(t: &Task) -> Value {
    json!({"queue": t.queue, "state": t.state.as_str(), "attempts": t.attempts, "lastError": t.last_error})
}

/// A stored payload as JSON with every secret masked.
pub fn payload(bytes: &[u8]) -> Value {
    let mut value =
        serde_json::from_slice(bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()));
    mask_secrets(&mut value);
    value
}

fn is_secret_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    SECRET_KEY_PARTS.iter().any(|part| key.contains(part))
}

/// Replaces the value of every key that names a secret, at any depth.
pub fn mask_secrets(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if is_secret_key(key) {
                    *v = Value::String(MASK.into());
                } else {
                    mask_secrets(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_secrets),
        _ => {}
    }
}

/// The newest task of each of `queues` (a cron schedule's last run), by queue.
pub async fn last_runs(pool: &PgPool, queues: &[&str]) -> Result<Vec<(String, Option<DateTime<Utc>>)>> {
    let names: Vec<&str> = queues.to_vec();
    Ok(sqlx::query!(
        r#"SELECT q.name AS "name!", (SELECT max(j.run_at) FROM apalis.jobs j WHERE j.job_type = q.name AND j.run_at <= now()) AS last_run
           FROM unnest($1::text[]) WITH ORDINALITY AS q(name, n) ORDER BY q.n"#,
        &names[..] as &[&str],
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| (r.name, r.last_run))
    .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_masked_at_any_depth() {
        let mut v = json!({
            "kind": "reset",
            "user_id": "u",
            "Password": "p",
            "nested": {"accessToken": "t", "card_number": "4242", "list": [{"client_secret": "s", "ok": 1}]},
        });
        mask_secrets(&mut v);
        assert_eq!(
            v,
            json!({
                "kind": "reset",
                "user_id": "u",
                "Password": MASK,
                "nested": {"accessToken": MASK, "card_number": MASK, "list": [{"client_secret": MASK, "ok": 1}]},
            })
        );
    }

    #[test]
    fn a_payload_that_is_not_json_shows_as_text() {
        assert_eq!(payload(b"not json"), json!("not json"));
        assert_eq!(payload(br#"{"tick": 5}"#), json!({"tick": 5}));
    }

    #[test]
    fn states_parse_and_say_what_may_be_done() {
        for &s in JobState::ALL {
            assert_eq!(JobState::parse(s.as_str()), Some(s));
        }
        assert_eq!(JobState::parse("Failed"), None);
        let retryable: Vec<_> = JobState::ALL.iter().copied().filter(|s| s.can_retry()).collect();
        assert_eq!(retryable, [JobState::Failed, JobState::SetAside]);
        let discardable: Vec<_> = JobState::ALL.iter().copied().filter(|s| s.can_discard()).collect();
        assert_eq!(
            discardable,
            [
                JobState::Pending,
                JobState::Scheduled,
                JobState::Failed,
                JobState::SetAside
            ]
        );
        assert!(STATE_SQL.contains(DISCARDED_STATUS));
        assert!(STATE_SQL.contains(SET_ASIDE_PREFIX));
    }

    #[test]
    fn pages_are_checked() {
        assert_eq!(
            TaskQuery::parse(None, None, None, None).unwrap().page_size,
            DEFAULT_PAGE_SIZE
        );
        assert!(TaskQuery::parse(None, Some("bogus"), None, None).is_err());
        assert!(TaskQuery::parse(None, None, Some(0), None).is_err());
        assert!(TaskQuery::parse(None, None, None, Some(MAX_PAGE_SIZE + 1)).is_err());
        let q = TaskQuery::parse(Some(" emails "), Some("set_aside"), Some(2), Some(10)).unwrap();
        assert_eq!(q.queue.as_deref(), Some("emails"));
        assert_eq!(q.state, Some(JobState::SetAside));
    }
}
