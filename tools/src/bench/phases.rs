//! The benchmark's runs, each against real worker processes.

use std::{collections::HashMap, path::PathBuf, time::Duration};

use anyhow::Context;
use apalis::prelude::TaskBuilder;
use chrono::{DateTime, Utc};
use domain::{job_queue::Job, jobs::QUEUES};
use sqlx::PgPool;
use tokio::process::{Child, Command};

use super::{
    BACKLOG, IDLE_SETTLE, IDLE_WINDOW, SCHEDULED_AFTER, SCHEDULED_PER_SECOND, SCHEDULED_SECONDS, STEADY_RATE,
    STEADY_SECONDS,
    child::{NOOP_QUEUE, Noop},
    unix_micros,
};

/// A worker process: the production `worker` binary, or this one's `bench-worker`.
pub(super) struct Worker {
    process: Child,
    runs_file: Option<PathBuf>,
}

impl Worker {
    /// The production worker, as deployed.
    pub(super) fn production(url: &str) -> anyhow::Result<Self> {
        Ok(Self {
            process: command(&worker_binary()?, url).spawn()?,
            runs_file: None,
        })
    }

    /// The production worker plus the no-op queue.
    fn bench(url: &str, name: &str) -> anyhow::Result<Self> {
        let runs_file = std::env::temp_dir().join(format!("job-bench-{}-{name}.runs", std::process::id()));
        let this = std::env::current_exe().context("the running binary")?;
        let process = command(&this, url).arg(super::CHILD_COMMAND).arg(&runs_file).spawn()?;
        Ok(Self {
            process,
            runs_file: Some(runs_file),
        })
    }

    fn pid(&self) -> u32 {
        self.process.id().unwrap_or_default()
    }

