//! Cron schedules. Every worker process runs this loop for every sweep; each tick is pushed with
//! an idempotency key naming the tick, so however many workers run, one task per tick exists.

use std::str::FromStr;

use chrono::Utc;
use sqlx::PgPool;

use domain::job_queue::Sweep;

/// Queues a `S` at every tick of its schedule until the process stops.
pub async fn run<S: Sweep>(pool: PgPool) {
    let schedule = cron::Schedule::from_str(&S::schedule()).expect("valid cron expression (checked at start)");
    for next in schedule.upcoming(Utc) {
        let wait = (next - Utc::now()).to_std().unwrap_or_default();
        tokio::time::sleep(wait).await;
        let tick = next.timestamp();
        if let Err(err) = push_tick::<S>(&pool, tick).await {
            tracing::error!(queue = S::QUEUE, tick, error = %err, "could not queue a scheduled task");
        }
    }
}

pub async fn push_tick<S: Sweep>(pool: &PgPool, tick: i64) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?;
    S::from_tick(tick).enqueue(&mut conn).await?;
    Ok(())
}
