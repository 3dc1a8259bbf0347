//! Completing sessions: a confirmed booking becomes completed once its session ended more than
//! the complaint window ago, and the seeker is asked for a review. The caller queues the review
//! request e-mail in the same transaction.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{BookingStatus, bookings::Booking, lifecycle, notices};
use crate::Result;

/// Complaints are possible within 24 hours of the session (help policy).
pub const COMPLAINT_WINDOW: Duration = Duration::hours(24);

/// When a session ending at `ends_at` is due to complete.
pub fn due_at(ends_at: DateTime<Utc>) -> DateTime<Utc> {
    ends_at + COMPLAINT_WINDOW
}

/// Completes the booking when it is confirmed and past its window, and tells the seeker.
pub async fn complete(tx: &mut PgConnection, booking_id: Uuid) -> Result<Option<Booking>> {
    let Some(b) = lifecycle::complete_if_due(tx, booking_id, COMPLAINT_WINDOW).await? else {
        return Ok(None);
    };
    notices::review_request(&b).send(tx, b.user_id).await?;
    Ok(Some(b))
}

/// Confirmed bookings past their window (the sweep's list).
pub async fn overdue(db: &PgPool) -> Result<Vec<Uuid>> {
    Ok(sqlx::query_scalar!(
        "SELECT id FROM bookings b WHERE status = $2 AND ends_at + $1::interval <= now() \
             AND NOT EXISTS (SELECT 1 FROM complaints c WHERE c.booking_id = b.id AND c.status = $3)",
        crate::sql::interval(COMPLAINT_WINDOW),
        BookingStatus::Confirmed as BookingStatus,
        crate::statuses::ComplaintStatus::Open as crate::statuses::ComplaintStatus,
    )
    .fetch_all(db)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_completes_a_day_after_it_ended() {
        let end = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert_eq!(due_at(end), end + Duration::hours(24));
    }
}
