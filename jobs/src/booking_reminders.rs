//! Reminders 24 hours and 1 hour before a session (`domain::booking::reminders`): a
//! booking_reminder notification to both sides and an e-mail where their preferences allow.
//!
//! When: scheduled for each due time when a booking is confirmed or moved; a sweep every five
//! minutes ([`SWEEP_SCHEDULE`]) sends any due reminder whose task was lost.
//! Safe to run twice: a reminder names the start it was scheduled for and is recorded in
//! `booking_reminders`; a booking that was cancelled or moved since, or a reminder already
//! recorded, sends nothing.
//! Batched (`crate::batch`): the tasks a worker holds at once are sent in one transaction (the
//! bookings read, the reminders recorded, the notifications and e-mails queued, one statement
//! each), and each completes once it has committed.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::booking::reminders;
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
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
    const CONCURRENCY: usize = crate::batch::BATCHED_CONCURRENCY;

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

/// Sends the reminders asked for that are still due and not sent yet, and queues their e-mails,
/// in one transaction; whether each was sent now (one asked twice is sent once).
async fn remind_all(pool: &PgPool, asked: &[reminders::Asked]) -> domain::Result<Vec<bool>> {
    let mut tx = pool.begin().await?;
    let leads = reminders::remind_many(&mut tx, asked).await?;
    let emails: Vec<EmailJob> = asked
        .iter()
        .zip(&leads)
        .filter_map(|(a, lead)| {
            lead.map(|lead| EmailJob::BookingReminder {
                booking_id: a.booking_id,
                lead: lead.to_string(),
            })
        })
        .collect();
    crate::queue::push_all(&mut tx, EmailJob::QUEUE, &emails, EmailJob::MAX_ATTEMPTS).await?;
    tx.commit().await?;
    Ok(leads.iter().map(Option::is_some).collect())
}

pub async fn handle(job: Remind, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let (booking, kind) = (job.booking_id, job.kind.clone());
    let sent = ctx.batches.reminders().submit(job).await?;
    tracing::debug!(%booking, kind, sent, "reminder checked");
    Ok(())
}

/// Runs a batch of reminder tasks in one transaction; whether each sent its reminder now.
pub async fn remind_batch(pool: &PgPool, jobs: &[Remind]) -> anyhow::Result<Vec<bool>> {
    // A start out of range names no booking's start: such a task sends nothing.
    let asked: Vec<(usize, reminders::Asked)> = jobs
        .iter()
        .enumerate()
        .filter_map(|(i, job)| {
            DateTime::from_timestamp(job.start, 0).map(|start| {
                (
                    i,
                    reminders::Asked {
                        booking_id: job.booking_id,
                        kind: job.kind.clone(),
                        start,
                    },
                )
            })
        })
        .collect();
    let only: Vec<reminders::Asked> = asked.iter().map(|(_, a)| a.clone()).collect();
    let sent = remind_all(pool, &only).await?;
    let mut out = vec![false; jobs.len()];
    for ((i, _), sent) in asked.iter().zip(sent) {
        out[*i] = sent;
    }
    tracing::info!(
        tasks = jobs.len(),
        sent = out.iter().filter(|s| **s).count(),
        "reminders checked"
    );
    Ok(out)
}

/// Sends every reminder that is due, still ahead of its session, and not sent yet.
pub async fn sweep(job: SweepReminders, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut sent = 0;
    let due: Vec<reminders::Asked> = reminders::overdue(&ctx.pool)
        .await?
        .into_iter()
        .map(|due| reminders::Asked {
            booking_id: due.booking_id,
            kind: due.reminder.kind.to_string(),
            start: due.start,
        })
        .collect();
    for chunk in due.chunks(crate::batch::MAX_BATCH) {
        sent += remind_all(&ctx.pool, chunk).await?.iter().filter(|s| **s).count();
    }
    if sent > 0 {
        tracing::warn!(tick = job.tick, sent, "sweep sent reminders whose tasks had not run");
    }
    Ok(())
}
