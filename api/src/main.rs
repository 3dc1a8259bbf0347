//! `api serve | migrate | openapi | realtime-schema | seed | payouts run`

use std::process::ExitCode;

use domain::{Config, db};
use poem::Server;

use api::{app, routes, seed, state::AppState};

const USAGE: &str = "usage: api <serve|migrate|openapi|realtime-schema|seed [--mentors N]|payouts run>";

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
        "seed" => seed().await,
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
    jobs::runtime::setup_storage(&pool).await?;
    println!("migrations applied");
    Ok(())
}

/// `api seed [--mentors N]`
async fn seed() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(2).collect();
    let generated = match args.as_slice() {
        [] => 0,
        [flag, n] if flag == "--mentors" => n.parse().map_err(|_| anyhow::anyhow!("--mentors takes a number"))?,
        _ => anyhow::bail!("usage: api seed [--mentors N]"),
    };
    let config = Config::from_env()?;
    let pool = db::connect(&config.database_url, 2).await?;
    seed::run(&pool, &config.upload_dir, generated).await
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
    let pool = db::connect(&config.database_url, api::POOL_SIZE).await?;
    let port = config.port;
    let state = AppState::new(pool.clone(), config)?;
    api::catalogue_cache::listener::start(pool.clone(), state.catalogue.clone()).await?;
    api::realtime::listener::start(pool, state.hub.clone()).await?;
    if let Some(janus) = &state.config.janus {
        state.group_calls.start(janus)?;
    }
    let hub = state.hub.clone();
    let (acceptor, accepting) = api::shutdown::Draining::bind(port)
        .await
        .map_err(|e| anyhow::anyhow!("cannot serve on port {port}: {e}"))?;
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
