//! Ending a call nobody answered: 'missed' for both sides; and ending an answered call whose party
//! dropped and did not come back within the reconnect grace: 'disconnected'.
//!
//! When: queued in the transaction that starts the call, for its start plus the ring timeout
//! (`domain::calls::CALL_RING_TIMEOUT`, 45 s; tests may shorten it).
//! Safe to run twice: only a call that is still ringing changes, and only once.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::calls;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{context::JobContext, job::Job};

pub const QUEUE: &str = "call_timeout";
pub const MAX_ATTEMPTS: usize = 5;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MissCall {
    pub call_id: Uuid,
}

impl Job for MissCall {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("call-timeout:{}", self.call_id))
    }
}

pub async fn schedule(conn: &mut PgConnection, call_id: Uuid, due: DateTime<Utc>) -> domain::Result<()> {
    MissCall { call_id }.enqueue_at(conn, due).await
}

pub async fn handle(job: MissCall, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut tx = ctx.pool.begin().await?;
    let missed = calls::time_out(&mut tx, job.call_id).await?;
    tx.commit().await?;
    tracing::info!(call = %job.call_id, missed, "call ring timeout checked");
    Ok(())
}

/// The reconnect grace of an answered call whose party's socket closed
/// (`domain::calls::CALL_RECONNECT_GRACE`, 15 s; tests may shorten it).
///
/// When: queued in the transaction that records the closed socket, for then plus the grace.
/// Safe to run twice: only a call still bound to that closed socket ends, and only once.
pub const GRACE_QUEUE: &str = "call_reconnect_grace";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EndDroppedCall {
    pub call_id: Uuid,
    /// The party's call socket that closed.
    pub socket: Uuid,
}

impl Job for EndDroppedCall {
    const QUEUE: &'static str = GRACE_QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("call-reconnect:{}:{}", self.call_id, self.socket))
    }
}

pub async fn schedule_grace(
    conn: &mut PgConnection,
    call_id: Uuid,
    socket: Uuid,
    due: DateTime<Utc>,
) -> domain::Result<()> {
    EndDroppedCall { call_id, socket }.enqueue_at(conn, due).await
}

pub async fn handle_grace(job: EndDroppedCall, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut tx = ctx.pool.begin().await?;
    let ended = calls::drop_grace_over(&mut tx, job.call_id, job.socket).await?;
    tx.commit().await?;
    tracing::info!(call = %job.call_id, ended, "call reconnect grace checked");
    Ok(())
}
