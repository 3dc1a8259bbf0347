//! `tools bench-jobs`: the job system's figures (issue 14) against a real PostgreSQL.
//!
//! It recreates the database [`BENCH_DATABASE`] on the server of `DATABASE_URL`, migrates it,
//! and drives real worker processes: the production `worker` binary for the idle load, and
//! `tools bench-worker` (the production worker plus a no-op queue, see [`child`]) for the
//! rest. It prints each figure against its target and, when `BENCH_RESULTS` names a file,
//! appends one JSON line per figure. It never fails on a missed target.

mod batched;
pub mod child;
mod figures;
mod phases;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use sqlx::{PgPool, postgres::PgPoolOptions};

pub use figures::Figures;

/// The hidden subcommand that runs a benchmark worker process.
pub const CHILD_COMMAND: &str = "bench-worker";
/// The database the benchmark drops and creates on `DATABASE_URL`'s server.
pub const BENCH_DATABASE: &str = "jobs_bench";

/// No-op tasks queued before the throughput runs start.
pub const BACKLOG: u64 = 100_000;
pub const THROUGHPUT_TARGET: f64 = 12_000.0;
/// The steady rate of the enqueue-to-start run, and how long it lasts.
pub const STEADY_RATE: u64 = 200;
pub const STEADY_SECONDS: u64 = 15;
pub const START_P95_TARGET: Duration = Duration::from_millis(50);
/// Scheduled tasks: the first falls due this long after the worker started idling, then
/// [`SCHEDULED_PER_SECOND`] each second for [`SCHEDULED_SECONDS`].
pub const SCHEDULED_AFTER: Duration = Duration::from_secs(15);
pub const SCHEDULED_PER_SECOND: u64 = 3;
pub const SCHEDULED_SECONDS: u64 = 20;
pub const LATENESS_P99_TARGET: Duration = Duration::from_millis(250);
/// The idle worker runs this long before, and is measured this long: longer than
/// PostgreSQL's 10 s idle flush of statistics, so what came before is counted before.
pub const IDLE_SETTLE: Duration = Duration::from_secs(12);
pub const IDLE_WINDOW: Duration = Duration::from_secs(20);
pub const IDLE_QUERIES_TARGET: f64 = 10.0;

pub async fn run() -> anyhow::Result<()> {
    let only_batched = std::env::var("BENCH_JOBS").is_ok_and(|v| v == "batched");
    let server = std::env::var("DATABASE_URL").context("DATABASE_URL names the PostgreSQL server to use")?;
    let database = std::env::var("BENCH_DATABASE").unwrap_or_else(|_| BENCH_DATABASE.to_string());
    let url = recreate(&server, &database).await?;
    let pool = PgPoolOptions::new().max_connections(2).connect(&url).await?;
    domain::db::migrate(&pool).await?;
    domain::job_queue::storage::setup(&pool).await?;
    pool.close().await;
    println!(
        "job benchmark on database {database} (release build: {})",
        !cfg!(debug_assertions)
    );

    let mut figures = Figures::default();
    if only_batched {
        return batched_only(&url, figures).await;
    }
    let idle = phases::idle_load(&url, &database).await?;
    let (lateness, start) = phases::scheduled_then_steady(&url).await?;
    let one = phases::backlog(&url, 1).await?;
    let two = phases::backlog(&url, 2).await?;
    figures.throughput_one(&one);
    figures.start_latency(&start);
    figures.lateness(&lateness);
    figures.idle(idle);
    figures.two_workers(&two, &one);
    batched_only(&url, figures).await
}

/// The batched queues' figures (alone with `BENCH_JOBS=batched tools bench-jobs`), then the table.
async fn batched_only(url: &str, mut figures: Figures) -> anyhow::Result<()> {
    let holds = batched::holds(url).await?;
    let reminders = batched::reminders(url).await?;
    let _ = std::fs::remove_dir_all(phases::mail_dir());
    figures.batched(
        "Jobs: 20,000 due hold-expiry tasks (half the holds paid), one worker",
        &holds,
        batched::HOLDS_TARGET,
    );
    figures.batched(
        "Jobs: 20,000 reminder tasks, one worker",
        &reminders,
        batched::REMINDERS_TARGET,
    );
    figures.finish()
}

/// Drops and creates `database` on `server`'s host; returns its URL.
async fn recreate(server: &str, database: &str) -> anyhow::Result<String> {
    let admin = PgPool::connect(server).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        r#"DROP DATABASE IF EXISTS "{database}" WITH (FORCE)"#
    )))
    .execute(&admin)
    .await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(r#"CREATE DATABASE "{database}""#)))
        .execute(&admin)
        .await?;
    admin.close().await;
    let mut url = url::Url::parse(server)?;
    url.set_path(database);
    Ok(url.to_string())
}

pub fn unix_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64)
}

/// The nearest-rank `p`th percentile of `sorted`.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&values, 50.0), 50.0);
        assert_eq!(percentile(&values, 95.0), 95.0);
        assert_eq!(percentile(&values, 99.0), 99.0);
        assert_eq!(percentile(&[7.0], 99.0), 7.0);
        assert!(percentile(&[], 50.0).is_nan());
    }
}
