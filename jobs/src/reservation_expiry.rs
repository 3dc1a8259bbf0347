//! Releasing a reservation hold when its 60 minutes are up.
//!
//! When: scheduled for the hold's `expiresAt` (rounded up to the next whole second, so never
//! early) in the same transaction that creates the hold; a worker that was down runs it on start.
//! A sweep every minute ([`SWEEP_SCHEDULE`]) releases any overdue hold whose task was lost.
//! Safe to run twice: only a hold that is still held and past its expiry changes.
//! Batched (`crate::batch`): the tasks a worker holds at once release their holds in one
//! statement, and each completes once that statement has committed.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::booking::reservations;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{context::JobContext, job::Job};

pub const QUEUE: &str = "reservation_expiry";
pub const SWEEP_QUEUE: &str = "reservation_expiry_sweep";
/// Every minute.
pub const SWEEP_SCHEDULE: &str = "0 * * * * *";
pub const MAX_ATTEMPTS: usize = 10;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExpireHold {
    pub booking_id: Uuid,
}

impl Job for ExpireHold {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;
    const CONCURRENCY: usize = crate::batch::BATCHED_CONCURRENCY;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("expire:{}", self.booking_id))
    }
}

crate::sweep!(SweepHolds, queue: SWEEP_QUEUE, schedule: SWEEP_SCHEDULE);

pub async fn schedule(conn: &mut PgConnection, booking_id: Uuid, expires_at: DateTime<Utc>) -> domain::Result<()> {
    ExpireHold { booking_id }.enqueue_at(conn, expires_at).await
}

pub async fn handle(job: ExpireHold, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let released = ctx.batches.hold_expiry().submit(job.booking_id).await?;
    tracing::debug!(booking = %job.booking_id, released, "reservation hold checked");
    Ok(())
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

pub async fn sweep(job: SweepHolds, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let released = reservations::expire_overdue_holds(&ctx.pool).await?;
    if released > 0 {
        tracing::warn!(
            tick = job.tick,
            released,
            "sweep released holds whose expiry task had not run"
        );
    }
    Ok(())
}
