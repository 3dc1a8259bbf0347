//! Completing sessions (`domain::booking::completion`): a confirmed booking becomes completed
//! once its session ended more than the complaint window ago, and the seeker is asked for a review.
//!
//! When: `domain::booking::jobs` queues a `Complete` for end + 24 hours whenever a booking is
//! confirmed or moved; an hourly sweep completes any overdue booking whose task was lost.
//! Safe to run twice: only a confirmed booking past its window changes, and the review request
//! goes with that change.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::{
    booking::{
        completion,
        jobs::{Complete, SweepCompletions},
    },
    job_queue::{Job, email::EmailJob},
};
use uuid::Uuid;

use crate::{context::JobContext, handler::Handler};

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

impl Handler for Complete {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let completed = complete(&ctx, self.booking_id).await?;
        tracing::info!(booking = %self.booking_id, completed, "completion checked");
        Ok(())
    }
}

impl Handler for SweepCompletions {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let mut completed = 0;
        for id in completion::overdue(&ctx.pool).await? {
            if complete(&ctx, id).await? {
                completed += 1;
            }
        }
        if completed > 0 {
            tracing::warn!(
                tick = self.tick,
                completed,
                "sweep completed bookings whose tasks had not run"
            );
        }
        Ok(())
    }
}
