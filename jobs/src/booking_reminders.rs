//! Reminders 24 hours and 1 hour before a session (`domain::booking::reminders`): a
//! booking_reminder notification to both sides and an e-mail where their preferences allow.
//!
//! When: scheduled for each due time when a booking is confirmed or moved; a sweep every five
//! minutes ([`SWEEP_SCHEDULE`]) sends any due reminder whose task was lost.
//! Safe to run twice: a reminder names the start it was scheduled for and is recorded in
//! `booking_reminders`; a booking that was cancelled or moved since, or a reminder already
//! recorded, sends nothing.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::booking::reminders;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{context::JobContext, email::EmailJob, job::Job};

pub const QUEUE: &str = "booking_reminders";
pub const SWEEP_QUEUE: &str = "booking_reminders_sweep";
/// Every five minutes.
pub const SWEEP_SCHEDULE: &str = "0 */5 * * * *";
pub const MAX_ATTEMPTS: usize = 5;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Remind {
    pub booking_id: Uuid,
    pub kind: String,
    /// The start this reminder is for (unix seconds); a moved booking ignores it.
    pub start: i64,
}

impl Job for Remind {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("reminder:{}:{}:{}", self.booking_id, self.kind, self.start))
    }
}

crate::sweep!(SweepReminders, queue: SWEEP_QUEUE, schedule: SWEEP_SCHEDULE);

/// Queues the reminders of a booking's current start that are still ahead.
pub async fn schedule(
    conn: &mut PgConnection,
    booking_id: Uuid,
    start: DateTime<Utc>,
    now: DateTime<Utc>,
) -> domain::Result<()> {
    for (reminder, due) in reminders::ahead(start, now) {
        let job = Remind {
            booking_id,
            kind: reminder.kind.to_string(),
            start: start.timestamp(),
        };
        job.enqueue_at(conn, due).await?;
    }
    Ok(())
}

/// Sends one reminder and queues its e-mail, in one transaction; true when it was sent now.
async fn remind(ctx: &JobContext, booking_id: Uuid, kind: &str, start: DateTime<Utc>) -> domain::Result<bool> {
    let mut tx = ctx.pool.begin().await?;
    let Some(lead) = reminders::remind(&mut tx, booking_id, kind, start).await? else {
        return Ok(false);
    };
    EmailJob::BookingReminder {
        booking_id,
        lead: lead.to_string(),
    }
    .enqueue(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

pub async fn handle(job: Remind, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let sent = match DateTime::from_timestamp(job.start, 0) {
        Some(start) => remind(&ctx, job.booking_id, &job.kind, start).await?,
        None => false,
    };
    tracing::info!(booking = %job.booking_id, kind = job.kind, sent, "reminder checked");
    Ok(())
}

/// Sends every reminder that is due, still ahead of its session, and not sent yet.
pub async fn sweep(job: SweepReminders, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut sent = 0;
    for due in reminders::overdue(&ctx.pool).await? {
        if remind(&ctx, due.booking_id, due.reminder.kind, due.start).await? {
            sent += 1;
        }
    }
    if sent > 0 {
        tracing::warn!(tick = job.tick, sent, "sweep sent reminders whose tasks had not run");
    }
    Ok(())
}
