//! Busy times read from the mentor's own calendar (`calendars::sync` stores them): no slot
//! overlaps one, and a reservation or a reschedule into one answers 409 like a taken slot. Unlike
//! this platform's sessions they carry no buffers (`day_limits`).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::SLOT_TAKEN;
use crate::{Error, Result};

/// Whether `[start, end)` overlaps a busy time of the mentor's own calendar.
pub async fn overlaps(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM calendar_busy_times WHERE mentor_id = $1 AND starts_at < $3 AND ends_at > $2) AS "busy!""#,
        mentor_id,
        start,
        end,
    )
    .fetch_one(conn)
    .await?)
}

/// Refuses (409, like a taken slot) a session `[start, end)` of `mentor_id` overlapping one.
pub async fn check_free(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
) -> Result<()> {
    if overlaps(conn, mentor_id, start, end).await? {
        return Err(Error::SlotTaken(SLOT_TAKEN.into()));
    }
    Ok(())
}