    /// Waits until every queue it serves has registered.
    async fn registered(&self, pool: &PgPool) -> anyhow::Result<()> {
        let expected = QUEUES.len() as i64 + i64::from(self.runs_file.is_some());
        let pattern = format!("%@{}-%", self.pid());
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let (n,): (i64,) =
                sqlx::query_as("SELECT count(DISTINCT worker_type) FROM apalis.workers WHERE id LIKE $1")
                    .bind(&pattern)
                    .fetch_one(pool)
                    .await?;
            if n >= expected {
                return Ok(());
            }
            anyhow::ensure!(
                tokio::time::Instant::now() < deadline,
                "worker {} did not register its queues",
                self.pid()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// SIGTERM, then waits; returns the tasks it ran: (seq, started at, unix µs).
    pub(super) async fn stop(mut self) -> anyhow::Result<Vec<(u64, i64)>> {
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(self.pid().to_string())
            .status()
            .await?;
        anyhow::ensure!(status.success(), "could not signal worker {}", self.pid());
        let exit = self.process.wait().await?;
        anyhow::ensure!(exit.success(), "worker exited with {exit}");
        let Some(file) = self.runs_file else {
            return Ok(Vec::new());
        };
        let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
        let _ = std::fs::remove_file(&file);
        text.lines()
            .map(|line| {
                let (seq, at) = line.split_once(' ').context("a runs line is `<seq> <µs>`")?;
                Ok((seq.parse()?, at.parse()?))
            })
            .collect()
    }
}

/// The production worker: `WORKER_BIN`, else the `worker` built beside this binary.
fn worker_binary() -> anyhow::Result<PathBuf> {
    if let Some(bin) = std::env::var_os("WORKER_BIN") {
        return Ok(PathBuf::from(bin));
    }
    let this = std::env::current_exe().context("the running binary")?;
    Ok(this.with_file_name("worker"))
}

fn command(binary: &std::path::Path, url: &str) -> Command {
    let mut command = Command::new(binary);
    command
        .env("DATABASE_URL", url)
        .env(
            "RUST_LOG",
            std::env::var("BENCH_WORKER_LOG").unwrap_or_else(|_| "warn".into()),
        )
        // The e-mails the benchmark's tasks queue are written here, not into the checkout.
        .env("MAIL_DIR", mail_dir())
        .kill_on_drop(true);
    command
}

/// Where the benchmark's workers write their e-mails (removed when the benchmark ends).
pub(super) fn mail_dir() -> PathBuf {
    std::env::temp_dir().join(format!("job-bench-mail-{}", std::process::id()))
}

/// Transactions per second of the production worker with every queue idle.
pub(super) async fn idle_load(url: &str, database: &str) -> anyhow::Result<f64> {
    let pool = connect(url).await?;
    let worker = Worker::production(url)?;
    worker.registered(&pool).await?;
    // Nothing of ours may reach the statistics during the window but the two readings, made
    // on one fresh connection; pooled ones could flush what they did before it.
    pool.close().await;
    tokio::time::sleep(IDLE_SETTLE).await;
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(url).await?;
    let read = "SELECT (xact_commit + xact_rollback)::float8 FROM pg_stat_database WHERE datname = $1";
    let (before,): (f64,) = sqlx::query_as(read).bind(database).fetch_one(&mut conn).await?;
    tokio::time::sleep(IDLE_WINDOW).await;
    let (after,): (f64,) = sqlx::query_as(read).bind(database).fetch_one(&mut conn).await?;
    worker.stop().await?;
    // The first reading is one transaction of ours.
    Ok((after - before - 1.0).max(0.0) / IDLE_WINDOW.as_secs_f64())
}

pub struct Lateness {
    /// Each scheduled task's start after its `run_at`, ms.
    pub late_ms: Vec<f64>,
    pub missing: usize,
}

pub struct StartLatency {
    pub latency_ms: Vec<f64>,
    pub missing: usize,
}

/// One bench worker: tasks scheduled to fall due while it idles, then a steady stream.
pub(super) async fn scheduled_then_steady(url: &str) -> anyhow::Result<(Lateness, StartLatency)> {
    let pool = connect(url).await?;
    let worker = Worker::bench(url, "a")?;
    worker.registered(&pool).await?;

    let first_due = DateTime::from_timestamp((Utc::now() + SCHEDULED_AFTER).timestamp() + 1, 0).expect("in range");
    let mut due = HashMap::new();
    let mut tx = pool.begin().await?;
    for second in 0..SCHEDULED_SECONDS {
        for k in 0..SCHEDULED_PER_SECOND {
            let seq = second * SCHEDULED_PER_SECOND + k;
            let at = first_due + chrono::Duration::seconds(second as i64);
            Noop { seq, hold_ms: 0 }.enqueue_at(&mut tx, at).await?;
            due.insert(seq, at.timestamp_micros());
        }
    }
    tx.commit().await?;
    println!(
        "scheduled {} tasks due from {first_due} on; waiting for them",
        due.len()
    );
    all_done(
        &pool,
        Duration::from_secs(SCHEDULED_AFTER.as_secs() + SCHEDULED_SECONDS + 60),
    )
    .await?;

    let first_steady = SCHEDULED_SECONDS * SCHEDULED_PER_SECOND;
    let count = STEADY_RATE * STEADY_SECONDS;
    println!("queueing {count} tasks at {STEADY_RATE}/s");
    let mut committed = HashMap::new();
    let mut tick = tokio::time::interval(Duration::from_secs(1) / STEADY_RATE as u32);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    for seq in first_steady..first_steady + count {
        tick.tick().await;
        let mut tx = pool.begin().await?;
        Noop { seq, hold_ms: 0 }.enqueue(&mut tx).await?;
        tx.commit().await?;
        committed.insert(seq, unix_micros());
    }
    all_done(&pool, Duration::from_secs(60)).await?;
    let runs = worker.stop().await?;
    pool.close().await;

    let mut late_ms = Vec::new();
    let mut latency_ms = Vec::new();
    for (seq, started) in &runs {
        if let Some(at) = due.get(seq) {
            late_ms.push((started - at) as f64 / 1000.0);
        } else if let Some(at) = committed.get(seq) {
            latency_ms.push(((started - at) as f64 / 1000.0).max(0.0));
        }
    }
    late_ms.sort_by(f64::total_cmp);
    latency_ms.sort_by(f64::total_cmp);
    let lateness = Lateness {
        missing: due.len() - late_ms.len(),
        late_ms,
    };
    let start = StartLatency {
        missing: committed.len() - latency_ms.len(),
        latency_ms,
    };
    Ok((lateness, start))
}

pub struct Backlog {
    pub jobs_per_second: f64,
    /// Tasks that ran more than once (each extra run counted), and tasks that never ran.
    pub duplicates: usize,
    pub missing: usize,
}

/// [`BACKLOG`] no-op tasks queued, then `workers` bench workers started together until done.
pub(super) async fn backlog(url: &str, workers: usize) -> anyhow::Result<Backlog> {
    let pool = connect(url).await?;
    sqlx::query("DELETE FROM apalis.jobs WHERE job_type = $1")
        .bind(NOOP_QUEUE)
        .execute(&pool)
        .await?;
    sqlx::query("VACUUM ANALYZE apalis.jobs").execute(&pool).await?;
    let seq_base = 1_000_000 * workers as u64;
    let mut tx = pool.begin().await?;
    for chunk in (0..BACKLOG).collect::<Vec<_>>().chunks(10_000) {
        let tasks = chunk
            .iter()
            .map(|&i| {
                let payload = serde_json::to_vec(&Noop {
                    seq: seq_base + i,
                    hold_ms: 0,
                })
                .expect("serialisable");
                TaskBuilder::new(payload).max_attempts(Noop::MAX_ATTEMPTS).build()
            })
            .collect();
        apalis_postgres::queries::push_tasks(&mut *tx, NOOP_QUEUE, tasks).await?;
    }
    tx.commit().await?;
    sqlx::query("ANALYZE apalis.jobs").execute(&pool).await?;
    println!("queued {BACKLOG} no-op tasks; starting {workers} worker(s)");

    let started: Vec<Worker> = (0..workers)
        .map(|i| Worker::bench(url, &format!("backlog{workers}-{i}")))
        .collect::<anyhow::Result<_>>()?;
    all_done(&pool, Duration::from_secs(600)).await?;
    let (span,): (f64,) = sqlx::query_as(
        "SELECT extract(epoch FROM max(done_at) - min(lock_at))::float8 FROM apalis.jobs WHERE job_type = $1",
    )
    .bind(NOOP_QUEUE)
    .fetch_one(&pool)
    .await?;
    pool.close().await;
    let mut runs: HashMap<u64, usize> = HashMap::new();
    for worker in started {
        for (seq, _) in worker.stop().await? {
            *runs.entry(seq).or_default() += 1;
        }
    }
    let duplicates = runs.values().map(|n| n - 1).sum();
    let missing = BACKLOG as usize - runs.len();
    Ok(Backlog {
        jobs_per_second: BACKLOG as f64 / span,
        duplicates,
        missing,
    })
}

pub(super) async fn connect(url: &str) -> sqlx::Result<PgPool> {
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(4)
        .connect(url)
        .await
}

/// Waits until no no-op task is left undone.
async fn all_done(pool: &PgPool, within: Duration) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let (left,): (i64,) =
            sqlx::query_as("SELECT count(*) FROM apalis.jobs WHERE job_type = $1 AND status NOT IN ('Done', 'Killed') AND NOT (status = 'Failed' AND attempts >= max_attempts)")
                .bind(NOOP_QUEUE)
                .fetch_one(pool)
                .await?;
        if left == 0 {
            return Ok(());
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "{left} no-op tasks still not done after {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
