//! The booking's durable jobs, declared once: what each carries, its queue and when it is queued.
//! The worker's `jobs::reservation_expiry`, `jobs::booking_reminders` and `jobs::booking_completion`
//! run them; [`confirmed`], [`rescheduled`] and [`cancelled`] queue what each booking event sets
//! off, in the transaction of the event itself.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{bookings::Booking, completion, reminders};
use crate::{
    Result,
    job_queue::{Job, calendar_writeback, email::EmailJob, refunds::PayRefund},
};

/// Releasing a hold when its 60 minutes are up; a sweep every minute releases any whose task was lost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExpireHold {
    pub booking_id: Uuid,
}

impl Job for ExpireHold {
    const QUEUE: &'static str = "reservation_expiry";
    const MAX_ATTEMPTS: usize = 10;
    const BATCHED: bool = true;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("expire:{}", self.booking_id))
    }
}

crate::sweep!(SweepHolds, queue: "reservation_expiry_sweep", schedule: "0 * * * * *");

/// Queues the release of a new hold for its expiry, in the transaction that creates it.
pub async fn schedule_expiry(conn: &mut PgConnection, booking_id: Uuid, expires_at: DateTime<Utc>) -> Result<()> {
    ExpireHold { booking_id }.enqueue_at(conn, expires_at).await
}

/// A reminder before a session (`reminders`); a sweep every five minutes sends any whose task was lost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Remind {
    pub booking_id: Uuid,
    pub kind: String,
    /// The start this reminder is for (unix seconds); a moved booking ignores it.
    pub start: i64,
}

impl Job for Remind {
    const QUEUE: &'static str = "booking_reminders";
    const MAX_ATTEMPTS: usize = 5;
    const BATCHED: bool = true;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("reminder:{}:{}:{}", self.booking_id, self.kind, self.start))
    }
}

crate::sweep!(SweepReminders, queue: "booking_reminders_sweep", schedule: "0 */5 * * * *");

/// Queues the reminders of a booking's current start that are still ahead.
pub async fn schedule_reminders(
    conn: &mut PgConnection,
    booking_id: Uuid,
    start: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<()> {
    for (reminder, due) in reminders::ahead(start, now) {
        let job = Remind {
            booking_id,
            kind: reminder.kind.to_string(),
            start: start.timestamp(),
        };
        job.enqueue_at(conn, due).await?;
    }
    Ok(())
}

/// Completing a session once its complaint window has passed; an hourly sweep completes any
/// overdue booking whose task was lost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Complete {
    pub booking_id: Uuid,
}

impl Job for Complete {
    const QUEUE: &'static str = "booking_completion";
    const MAX_ATTEMPTS: usize = 5;

    /// One task per booking and due time: a moved booking gets another.
    fn idempotency_key(&self, run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!(
            "complete:{}:{}",
            self.booking_id,
            run_at.map_or(0, |t| t.timestamp())
        ))
    }
}

crate::sweep!(SweepCompletions, queue: "booking_completion_sweep", schedule: "0 0 * * * *");

/// Queues the completion of a booking for the end of its complaint window.
pub async fn schedule_completion(conn: &mut PgConnection, booking_id: Uuid, ends_at: DateTime<Utc>) -> Result<()> {
    Complete { booking_id }
        .enqueue_at(conn, completion::due_at(ends_at))
        .await
}

/// Confirmed (free booking, payment, or the mentor's confirmation): the confirmation e-mail,
/// the reminders, the completion after the session and the event in the mentor's own calendar.
pub async fn confirmed(conn: &mut PgConnection, b: &Booking) -> Result<()> {
    EmailJob::BookingConfirmed { booking_id: b.id }.enqueue(conn).await?;
    calendar_writeback::enqueue_booking(conn, b.id).await?;
    after_the_session(conn, b).await
}

/// Moved: updated invitations to both sides, and reminders and completion for the new time
/// (the old ones find the booking moved and do nothing).
pub async fn rescheduled(conn: &mut PgConnection, b: &Booking) -> Result<()> {
    EmailJob::BookingRescheduled { booking_id: b.id }.enqueue(conn).await?;
    calendar_writeback::enqueue_booking(conn, b.id).await?;
    after_the_session(conn, b).await
}

/// The reminders before the current start and the completion after the end.
async fn after_the_session(conn: &mut PgConnection, b: &Booking) -> Result<()> {
    schedule_reminders(conn, b.id, b.scheduled_at, Utc::now()).await?;
    schedule_completion(conn, b.id, b.ends_at).await
}

/// Cancelled (by the mentor when `by_mentor`): cancellations to both sides and the refund
/// payout when money goes back.
pub async fn cancelled(
    conn: &mut PgConnection,
    b: &Booking,
    refund: Option<Uuid>,
    refund_cents: i64,
    by_mentor: bool,
) -> Result<()> {
    EmailJob::BookingCancelled {
        booking_id: b.id,
        refund_cents,
        by_mentor,
    }
    .enqueue(conn)
    .await?;
    calendar_writeback::enqueue_booking(conn, b.id).await?;
    if let Some(refund_id) = refund {
        PayRefund { refund_id }.enqueue(conn).await?;
    }
    Ok(())
}
