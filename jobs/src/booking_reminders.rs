//! Reminders 24 hours and 1 hour before a session (`domain::booking::reminders`): a
//! booking_reminder notification to both sides and an e-mail where their preferences allow.
//!
//! When: `domain::booking::jobs` queues a `Remind` for each due time when a booking is confirmed
//! or moved; a sweep every five minutes sends any due reminder whose task was lost.
//! Safe to run twice: a reminder names the start it was scheduled for and is recorded in
//! `booking_reminders`; a booking that was cancelled or moved since, or a reminder already
//! recorded, sends nothing.
//! Batched (`runner::batch`): the tasks a worker holds at once are sent in one transaction (the
//! bookings read, the reminders recorded, the notifications and e-mails queued, one statement
//! each), and each completes once it has committed.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::DateTime;
use domain::{
    booking::{
        jobs::{Remind, SweepReminders},
        reminders,
    },
    job_queue::{self, Job, email::EmailJob},
};
use sqlx::PgPool;

use crate::{context::JobContext, handler::Handler, runner::limits::MAX_BATCH};

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
    job_queue::push_all(&mut tx, EmailJob::QUEUE, &emails, EmailJob::MAX_ATTEMPTS).await?;
    tx.commit().await?;
    Ok(leads.iter().map(Option::is_some).collect())
}

impl Handler for Remind {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let (booking, kind) = (self.booking_id, self.kind.clone());
        let sent = ctx.batches.of(run_batch).submit(self).await?;
        tracing::debug!(%booking, kind, sent, "reminder checked");
        Ok(())
    }
}

async fn run_batch(pool: PgPool, jobs: Vec<Remind>) -> anyhow::Result<Vec<bool>> {
    remind_batch(&pool, &jobs).await
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

/// Every five minutes: sends every reminder that is due, still ahead of its session, and not
/// sent yet (one whose task was lost).
impl Handler for SweepReminders {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        sweep(self, ctx).await
    }
}

async fn sweep(job: SweepReminders, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
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
    for chunk in due.chunks(MAX_BATCH) {
        sent += remind_all(&ctx.pool, chunk).await?.iter().filter(|s| **s).count();
    }
    if sent > 0 {
        tracing::warn!(tick = job.tick, sent, "sweep sent reminders whose tasks had not run");
    }
    Ok(())
}
