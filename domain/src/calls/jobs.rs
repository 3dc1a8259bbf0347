//! The call's durable jobs, declared once; the worker's `jobs::call_timeout` runs them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Result, job_queue::Job};

/// Tries of either call job.
pub const MAX_ATTEMPTS: usize = 5;

/// Ending a call nobody answered ('missed'), queued with the call for its start plus the ring
/// timeout (`CALL_RING_TIMEOUT`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MissCall {
    pub call_id: Uuid,
}

impl Job for MissCall {
    const QUEUE: &'static str = "call_timeout";
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("call-timeout:{}", self.call_id))
    }
}

pub async fn schedule_timeout(conn: &mut PgConnection, call_id: Uuid, due: DateTime<Utc>) -> Result<()> {
    MissCall { call_id }.enqueue_at(conn, due).await
}

/// Ending an answered call whose party dropped and did not come back within the reconnect grace
/// (`CALL_RECONNECT_GRACE`), queued with the closed socket for then plus the grace.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EndDroppedCall {
    pub call_id: Uuid,
    /// The party's call socket that closed.
    pub socket: Uuid,
}

impl Job for EndDroppedCall {
    const QUEUE: &'static str = "call_reconnect_grace";
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("call-reconnect:{}:{}", self.call_id, self.socket))
    }
}

pub async fn schedule_grace(conn: &mut PgConnection, call_id: Uuid, socket: Uuid, due: DateTime<Utc>) -> Result<()> {
    EndDroppedCall { call_id, socket }.enqueue_at(conn, due).await
}
