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
    // Listening from the start: a SIGTERM while the worker starts stops it, cleanly, once started.
    let stop = shutdown_signal()?;
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
    monitor.run_with_signal(stop).await?;
    tracing::info!("worker stopped");
    Ok(())
}

/// Listens for SIGTERM and SIGINT (Ctrl-C) from now on; resolves on the first, also when it came
/// before the future was first polled. Running tasks then get `jobs::runtime::SHUTDOWN_GRACE`.
fn shutdown_signal() -> std::io::Result<impl Future<Output = std::io::Result<()>> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = interrupt.recv() => {}
        }
        tracing::info!(
            grace_seconds = jobs::runtime::SHUTDOWN_GRACE.as_secs(),
            "shutting down: fetching nothing more, waiting for running tasks"
        );
        Ok(())
    })
}
