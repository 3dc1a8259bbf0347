//! The weekly payout batch as a durable job, declared once: every Monday at 06:00 UTC
//! ([`DEFAULT_SCHEDULE`]; `PAYOUT_SCHEDULE` replaces it), one task per tick however many workers
//! run, and queued by an admin's "run now" ([`queue_now`]); the worker's `jobs::payout_batch`
//! runs `batch::run` for it.

use std::{borrow::Cow, str::FromStr};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{
    Result,
    job_queue::{Job, SWEEP_MAX_ATTEMPTS, Sweep},
};

pub const QUEUE: &str = "payout_batch";
/// Every Monday at 06:00 UTC (seconds, minutes, hours, day of month, month, day of week).
pub const DEFAULT_SCHEDULE: &str = "0 0 6 * * Mon";
/// The environment variable that replaces [`DEFAULT_SCHEDULE`].
pub const SCHEDULE_ENV: &str = "PAYOUT_SCHEDULE";

/// One run of the batch: a cron tick, or an admin's "run now" (unix seconds of the request).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunPayouts {
    pub tick: i64,
}

impl Job for RunPayouts {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = SWEEP_MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("{QUEUE}:{}", self.tick))
    }
}

impl Sweep for RunPayouts {
    const SCHEDULE: &'static str = DEFAULT_SCHEDULE;

    fn schedule() -> Cow<'static, str> {
        schedule_from(std::env::var(SCHEDULE_ENV).ok().as_deref()).unwrap_or(Cow::Borrowed(DEFAULT_SCHEDULE))
    }

    fn from_tick(tick: i64) -> Self {
        Self { tick }
    }
}

/// The schedule `PAYOUT_SCHEDULE` names (the default when unset or blank), or why it is not a
/// cron expression. The worker checks it at start.
pub fn schedule_from(value: Option<&str>) -> anyhow::Result<Cow<'static, str>> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(Cow::Borrowed(DEFAULT_SCHEDULE)),
        Some(v) => match cron::Schedule::from_str(v) {
            Ok(_) => Ok(Cow::Owned(v.to_string())),
            Err(e) => anyhow::bail!(
                "{SCHEDULE_ENV} '{v}' is not a cron expression (seconds minutes hours day month weekday): {e}"
            ),
        },
    }
}

/// Checks `PAYOUT_SCHEDULE` in this process' environment.
pub fn check_schedule() -> anyhow::Result<()> {
    schedule_from(std::env::var(SCHEDULE_ENV).ok().as_deref()).map(|_| ())
}

/// Queues a run now (an admin's request). Its key is the millisecond, not the cron's second: a request made in
/// the second of a finished run must run again (bookings may have completed since), and runs never overlap.
pub async fn queue_now(conn: &mut PgConnection, now: DateTime<Utc>) -> Result<()> {
    RunPayouts {
        tick: now.timestamp_millis(),
    }
    .enqueue(conn)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekly_on_monday_at_six_utc_unless_overridden() {
        let next: Vec<_> = cron::Schedule::from_str(DEFAULT_SCHEDULE)
            .unwrap()
            .upcoming(Utc)
            .take(2)
            .collect();
        assert_eq!(next[0].format("%a %H:%M:%S").to_string(), "Mon 06:00:00");
        assert_eq!(next[1] - next[0], chrono::Duration::weeks(1));
        assert_eq!(schedule_from(None).unwrap(), DEFAULT_SCHEDULE);
        assert_eq!(schedule_from(Some(" ")).unwrap(), DEFAULT_SCHEDULE);
        assert_eq!(schedule_from(Some("*/2 * * * * *")).unwrap(), "*/2 * * * * *");
        assert!(schedule_from(Some("every monday")).is_err());
    }
}
