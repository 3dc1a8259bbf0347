//! `tools seed [--mentors N] | bench-jobs | bench-worker <runs file>`: the developer commands
//! (`scripts/run` seeds with it, `scripts/bench` benchmarks the job system with it).

// A command-line tool: its output is its answer.
#![allow(clippy::print_stdout)]

use std::process::ExitCode;

use domain::{Config, db};
use tools::{bench, seed};

const USAGE: &str = "usage: tools <seed [--mentors N]|bench-jobs|bench-worker <runs file>>";

#[tokio::main]
async fn main() -> ExitCode {
    domain::logging::init("info,sqlx::postgres::notice=warn");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first().cloned() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "seed" => seed(&args[1..]).await,
        "bench-jobs" => bench::run().await,
        bench::CHILD_COMMAND => bench::child::run(&args[1..]).await,
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tools {command}: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// `tools seed [--mentors N]`
async fn seed(args: &[String]) -> anyhow::Result<()> {
    let generated = match args {
        [] => 0,
        [flag, n] if flag == "--mentors" => n.parse().map_err(|_| anyhow::anyhow!("--mentors takes a number"))?,
        _ => anyhow::bail!("usage: tools seed [--mentors N]"),
    };
    let config = Config::from_env()?;
    let pool = db::connect(&config.database_url, 2).await?;
    seed::run(&pool, &config.upload_dir, generated).await
}
