//! Cron schedules. Every worker process runs this loop; each tick is pushed with an idempotency
//! key naming the tick, so however many workers run, one task per tick exists.

use std::str::FromStr;

use chrono::Utc;
use serde::Serialize;
use sqlx::PgPool;

use crate::queue::{self, PushError, PushOptions};

pub struct Recurring<P> {
    pub queue: &'static str,
    pub schedule: &'static str,
    pub payload: fn(i64) -> P,
}

/// Pushes a task at every tick of `job.schedule` until the process stops.
pub async fn run<P: Serialize>(pool: PgPool, job: Recurring<P>) {
    let schedule = cron::Schedule::from_str(job.schedule).expect("valid cron expression");
    for next in schedule.upcoming(Utc) {
        let wait = (next - Utc::now()).to_std().unwrap_or_default();
        tokio::time::sleep(wait).await;
        let tick = next.timestamp();
        if let Err(err) = push_tick(&pool, &job, tick).await {
            tracing::error!(queue = job.queue, tick, error = %err, "could not queue a scheduled task");
        }
    }
}

pub async fn push_tick<P: Serialize>(pool: &PgPool, job: &Recurring<P>, tick: i64) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?;
    let options = PushOptions { idempotency_key: Some(format!("{}:{tick}", job.queue)), max_attempts: Some(3), ..Default::default() };
    match queue::push(&mut conn, job.queue, &(job.payload)(tick), options).await {
        Ok(()) | Err(PushError::AlreadyQueued) => Ok(()),
        Err(PushError::Other(err)) => Err(err),
    }
}
