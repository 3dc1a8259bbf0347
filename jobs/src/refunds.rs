//! Paying refunds out through the payment gateway.
//!
//! When: enqueued with the cancellation (or the reversal of a late charge) that owes the refund.
//! A gateway refusal or an unknown outcome retries with backoff; after [`MAX_ATTEMPTS`] the
//! refund is marked failed for an admin to see.
//! Safe to run twice: a try whose answer was lost is looked up at the gateway by the refund's
//! reference before another is sent, and a refund that succeeded is never paid again.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::payments::refund_payout::{self, Payout};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{context::JobContext, job::Job};

pub const QUEUE: &str = "refunds";
pub const MAX_ATTEMPTS: usize = 8;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PayRefund {
    pub refund_id: Uuid,
}

impl Job for PayRefund {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("refund:{}", self.refund_id))
    }
}

pub async fn handle(job: PayRefund, attempt: Attempt, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
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
