//! Settling card charges whose answer never arrived, declared once: queued with every payment
//! attempt ([`schedule`]) and swept every minute; the worker's `jobs::payment_reconciliation`
//! runs [`super::pay::reconcile`] for it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Result, job_queue::Job};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reconcile {
    pub payment_id: Uuid,
}

impl Job for Reconcile {
    const QUEUE: &'static str = "payment_reconciliation";
    const MAX_ATTEMPTS: usize = 20;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("reconcile:{}", self.payment_id))
    }
}

crate::sweep!(
    /// Every minute, at second 30: settles any attempt still open past `payment_reconcile_after`.
    SweepAttempts, queue: "payment_reconciliation_sweep", schedule: "30 * * * * *"
);

/// Queues the reconciliation of a new attempt, in the transaction that records it.
pub async fn schedule(conn: &mut PgConnection, payment_id: Uuid, at: DateTime<Utc>) -> Result<()> {
    Reconcile { payment_id }.enqueue_at(conn, at).await
}
