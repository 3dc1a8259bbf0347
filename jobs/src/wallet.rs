//! The wallet's jobs (`domain::wallet::jobs`).
//!
//! `ReconcileTopUp`: queued with every top-up attempt to run `payment_reconcile_after` later; asks
//! the gateway about the attempt's reference and settles it (credited, or recorded as not charged).
//! Safe to run twice: a top-up is settled once (`top_up::settle` skips a settled one).
//!
//! `PayWalletRefund`: queued with an admin's wallet refund; pays it to the top-up's card. A refusal
//! or an unknown outcome retries with backoff; after the last try the refund is marked failed and
//! its amount given back to the balance. Safe to run twice: a try whose answer was lost is looked
//! up by the refund's reference before another is sent.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::wallet::{
    jobs::{PayWalletRefund, REFUND_ATTEMPTS, ReconcileTopUp},
    refunds::{self, Payout},
    top_up::{self, OpenTopUp},
};

use crate::{context::JobContext, handler::Handler};

/// Settles one open top-up from what the gateway knows. `Err` when it cannot tell yet.
pub async fn reconcile(ctx: &JobContext, open: &OpenTopUp) -> Result<(), BoxDynError> {
    let Some(settled) = top_up::reconcile(&ctx.pool, ctx.gateway.as_ref(), open).await? else {
        return Err(format!("top-up {} is not known to the gateway yet", open.id).into());
    };
    tracing::warn!(top_up = %open.id, result = ?settled, "reconciled a top-up whose answer was lost");
    Ok(())
}

impl Handler for ReconcileTopUp {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        match top_up::open_top_up(&ctx.pool, self.top_up_id).await? {
            Some(open) => reconcile(&ctx, &open).await,
            None => Ok(()),
        }
    }
}

/// The overdue top-ups the payments sweep settles too.
pub async fn sweep(ctx: &JobContext, tick: i64) -> Result<(), BoxDynError> {
    let overdue = Utc::now() - ctx.config.payment_reconcile_after;
    for open in top_up::open_top_ups_before(&ctx.pool, overdue).await? {
        if let Err(err) = reconcile(ctx, &open).await {
            tracing::warn!(tick, top_up = %open.id, error = %err, "sweep could not reconcile a top-up yet");
        }
    }
    Ok(())
}

impl Handler for PayWalletRefund {
    async fn handle(self, ctx: Data<JobContext>, attempt: Attempt) -> Result<(), BoxDynError> {
        let last_try = attempt.current() + 1 >= REFUND_ATTEMPTS;
        let reason = match refunds::pay_out(&ctx.pool, ctx.gateway.as_ref(), self.wallet_refund_id).await {
            Ok(Payout::Done) => return Ok(()),
            Ok(Payout::Retry(reason)) => format!("the gateway refused the refund: {reason}"),
            Err(err) => format!("the refund's outcome is unknown: {err}"),
        };
        if last_try {
            refunds::mark_failed(&ctx.pool, self.wallet_refund_id, &reason).await?;
            tracing::error!(wallet_refund = %self.wallet_refund_id, reason, "wallet refund failed for good; given back to the balance");
            return Ok(());
        }
        Err(reason.into())
    }
}
