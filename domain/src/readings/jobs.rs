//! A reading's durable jobs: its request's expiry [`super::REQUEST_TTL`] after it was made
//! ([`ExpireReading`]) and the charge of each minute as it starts ([`ChargeMinute`], keyed by the
//! reading and the minute's index). Handlers: `jobs/src/readings.rs`. Both are safe to run twice:
//! expiry only touches a reading still requested, and a minute's charge is a ledger entry unique by
//! (reading, minute index).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Result, job_queue::Job};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExpireReading {
    pub instant_session_id: Uuid,
}

impl Job for ExpireReading {
    const QUEUE: &'static str = "instant_session_expiry";
    const MAX_ATTEMPTS: usize = 10;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("reading-expiry:{}", self.instant_session_id))
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChargeMinute {
    pub instant_session_id: Uuid,
    /// The minute whose start this task is queued for (0 from the reading's start).
    pub minute: i32,
}

impl Job for ChargeMinute {
    const QUEUE: &'static str = "instant_session_charges";
    const MAX_ATTEMPTS: usize = 10;

    /// One task per reading and minute.
    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("reading-minute:{}:{}", self.instant_session_id, self.minute))
    }
}

/// Queues the request's expiry, in the transaction that makes it.
pub async fn schedule_expiry(conn: &mut PgConnection, instant_session_id: Uuid, at: DateTime<Utc>) -> Result<()> {
    ExpireReading { instant_session_id }.enqueue_at(conn, at).await
}

/// Queues the charge of minute `minute`, due at its start.
pub async fn schedule_charge(
    conn: &mut PgConnection,
    instant_session_id: Uuid,
    minute: i32,
    at: DateTime<Utc>,
) -> Result<()> {
    ChargeMinute {
        instant_session_id,
        minute,
    }
    .enqueue_at(conn, at)
    .await
}
