//! When a booking's video session can be started.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::BookingStatus;
use crate::{Error, Result};

/// The call opens this long before the start and closes at start plus the duration.
pub const OPENS_BEFORE: Duration = Duration::minutes(15);

pub fn is_open(status: BookingStatus, start: DateTime<Utc>, duration_minutes: i32, now: DateTime<Utc>) -> bool {
    status == BookingStatus::Confirmed
        && now >= start - OPENS_BEFORE
        && now <= start + Duration::minutes(duration_minutes as i64)
}

/// A booking's video window as either party reads it: when the call opens and closes, and the
/// state that decides whether it opens at all (only a confirmed booking's does).
pub struct Window {
    pub booking_id: Uuid,
    pub status: BookingStatus,
    pub opens_at: DateTime<Utc>,
    pub closes_at: DateTime<Utc>,
}

impl Window {
    /// [`is_open`] for this window.
    pub fn is_open(&self, now: DateTime<Utc>) -> bool {
        let minutes = (self.closes_at - self.opens_at - OPENS_BEFORE).num_minutes() as i32;
        is_open(self.status, self.opens_at + OPENS_BEFORE, minutes, now)
    }
}

/// The window of a booking `user` is the seeker or the mentor of; anyone else is told it does
/// not exist.
pub async fn window(db: &PgPool, user: Uuid, id: Uuid) -> Result<Window> {
    let row = sqlx::query!(
        r#"SELECT b.id, b.status AS "status: BookingStatus", b.scheduled_at, b.ends_at
           FROM bookings b JOIN mentors m ON m.id = b.mentor_id
           WHERE b.id = $1 AND (b.user_id = $2 OR m.user_id = $2) AND b.status <> ALL($3)"#,
        id,
        user,
        &[BookingStatus::Reserved, BookingStatus::Expired] as &[BookingStatus],
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(|| Error::not_found(super::lifecycle::NOT_FOUND))?;
    Ok(Window {
        booking_id: row.id,
        status: row.status,
        opens_at: row.scheduled_at - OPENS_BEFORE,
        closes_at: row.ends_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_opens_15_minutes_before_and_closes_at_the_end() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let s = Duration::seconds(1);
        assert!(!is_open(BookingStatus::Confirmed, start, 60, start - OPENS_BEFORE - s));
        assert!(is_open(BookingStatus::Confirmed, start, 60, start - OPENS_BEFORE));
        assert!(is_open(
            BookingStatus::Confirmed,
            start,
            60,
            start + Duration::minutes(60)
        ));
        assert!(!is_open(
            BookingStatus::Confirmed,
            start,
            60,
            start + Duration::minutes(60) + s
        ));
        assert!(!is_open(BookingStatus::Pending, start, 60, start));
    }
}
