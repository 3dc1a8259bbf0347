//! Releasing a reservation hold when its 60 minutes are up (`domain::booking::jobs::ExpireHold`,
//! queued for the hold's expiry with the hold; a worker that was down runs it on start).
//! Safe to run twice: only a hold that is still held and past its expiry changes.
//! Batched (`runner::batch`): the tasks a worker holds at once release their holds in one
//! statement, and each completes once that statement has committed.

use std::collections::HashSet;

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::booking::{
    jobs::{ExpireHold, SweepHolds},
    reservations,
};
use sqlx::PgPool;
use uuid::Uuid;

use crate::{context::JobContext, handler::Handler};

impl Handler for ExpireHold {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let released = ctx.batches.of(run_batch).submit(self.booking_id).await?;
        tracing::debug!(booking = %self.booking_id, released, "reservation hold checked");
        Ok(())
    }
}

async fn run_batch(pool: PgPool, ids: Vec<Uuid>) -> anyhow::Result<Vec<bool>> {
    expire_batch(&pool, &ids).await
}

/// Runs a batch of expiry tasks (booking ids, maybe repeated) as one statement; whether each
/// task released its hold (a hold named twice is released by the first).
pub async fn expire_batch(pool: &PgPool, ids: &[Uuid]) -> anyhow::Result<Vec<bool>> {
    let mut released: HashSet<Uuid> = reservations::expire_holds(pool, ids).await?.into_iter().collect();
    tracing::info!(
        tasks = ids.len(),
        released = released.len(),
        "reservation holds checked"
    );
    Ok(ids.iter().map(|id| released.remove(id)).collect())
}

/// Every minute: releases any overdue hold whose task was lost.
impl Handler for SweepHolds {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let released = reservations::expire_overdue_holds(&ctx.pool).await?;
        if released > 0 {
            tracing::warn!(
                tick = self.tick,
                released,
                "sweep released holds whose expiry task had not run"
            );
        }
        Ok(())
    }
}
