//! The wallet's durable jobs: settling a top-up whose answer was lost ([`ReconcileTopUp`], queued
//! with every attempt; the payments sweep also settles overdue ones) and paying a wallet refund out
//! ([`PayWalletRefund`], queued with the admin's decision). Handlers: `jobs/src/wallet.rs`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Result, job_queue::Job};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReconcileTopUp {
    pub top_up_id: Uuid,
}

impl Job for ReconcileTopUp {
    const QUEUE: &'static str = "wallet_top_up_reconciliation";
    const MAX_ATTEMPTS: usize = 20;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("reconcile-top-up:{}", self.top_up_id))
    }
}

/// Tries before a wallet refund is marked failed (and given back to the balance).
pub const REFUND_ATTEMPTS: usize = 8;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PayWalletRefund {
    pub wallet_refund_id: Uuid,
}

impl Job for PayWalletRefund {
    const QUEUE: &'static str = "wallet_refunds";
    const MAX_ATTEMPTS: usize = REFUND_ATTEMPTS;

    /// One task per refund, ever.
    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("wallet-refund:{}", self.wallet_refund_id))
    }
}

/// Queues the reconciliation of a new top-up attempt, in the transaction that records it.
pub async fn schedule_reconciliation(conn: &mut PgConnection, top_up_id: Uuid, at: DateTime<Utc>) -> Result<()> {
    ReconcileTopUp { top_up_id }.enqueue_at(conn, at).await
}

/// Queues the payout of a wallet refund, in the transaction of the decision.
pub async fn schedule_refund(conn: &mut PgConnection, wallet_refund_id: Uuid) -> Result<()> {
    PayWalletRefund { wallet_refund_id }.enqueue(conn).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refunds_try_eight_times_and_reconciliation_twenty() {
        assert_eq!(REFUND_ATTEMPTS, 8);
        assert_eq!(<ReconcileTopUp as Job>::MAX_ATTEMPTS, 20);
    }
}
