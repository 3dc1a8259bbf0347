//! Paying refunds out through the payment gateway.
//!
//! When: enqueued with the cancellation that owes the refund. A gateway refusal retries with
//! backoff; after [`MAX_ATTEMPTS`] the refund is marked failed for an admin to see.
//! Safe to run twice: the refund row is locked during the gateway call and a refund that
//! succeeded is never paid again; the gateway gets the refund's id as its reference.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::booking::refunds::{self, Payout};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    JobContext,
    queue::{self, PushError, PushOptions},
};

pub const QUEUE: &str = "refunds";
pub const MAX_ATTEMPTS: usize = 8;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PayRefund {
    pub refund_id: Uuid,
}

pub async fn enqueue(conn: &mut PgConnection, refund_id: Uuid) -> domain::Result<()> {
    let options = PushOptions { idempotency_key: Some(format!("refund:{refund_id}")), max_attempts: Some(MAX_ATTEMPTS), ..Default::default() };
    match queue::push(conn, QUEUE, &PayRefund { refund_id }, options).await {
        Ok(()) | Err(PushError::AlreadyQueued) => Ok(()),
        Err(err) => Err(err.into()),
    }
}

pub async fn handle(job: PayRefund, attempt: Attempt, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    match refunds::pay_out(&ctx.pool, ctx.gateway.as_ref(), job.refund_id).await? {
        Payout::Done => Ok(()),
        Payout::Retry(reason) => {
            if attempt.current() + 1 >= MAX_ATTEMPTS {
                refunds::mark_failed(&ctx.pool, job.refund_id).await?;
                tracing::error!(refund = %job.refund_id, reason, "refund failed for good");
                return Ok(());
            }
            Err(format!("the gateway refused the refund: {reason}").into())
        }
    }
}
