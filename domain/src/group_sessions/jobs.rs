//! A group session's time-driven steps, declared once: both are queued when the session is
//! created ([`schedule`]) and a sweep every fifteen seconds runs any due step whose task was
//! lost; the worker's `jobs::group_sessions` runs them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{GroupSession, sessions};
use crate::{Result, job_queue::Job};

/// The step at the start: the session goes live.
pub const GO_LIVE: &str = "start";
/// The step at start + duration: the session is completed (or cancelled for a mentor's no-show).
pub const FINISH: &str = "end";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GroupSessionStep {
    pub group_session_id: Uuid,
    /// "start" or "end".
    pub step: String,
    /// The start this step is for (unix seconds); a moved session ignores it.
    pub start: i64,
}

impl Job for GroupSessionStep {
    const QUEUE: &'static str = "group_session_state";
    const MAX_ATTEMPTS: usize = 5;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!(
            "group-session:{}:{}:{}",
            self.group_session_id, self.step, self.start
        ))
    }
}

crate::sweep!(
    /// Every fifteen seconds: a session's start should not wait long for a lost task.
    SweepGroupSessions, queue: "group_session_state_sweep", schedule: "*/15 * * * * *"
);

/// Queues both steps of the session's current start, and its event in the mentor's own
/// calendar, in the caller's transaction.
pub async fn schedule(conn: &mut PgConnection, g: &GroupSession) -> Result<()> {
    crate::job_queue::calendar_writeback::enqueue_group_session(conn, g.id).await?;
    let (start, end) = sessions::start_and_end(g);
    let at = g.scheduled_at.timestamp();
    GroupSessionStep {
        group_session_id: g.id,
        step: GO_LIVE.into(),
        start: at,
    }
    .enqueue_at(conn, start)
    .await?;
    GroupSessionStep {
        group_session_id: g.id,
        step: FINISH.into(),
        start: at,
    }
    .enqueue_at(conn, end)
    .await
}
