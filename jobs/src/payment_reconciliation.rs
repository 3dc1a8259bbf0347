//! Settling card charges whose answer never arrived (the api crashed or the gateway timed out).
//!
//! When: enqueued with every payment attempt, to run [`Config::payment_reconcile_after`] later;
//! a sweep every minute ([`SWEEP_SCHEDULE`]) settles any attempt still open after that long.
//! Does: asks the gateway about the attempt's reference. Charged → the booking is confirmed
//! (or, when its hold has gone, the charge is refunded in full); declined → recorded as such;
//! unknown to the gateway past its answer deadline → nothing was charged.
//! Safe to run twice: an attempt is settled once (`checkout::settle` skips a settled one).
//!
//! [`Config::payment_reconcile_after`]: domain::Config

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::payments::{
    ChargeOutcome,
    checkout::{self, OpenAttempt, Settled},
};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{booking_events, context::JobContext, job::Job, refunds::PayRefund};

pub const QUEUE: &str = "payment_reconciliation";
pub const SWEEP_QUEUE: &str = "payment_reconciliation_sweep";
/// Every minute, at second 30.
pub const SWEEP_SCHEDULE: &str = "30 * * * * *";
pub const MAX_ATTEMPTS: usize = 20;
pub const NOT_CHARGED: &str = "The payment did not reach the bank. Nothing was charged.";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reconcile {
    pub payment_id: Uuid,
}

impl Job for Reconcile {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("reconcile:{}", self.payment_id))
    }
}

crate::sweep!(SweepAttempts, queue: SWEEP_QUEUE, schedule: SWEEP_SCHEDULE);

/// Queues the reconciliation of a new attempt, in the transaction that records it.
pub async fn schedule(conn: &mut PgConnection, payment_id: Uuid, at: DateTime<Utc>) -> domain::Result<()> {
    Reconcile { payment_id }.enqueue_at(conn, at).await
}

/// Records the gateway's answer for an attempt and queues what follows, in one transaction.
pub async fn settle(pool: &PgPool, payment_id: Uuid, outcome: &ChargeOutcome) -> domain::Result<Settled> {
    let mut tx = pool.begin().await?;
    let settled = checkout::settle(&mut tx, payment_id, outcome, Utc::now()).await?;
    match &settled {
        Settled::Confirmed(booking) => booking_events::confirmed(&mut tx, booking).await?,
        Settled::Reversed { refund_id } => PayRefund { refund_id: *refund_id }.enqueue(&mut tx).await?,
        Settled::AlreadySettled | Settled::Refused { .. } => {}
    }
    tx.commit().await?;
    Ok(settled)
}

/// Settles one open attempt from what the gateway knows. `Err` when it cannot tell yet.
async fn reconcile(ctx: &JobContext, attempt: &OpenAttempt) -> Result<(), BoxDynError> {
    let outcome = match ctx.gateway.find_charge(&attempt.reference).await? {
        Some(outcome) => outcome,
        None => {
            let age = (Utc::now() - attempt.created_at).to_std().unwrap_or_default();
            if age < ctx.gateway.answer_deadline() {
                return Err(format!("payment {} is not known to the gateway yet", attempt.id).into());
            }
            ChargeOutcome::Error {
                reason: NOT_CHARGED.into(),
            }
        }
    };
    let settled = settle(&ctx.pool, attempt.id, &outcome).await?;
    let result = match settled {
        Settled::Confirmed(_) => "charged; booking confirmed",
        Settled::Reversed { .. } => "charged after the hold had gone; refunding",
        Settled::Refused { .. } => "not charged",
        Settled::AlreadySettled => "already settled",
    };
    tracing::warn!(payment = %attempt.id, result, "reconciled a payment whose answer was lost");
    Ok(())
}

pub async fn handle(job: Reconcile, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    match checkout::open_attempt(&ctx.pool, job.payment_id).await? {
        Some(attempt) => reconcile(&ctx, &attempt).await,
        None => Ok(()),
    }
}

pub async fn sweep(job: SweepAttempts, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let overdue = Utc::now() - ctx.config.payment_reconcile_after;
    for attempt in checkout::open_attempts_before(&ctx.pool, overdue).await? {
        if let Err(err) = reconcile(&ctx, &attempt).await {
            tracing::warn!(tick = job.tick, payment = %attempt.id, error = %err, "sweep could not reconcile a payment yet");
        }
    }
    Ok(())
}
