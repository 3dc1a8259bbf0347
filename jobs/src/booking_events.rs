//! The jobs each booking event sets off, queued in the transaction of the event itself.

use chrono::Utc;
use domain::booking::bookings::Booking;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{booking_completion, booking_reminders, email::EmailJob, job::Job, refunds::PayRefund};

/// Confirmed (free booking, payment, or the mentor's confirmation): the confirmation e-mail,
/// the reminders and the completion after the session.
pub async fn confirmed(conn: &mut PgConnection, b: &Booking) -> domain::Result<()> {
    EmailJob::BookingConfirmed { booking_id: b.id }.enqueue(conn).await?;
    after_the_session(conn, b).await
}

/// Moved: updated invitations to both sides, and reminders and completion for the new time
/// (the old ones find the booking moved and do nothing).
pub async fn rescheduled(conn: &mut PgConnection, b: &Booking) -> domain::Result<()> {
    EmailJob::BookingRescheduled { booking_id: b.id }.enqueue(conn).await?;
    after_the_session(conn, b).await
}

/// The reminders before the current start and the completion after the end.
async fn after_the_session(conn: &mut PgConnection, b: &Booking) -> domain::Result<()> {
    booking_reminders::schedule(conn, b.id, b.scheduled_at, Utc::now()).await?;
    booking_completion::schedule(conn, b.id, b.ends_at).await
}

/// Cancelled (by the mentor when `by_mentor`): cancellations to both sides and the refund
/// payout when money goes back.
pub async fn cancelled(
    conn: &mut PgConnection,
    b: &Booking,
    refund: Option<Uuid>,
    refund_cents: i64,
    by_mentor: bool,
) -> domain::Result<()> {
    EmailJob::BookingCancelled {
        booking_id: b.id,
        refund_cents,
        by_mentor,
    }
    .enqueue(conn)
    .await?;
    if let Some(refund_id) = refund {
        PayRefund { refund_id }.enqueue(conn).await?;
    }
    Ok(())
}
