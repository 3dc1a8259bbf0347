//! Paying a refund out, as queued for the worker: the one definition of the `refunds` queue's payload,
//! so business rules that decide a refund queue its payout in their own transaction. The worker's
//! `jobs::refunds` pays it through the gateway.

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use chrono::{DateTime, Utc};

use super::Job;
use crate::Result;

/// The worker's refund queue; never rename it (queued tasks keep the old one).
pub const QUEUE: &str = "refunds";
/// Tries before the refund is marked failed for an admin to see.
pub const MAX_ATTEMPTS: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayRefund {
    pub refund_id: Uuid,
}

impl Job for PayRefund {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    /// One task per refund, ever.
    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("refund:{}", self.refund_id))
    }
}

/// Queues the payout of `refund_id` in the caller's transaction: it runs once the transaction commits.
pub async fn enqueue(conn: &mut PgConnection, refund_id: Uuid) -> Result<()> {
    PayRefund { refund_id }.enqueue(conn).await
}
