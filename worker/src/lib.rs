//! The worker process: runs every durable job and cron schedule (apalis on Postgres).
//! Any number of workers may run; SIGTERM lets in-flight jobs finish. The job system's benchmark
//! (`tools bench-jobs`) runs this same worker with a no-op queue added.

mod metrics;

use domain::job_queue::storage;
use domain::{Config, db};
use jobs::{JobContext, QUEUES, Settings, runner::wakeups::Wakeups};

/// Connections of one worker process: one listens for new tasks, the rest fetch, acknowledge
/// and run them.
pub const POOL_SIZE: u32 = 11;

/// Runs every queue in [`QUEUES`] and `extra_queues`, which `register` adds to the
/// monitor, until SIGTERM or Ctrl-C.
pub async fn run(
    extra_queues: &[&str],
    register: impl FnOnce(apalis::prelude::Monitor, &sqlx::PgPool, &Wakeups) -> apalis::prelude::Monitor,
) -> anyhow::Result<()> {
    // Listening from the start: a SIGTERM while the worker starts stops it, cleanly, once started.
    let stop = shutdown_signal()?;
    let config = Config::from_env()?;
    domain::realtime::use_bus(config.realtime_bus);
    domain::payouts::jobs::check_schedule()?;
    let pool = db::connect(&config.database_url, POOL_SIZE).await?;
    storage::setup(&pool).await?;
    metrics::serve_if_asked(&pool).await?;
    jobs::set_aside_undecodable(&pool).await?;
    let ctx = JobContext::new(pool.clone(), config)?;
    let queues: Vec<&str> = QUEUES.iter().chain(extra_queues).copied().collect();
    let wakeups = Wakeups::start(&pool, &queues);
    jobs::spawn_schedules(pool.clone());
    tracing::info!("worker started");
    let monitor = register(jobs::monitor_with(ctx, Settings::default(), &wakeups), &pool, &wakeups);
    monitor.run_with_signal(stop).await?;
    tracing::info!("worker stopped");
    Ok(())
}

/// Listens for SIGTERM and SIGINT (Ctrl-C) from now on; resolves on the first, also when it came
/// before the future was first polled. Running tasks then get `jobs::runner::SHUTDOWN_GRACE`.
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
            grace_seconds = jobs::runner::SHUTDOWN_GRACE.as_secs(),
            "shutting down: fetching nothing more, waiting for running tasks"
        );
        Ok(())
    })
}
