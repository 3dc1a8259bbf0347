//! Writing a session back into its mentor's own calendar (issue 33 §3), declared here because
//! booking, group sessions and calendars all queue it (`calendars::writeback` does the writing, the
//! worker's `jobs::calendar_writeback` runs it).

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use super::Job;
use crate::Result;

/// One session to bring up to date in the mentor's calendar: a booking or a group session.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct WriteBack {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booking_id: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_session_id: Option<Uuid>,
}

impl Job for WriteBack {
    const QUEUE: &'static str = "calendar_writeback";
    const MAX_ATTEMPTS: usize = 8;
}

/// Queues the write-back of a one-to-one booking when its mentor has a calendar connected (a
/// group seat is its session's event, never one of its own).
pub async fn enqueue_booking(conn: &mut PgConnection, booking_id: Uuid) -> Result<()> {
    let connected: bool = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM bookings b JOIN calendar_connections c ON c.mentor_id = b.mentor_id WHERE b.id = $1 AND b.group_session_id IS NULL) AS "connected!""#,
        booking_id,
    )
    .fetch_one(&mut *conn)
    .await?;
    if connected {
        WriteBack {
            booking_id: Some(booking_id),
            group_session_id: None,
        }
        .enqueue(conn)
        .await?;
    }
    Ok(())
}

/// Queues the write-back of a group session when its mentor has a calendar connected.
pub async fn enqueue_group_session(conn: &mut PgConnection, group_session_id: Uuid) -> Result<()> {
    let connected: bool = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM group_sessions g JOIN calendar_connections c ON c.mentor_id = g.mentor_id WHERE g.id = $1) AS "connected!""#,
        group_session_id,
    )
    .fetch_one(&mut *conn)
    .await?;
    if connected {
        WriteBack {
            booking_id: None,
            group_session_id: Some(group_session_id),
        }
        .enqueue(conn)
        .await?;
    }
    Ok(())
}
