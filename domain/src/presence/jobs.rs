//! Presence checks, queued for a moment: [`OFFLINE_AFTER_LAST_SOCKET`](super::OFFLINE_AFTER_LAST_SOCKET)
//! after a mentor's last socket closed, and [`BOOKED_SESSION_MARGIN`](super::BOOKED_SESSION_MARGIN)
//! before their next booked session when they go online. The handler (`jobs/src/presence.rs`) runs
//! [`super::check`], which only ever takes an available mentor offline, so a check that finds them
//! back (a socket open again) does nothing: safe to run twice.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Result, job_queue::Job};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckPresence {
    pub mentor_id: Uuid,
}

impl Job for CheckPresence {
    const QUEUE: &'static str = "presence_checks";
    const MAX_ATTEMPTS: usize = 5;

    /// One task per mentor and moment.
    fn idempotency_key(&self, run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!(
            "presence:{}:{}",
            self.mentor_id,
            run_at.map(|t| t.timestamp()).unwrap_or_default()
        ))
    }
}

crate::sweep!(
    /// Every minute, at second 15: checks every available mentor, so one whose api process died
    /// without closing their socket (no close, so no queued check) still goes offline once the
    /// socket's row is stale.
    SweepPresence, queue: "presence_checks_sweep", schedule: "15 * * * * *"
);

/// Queues a check of the mentor's presence for `at`, in the caller's transaction.
pub async fn schedule_check(conn: &mut PgConnection, mentor_id: Uuid, at: DateTime<Utc>) -> Result<()> {
    CheckPresence { mentor_id }.enqueue_at(conn, at).await
}
