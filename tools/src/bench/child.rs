//! A benchmark worker process: the production worker (every queue, the same storage, wake-ups
//! and settings) plus the no-op queue [`NOOP_QUEUE`], whose handler notes which task ran and
//! when. On SIGTERM it lets running tasks finish and writes `<seq> <started, unix µs>` lines to
//! the file named by its argument. The black-box test of a worker restarted mid-backlog
//! (tests/api/worker-restart.test.mjs) runs it too, with tasks that take a little while.

use std::{io::Write, sync::Mutex};

use apalis::prelude::BoxDynError;
use domain::job_queue::Job;
use jobs::{Settings, runner};
use serde::{Deserialize, Serialize};

pub const NOOP_QUEUE: &str = "bench_noop";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Noop {
    /// Unique per task within a run of the benchmark.
    pub seq: u64,
    /// How long the task takes once started, ms (none in the benchmark).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hold_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Job for Noop {
    const QUEUE: &'static str = NOOP_QUEUE;
    const MAX_ATTEMPTS: usize = 1;
}

/// Which task started when, in this process.
static STARTED: Mutex<Vec<(u64, i64)>> = Mutex::new(Vec::new());

async fn handle(job: Noop) -> Result<(), BoxDynError> {
    let now = super::unix_micros();
    STARTED.lock().expect("not poisoned").push((job.seq, now));
    if job.hold_ms > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(job.hold_ms)).await;
    }
    Ok(())
}

pub async fn run(args: &[String]) -> anyhow::Result<()> {
    let [out] = args else {
        anyhow::bail!("usage: tools {} <runs file>", super::CHILD_COMMAND)
    };
    worker::run(&[NOOP_QUEUE], |monitor, pool, wakeups| {
        let (pool, wakeups) = (pool.clone(), wakeups.clone());
        monitor.register(move |restarts: usize| {
            let settings = Settings::default();
            runner::worker::<Noop>(&pool, &settings, &wakeups, restarts).build(handle)
        })
    })
    .await?;
    let started = std::mem::take(&mut *STARTED.lock().expect("not poisoned"));
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    for (seq, at) in started {
        writeln!(file, "{seq} {at}")?;
    }
    file.flush()?;
    Ok(())
}
