//! Paying refunds out through the payment gateway.
//!
//! When: `domain::job_queue::refunds::PayRefund`, queued with the decision that owes the refund
//! (a cancellation, the reversal of a late charge, a complaint's outcome, a no-show, an admin's
//! goodwill), in that decision's transaction.
//! A gateway refusal or an unknown outcome retries with backoff; after [`MAX_ATTEMPTS`] the
//! refund is marked failed for an admin to see.
//! Safe to run twice: a try whose answer was lost is looked up at the gateway by the refund's
//! reference before another is sent, and a refund that succeeded is never paid again.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::{
    job_queue::refunds::{MAX_ATTEMPTS, PayRefund},
    payments::refund_payout::{self, Payout},
};

use crate::{context::JobContext, handler::Handler};

impl Handler for PayRefund {
    async fn handle(self, ctx: Data<JobContext>, attempt: Attempt) -> Result<(), BoxDynError> {
        pay(self, attempt, ctx).await
    }
}

async fn pay(job: PayRefund, attempt: Attempt, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let last_try = attempt.current() + 1 >= MAX_ATTEMPTS;
    let reason = match refund_payout::pay_out(&ctx.pool, ctx.gateway.as_ref(), job.refund_id).await {
        Ok(Payout::Done) => return Ok(()),
        Ok(Payout::Retry(reason)) => format!("the gateway refused the refund: {reason}"),
        Err(err) => format!("the refund's outcome is unknown: {err}"),
    };
    if last_try {
        refund_payout::mark_failed(&ctx.pool, job.refund_id, &reason).await?;
        tracing::error!(refund = %job.refund_id, reason, "refund failed for good");
        return Ok(());
    }
    Err(reason.into())
}
