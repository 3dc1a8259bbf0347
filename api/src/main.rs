//! `api serve | migrate | openapi | realtime-schema | payouts run` (the demo data: `tools seed`)

// A command-line entry point: `openapi` and `realtime-schema` print their documents.
#![allow(clippy::print_stdout)]

use std::process::ExitCode;

use domain::{Config, db};
use poem::Server;

use api::{app, routes, state::AppState};

const USAGE: &str = "usage: api <serve|migrate|openapi|realtime-schema|payouts run>";

#[tokio::main]
async fn main() -> ExitCode {
    domain::logging::init("info,poem=warn,sqlx::postgres::notice=warn");
    let command = std::env::args().nth(1).unwrap_or_default();
    let result = match command.as_str() {
        "serve" => serve().await,
        "migrate" => migrate().await,
        "openapi" => {
            print!("{}", routes::service().spec_yaml());
            Ok(())
        }
        "realtime-schema" => {
            print!("{}", domain::realtime::protocol::schema_text());
            Ok(())
        }
        "payouts" if std::env::args().nth(2).as_deref() == Some("run") => payouts_run().await,
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("api {command}: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn migrate() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let pool = db::connect(&config.database_url, 2).await?;
    db::migrate(&pool).await?;
    domain::job_queue::storage::setup(&pool).await?;
    println!("migrations applied");
    Ok(())
}

/// `api payouts run`: the payout batch at once, in this process (the same rules as the worker's).
async fn payouts_run() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    let pool = db::connect(&config.database_url, 2).await?;
    let s = domain::payouts::batch::run(&pool).await?;
    println!(
        "payout batch: {} payouts created holding {} bookings; {} mentors below their minimum roll over",
        s.payouts, s.bookings, s.below_minimum
    );
    Ok(())
}

async fn serve() -> anyhow::Result<()> {
    // Listening from the start: a SIGTERM while the api starts stops it, cleanly, once serving.
    let signal = shutdown_signal()?;
    let config = Config::from_env()?;
    // Every metric described and at its starting value before the first scrape.
    api::metrics::handle();
    api::replica::describe_metrics();
    let pool = db::connect(&config.database_url, api::POOL_SIZE).await?;
    let (host, port) = (config.host, config.port);
    let mut state = AppState::new(pool.clone(), config)?;
    state.nats = api::realtime::start_bus(&state.config, &state.pool, &state.hub).await?;
    api::catalogue_cache::listener::start(pool.clone(), state.catalogue.clone()).await?;
    api::realtime::listener::start(pool, state.hub.clone()).await?;
    state.reads.start();
    if let Some(janus) = &state.config.janus {
        state.group_calls.start(janus)?;
    }
    let hub = state.hub.clone();
    let (acceptor, accepting) = api::shutdown::Draining::bind_on(host, port)
        .await
        .map_err(|e| anyhow::anyhow!("cannot serve on {host} port {port}: {e}"))?;
    // On SIGTERM: stop accepting (new connections go to another process, none queued is reset),
    // close the sockets with 1012 (they would hold the graceful shutdown open), let accepted
    // connections' requests be read, then finish the requests in flight.
    let shutdown = async move {
        signal.await;
        accepting.stop().await;
        api::shutdown::close_sockets(&hub).await;
        tokio::time::sleep(api::shutdown::READ_GRACE).await;
    };
    tracing::info!(port, base_url = %state.config.app_base_url, "api listening");
    Server::new_with_acceptor(acceptor)
        .run_with_graceful_shutdown(app::build(state), shutdown, Some(api::shutdown::DRAIN_TIMEOUT))
        .await
        .map_err(|e| anyhow::anyhow!("cannot serve on port {port}: {e}"))?;
    tracing::info!("api stopped");
    Ok(())
}

/// Listens for SIGTERM and SIGINT (Ctrl-C) from now on; resolves on the first, also when it came
/// before the future was first polled. In-flight requests then get up to 20 s to finish.
fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}
