//! `worker`: every durable job and cron schedule until SIGTERM (see the library).

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    domain::logging::init("info,sqlx::postgres::notice=warn");
    let result = match std::env::args().nth(1) {
        None => worker::run(&[], |m, _, _| m).await,
        Some(other) => Err(anyhow::anyhow!("unknown command {other:?}; usage: worker")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("worker: {err:#}");
            ExitCode::FAILURE
        }
    }
}
