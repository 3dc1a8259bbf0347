//! Cron schedules. Every worker process runs this loop for every sweep; each tick is pushed with
//! an idempotency key naming the tick, so however many workers run, one task per tick exists.

use std::str::FromStr;

use chrono::Utc;
use sqlx::PgPool;

use crate::job::Sweep;

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

/// The first tick of the cron `expression` after `after`; `None` for an invalid expression or
/// one that never ticks again.
pub fn next_run(expression: &str, after: chrono::DateTime<Utc>) -> Option<chrono::DateTime<Utc>> {
    cron::Schedule::from_str(expression).ok()?.after(&after).next()
}

pub async fn push_tick<S: Sweep>(pool: &PgPool, tick: i64) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?;
    S::from_tick(tick).enqueue(&mut conn).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_next_run_follows_the_expression() {
        let monday_noon = Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap();
        assert_eq!(
            next_run("0 0 6 * * Mon", monday_noon),
            Some(Utc.with_ymd_and_hms(2026, 11, 30, 6, 0, 0).unwrap())
        );
        assert_eq!(
            next_run("*/15 * * * * *", monday_noon),
            Some(Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 15).unwrap())
        );
        assert_eq!(next_run("bogus", monday_noon), None);
    }
}
