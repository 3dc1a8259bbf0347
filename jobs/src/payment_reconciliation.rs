//! Settling card charges whose answer never arrived (the api crashed or the gateway timed out).
//!
//! When: `domain::payments::jobs::Reconcile`, queued with every payment attempt to run
//! `payment_reconcile_after` later; a sweep every minute settles any attempt still open after that.
//! Does: `domain::payments::pay::reconcile` asks the gateway about the attempt's reference.
//! Charged → the booking is confirmed (or, when its hold has gone, the charge is refunded in
//! full); declined → recorded as such; unknown to the gateway past its answer deadline → nothing
//! was charged.
//! The sweep settles overdue wallet top-ups too (`crate::wallet::sweep`).
//! Safe to run twice: an attempt is settled once (`checkout::settle` skips a settled one).

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::payments::{
    checkout::{self, OpenAttempt, Settled},
    jobs::{Reconcile, SweepAttempts},
    pay,
};

use crate::{context::JobContext, handler::Handler};

/// Settles one open attempt from what the gateway knows. `Err` when it cannot tell yet.
async fn reconcile(ctx: &JobContext, attempt: &OpenAttempt) -> Result<(), BoxDynError> {
    let Some(settled) = pay::reconcile(&ctx.pool, ctx.gateway.as_ref(), attempt).await? else {
        return Err(format!("payment {} is not known to the gateway yet", attempt.id).into());
    };
    let result = match settled {
        Settled::Confirmed(_) => "charged; booking confirmed",
        Settled::Reversed { .. } => "charged after the hold had gone; refunding",
        Settled::Refused { .. } => "not charged",
        Settled::AlreadySettled => "already settled",
    };
    tracing::warn!(payment = %attempt.id, result, "reconciled a payment whose answer was lost");
    Ok(())
}

impl Handler for Reconcile {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        match checkout::open_attempt(&ctx.pool, self.payment_id).await? {
            Some(attempt) => reconcile(&ctx, &attempt).await,
            None => Ok(()),
        }
    }
}

impl Handler for SweepAttempts {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let overdue = Utc::now() - ctx.config.payment_reconcile_after;
        for attempt in checkout::open_attempts_before(&ctx.pool, overdue).await? {
            if let Err(err) = reconcile(&ctx, &attempt).await {
                tracing::warn!(tick = self.tick, payment = %attempt.id, error = %err, "sweep could not reconcile a payment yet");
            }
        }
        // Wallet top-ups are card payments too: the same sweep settles the overdue ones.
        crate::wallet::sweep(&ctx, self.tick).await
    }
}
