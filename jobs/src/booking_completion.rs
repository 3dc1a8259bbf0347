//! Completing sessions (`domain::booking::completion`): a confirmed booking becomes completed
//! once its session ended more than the complaint window ago, and the seeker is asked for a review.
//!
//! When: scheduled for end + 24 hours whenever a booking is confirmed or moved; an hourly sweep
//! ([`SWEEP_SCHEDULE`]) completes any overdue booking whose task was lost.
//! Safe to run twice: only a confirmed booking past its window changes, and the review request
//! goes with that change.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::booking::completion;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{context::JobContext, email::EmailJob, job::Job};

pub const QUEUE: &str = "booking_completion";
pub const SWEEP_QUEUE: &str = "booking_completion_sweep";
/// Every hour, on the hour.
pub const SWEEP_SCHEDULE: &str = "0 0 * * * *";
pub const MAX_ATTEMPTS: usize = 5;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Complete {
    pub booking_id: Uuid,
}

impl Job for Complete {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    /// One task per booking and due time: a moved booking gets another.
    fn idempotency_key(&self, run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!(
            "complete:{}:{}",
            self.booking_id,
            run_at.map_or(0, |t| t.timestamp())
        ))
    }
}

crate::sweep!(SweepCompletions, queue: SWEEP_QUEUE, schedule: SWEEP_SCHEDULE);

pub async fn schedule(conn: &mut PgConnection, booking_id: Uuid, ends_at: DateTime<Utc>) -> domain::Result<()> {
    Complete { booking_id }
        .enqueue_at(conn, completion::due_at(ends_at))
        .await
}

/// Completes one booking and queues its review request, in one transaction.
async fn complete(ctx: &JobContext, booking_id: Uuid) -> domain::Result<bool> {
    let mut tx = ctx.pool.begin().await?;
    if completion::complete(&mut tx, booking_id).await?.is_none() {
        return Ok(false);
    }
    EmailJob::ReviewRequest { booking_id }.enqueue(&mut tx).await?;
    tx.commit().await?;
    Ok(true)
}

pub async fn handle(job: Complete, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let completed = complete(&ctx, job.booking_id).await?;
    tracing::info!(booking = %job.booking_id, completed, "completion checked");
    Ok(())
}

pub async fn sweep(job: SweepCompletions, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut completed = 0;
    for id in completion::overdue(&ctx.pool).await? {
        if complete(&ctx, id).await? {
            completed += 1;
        }
    }
    if completed > 0 {
        tracing::warn!(
            tick = job.tick,
            completed,
            "sweep completed bookings whose tasks had not run"
        );
    }
    Ok(())
}
