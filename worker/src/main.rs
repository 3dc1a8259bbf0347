//! The worker process: runs every durable job and cron schedule (apalis on Postgres).
//! Any number of workers may run; SIGTERM lets in-flight jobs finish.

use std::process::ExitCode;

use domain::{Config, db};
use jobs::{JobContext, Settings, runtime};

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx::postgres::notice=warn".into()),
        )
        .init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("worker: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    jobs::payout_batch::check_schedule()?;
    let pool = db::connect(&config.database_url, 10).await?;
    runtime::setup_storage(&pool).await?;
    runtime::set_aside_undecodable(&pool).await?;
    let ctx = JobContext::new(pool.clone(), config)?;
    runtime::spawn_schedules(pool);
    tracing::info!("worker started");
    runtime::monitor(ctx, Settings::default()).run_with_signal(shutdown_signal()).await?;
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
