//! Releasing a reservation hold when its 60 minutes are up.
//!
//! When: scheduled for the hold's `expiresAt` (rounded up to the next whole second, so never
//! early) in the same transaction that creates the hold; a worker that was down runs it on start.
//! A sweep every minute ([`SWEEP_SCHEDULE`]) releases any overdue hold whose task was lost.
//! Safe to run twice: only a hold that is still held and past its expiry changes.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::booking::reservations;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    JobContext,
    queue::{self, PushOptions},
};

pub const QUEUE: &str = "reservation_expiry";
pub const SWEEP_QUEUE: &str = "reservation_expiry_sweep";
/// Every minute.
pub const SWEEP_SCHEDULE: &str = "0 * * * * *";
pub const MAX_ATTEMPTS: usize = 10;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExpireHold {
    pub booking_id: Uuid,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepHolds {
    pub tick: i64,
}

/// The whole second at or after `t`.
pub fn not_before(t: DateTime<Utc>) -> DateTime<Utc> {
    let whole = DateTime::from_timestamp(t.timestamp(), 0).expect("in range");
    if whole < t { whole + chrono::Duration::seconds(1) } else { whole }
}

pub async fn schedule(conn: &mut PgConnection, booking_id: Uuid, expires_at: DateTime<Utc>) -> domain::Result<()> {
    let options = PushOptions {
        run_at: Some(not_before(expires_at)),
        idempotency_key: Some(format!("expire:{booking_id}")),
        max_attempts: Some(MAX_ATTEMPTS),
    };
    queue::push(conn, QUEUE, &ExpireHold { booking_id }, options).await?;
    Ok(())
}

pub async fn handle(job: ExpireHold, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let released = reservations::expire_hold(&ctx.pool, job.booking_id).await?;
    tracing::info!(booking = %job.booking_id, released, "reservation hold checked");
    Ok(())
}

pub async fn sweep(job: SweepHolds, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let released = reservations::expire_overdue_holds(&ctx.pool).await?;
    if released > 0 {
        tracing::warn!(tick = job.tick, released, "sweep released holds whose expiry task had not run");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_before_the_expiry() {
        let exact = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert_eq!(not_before(exact), exact);
        let fraction = DateTime::from_timestamp(1_800_000_000, 1).unwrap();
        assert_eq!(not_before(fraction), exact + chrono::Duration::seconds(1));
    }
}
