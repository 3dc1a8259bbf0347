//! Completing sessions: a confirmed booking becomes completed once its session ended more than
//! the complaint window ([`COMPLAINT_WINDOW`]) ago, and the seeker is asked for a review.
//!
//! When: scheduled for end + 24 hours whenever a booking is confirmed or moved; an hourly sweep
//! ([`SWEEP_SCHEDULE`]) completes any overdue booking whose task was lost.
//! Safe to run twice: only a confirmed booking past its window changes, and the review request
//! goes with that change.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Duration, Utc};
use domain::{
    booking::manage,
    notifications::{self, Kind},
};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    JobContext,
    email::{self, EmailJob},
    queue::{self, PushError, PushOptions},
};

pub const QUEUE: &str = "booking_completion";
pub const SWEEP_QUEUE: &str = "booking_completion_sweep";
/// Every hour, on the hour.
pub const SWEEP_SCHEDULE: &str = "0 0 * * * *";
/// Complaints are possible within 24 hours of the session (help policy).
pub const COMPLAINT_WINDOW: Duration = Duration::hours(24);
pub const MAX_ATTEMPTS: usize = 5;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Complete {
    pub booking_id: Uuid,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepCompletions {
    pub tick: i64,
}

pub async fn schedule(conn: &mut PgConnection, booking_id: Uuid, ends_at: DateTime<Utc>) -> domain::Result<()> {
    let due = ends_at + COMPLAINT_WINDOW;
    let options = PushOptions {
        run_at: Some(crate::reservation_expiry::not_before(due)),
        idempotency_key: Some(format!("complete:{booking_id}:{}", due.timestamp())),
        max_attempts: Some(MAX_ATTEMPTS),
    };
    match queue::push(conn, QUEUE, &Complete { booking_id }, options).await {
        Ok(()) | Err(PushError::AlreadyQueued) => Ok(()),
        Err(err) => Err(err.into()),
    }
}

async fn complete(ctx: &JobContext, booking_id: Uuid) -> domain::Result<bool> {
    let mut tx = ctx.pool.begin().await?;
    let Some(b) = manage::complete_if_due(&mut tx, booking_id, COMPLAINT_WINDOW).await? else { return Ok(false) };
    notifications::notify(
        &mut *tx,
        b.user_id,
        Kind::SystemAnnouncement,
        "How was your session?",
        &format!("Your session \"{}\" with {} is complete. Leave a review to help other seekers.", b.service_title, b.mentor_display_name),
        Some("/dashboard"),
    )
    .await?;
    email::enqueue(&mut tx, &EmailJob::ReviewRequest { booking_id }).await?;
    tx.commit().await?;
    Ok(true)
}

pub async fn handle(job: Complete, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let completed = complete(&ctx, job.booking_id).await?;
    tracing::info!(booking = %job.booking_id, completed, "completion checked");
    Ok(())
}

pub async fn sweep(job: SweepCompletions, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let due: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM bookings WHERE status = 'confirmed' AND ends_at + $1::interval <= now()")
        .bind(COMPLAINT_WINDOW)
        .fetch_all(&ctx.pool)
        .await?;
    let mut completed = 0;
    for id in due {
        if complete(&ctx, id).await? {
            completed += 1;
        }
    }
    if completed > 0 {
        tracing::warn!(tick = job.tick, completed, "sweep completed bookings whose tasks had not run");
    }
    Ok(())
}
