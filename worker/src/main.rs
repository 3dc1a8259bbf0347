//! The worker process: runs every durable job and cron schedule (apalis on Postgres).
//! Any number of workers may run; SIGTERM lets in-flight jobs finish.
//!
//! `worker bench` measures the job system against a database of its own (see `bench`).

mod bench;
mod metrics;

use std::process::ExitCode;

use domain::{Config, db};
use jobs::{JobContext, Settings, runtime, wakeups::Wakeups};

/// Connections of one worker process: one listens for new tasks, the rest fetch, acknowledge
/// and run them.
pub const POOL_SIZE: u32 = 11;

#[tokio::main]
async fn main() -> ExitCode {
    domain::logging::init("info,sqlx::postgres::notice=warn");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => run(&[], |m, _, _| m).await,
        Some("bench") => bench::run().await,
        Some(bench::CHILD_COMMAND) => bench::child::run(&args[1..]).await,
        Some(other) => Err(anyhow::anyhow!("unknown command {other:?}; usage: worker [bench]")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("worker: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs every queue in [`runtime::QUEUES`] and `extra_queues`, which `register` adds to the
/// monitor, until SIGTERM or Ctrl-C.
pub async fn run(
    extra_queues: &[&str],
    register: impl FnOnce(apalis::prelude::Monitor, &sqlx::PgPool, &Wakeups) -> apalis::prelude::Monitor,
) -> anyhow::Result<()> {
    let config = Config::from_env()?;
    jobs::payout_batch::check_schedule()?;
    let pool = db::connect(&config.database_url, POOL_SIZE).await?;
    runtime::setup_storage(&pool).await?;
    metrics::serve_if_asked(&pool)?;
    runtime::set_aside_undecodable(&pool).await?;
    let ctx = JobContext::new(pool.clone(), config)?;
    let queues: Vec<&str> = runtime::QUEUES.iter().chain(extra_queues).copied().collect();
    let wakeups = Wakeups::start(&pool, &queues);
    runtime::spawn_schedules(pool.clone());
    tracing::info!("worker started");
    let monitor = register(
        runtime::monitor_with(ctx, Settings::default(), &wakeups),
        &pool,
        &wakeups,
    );
    monitor.run_with_signal(shutdown_signal()).await?;
    tracing::info!("worker stopped");
    Ok(())
}

/// Resolves on SIGTERM or Ctrl-C.
async fn shutdown_signal() -> std::io::Result<()> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        _ = term.recv() => {}
        r = tokio::signal::ctrl_c() => r?,
    }
    tracing::info!("shutting down: waiting for running jobs");
    Ok(())
}
