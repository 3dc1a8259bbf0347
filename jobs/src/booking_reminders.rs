//! Reminders 24 hours and 1 hour before a session: a booking_reminder notification to both
//! sides and an e-mail where their preferences allow.
//!
//! When: scheduled for each due time when a booking is confirmed or moved; a sweep every five
//! minutes ([`SWEEP_SCHEDULE`]) sends any due reminder whose task was lost.
//! Safe to run twice: a reminder names the start it was scheduled for and is recorded in
//! `booking_reminders`; a booking that was cancelled or moved since, or a reminder already
//! recorded, sends nothing.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Duration, Utc};
use domain::{
    booking::bookings::{self, Booking},
    notifications::{self, Kind},
};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    JobContext,
    email::{self, EmailJob},
    queue::{self, PushError, PushOptions},
};

pub const QUEUE: &str = "booking_reminders";
pub const SWEEP_QUEUE: &str = "booking_reminders_sweep";
/// Every five minutes.
pub const SWEEP_SCHEDULE: &str = "0 */5 * * * *";
pub const MAX_ATTEMPTS: usize = 5;

/// The two reminders: their kind, how long before the start, and how the mail says it.
pub const REMINDERS: [(&str, Duration, &str); 2] =
    [("24h", Duration::hours(24), "24 hours"), ("1h", Duration::hours(1), "1 hour")];

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Remind {
    pub booking_id: Uuid,
    pub kind: String,
    /// The start this reminder is for (unix seconds); a moved booking ignores it.
    pub start: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepReminders {
    pub tick: i64,
}

/// Queues the reminders of a booking's current start that are still ahead.
pub async fn schedule(conn: &mut PgConnection, booking_id: Uuid, start: DateTime<Utc>, now: DateTime<Utc>) -> domain::Result<()> {
    for (kind, before, _) in REMINDERS {
        let due = start - before;
        if due <= now {
            continue;
        }
        let options = PushOptions {
            run_at: Some(due),
            idempotency_key: Some(format!("reminder:{booking_id}:{kind}:{}", start.timestamp())),
            max_attempts: Some(MAX_ATTEMPTS),
        };
        match queue::push(conn, QUEUE, &Remind { booking_id, kind: kind.to_string(), start: start.timestamp() }, options).await {
            Ok(()) | Err(PushError::AlreadyQueued) => {}
            Err(err) => return Err(err.into()),
        }
    }
    Ok(())
}

/// Sends one reminder unless it no longer applies or was sent; true when it was sent now.
pub async fn remind(tx: &mut PgConnection, booking: &Booking, kind: &str) -> domain::Result<bool> {
    let Some((_, _, lead)) = REMINDERS.iter().find(|(k, _, _)| *k == kind) else { return Ok(false) };
    if !matches!(booking.status.as_str(), "pending" | "confirmed") {
        return Ok(false);
    }
    let recorded = sqlx::query("INSERT INTO booking_reminders (booking_id, kind, scheduled_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(booking.id)
        .bind(kind)
        .bind(booking.scheduled_at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if recorded == 0 {
        return Ok(false);
    }
    let when = booking.scheduled_at.format("%b %d, %Y %H:%M UTC");
    let text = format!("\"{}\" with {} starts in {lead} ({when}).", booking.service_title, booking.mentor_display_name);
    notifications::notify(&mut *tx, booking.user_id, Kind::BookingReminder, "Session reminder", &text, Some("/dashboard")).await?;
    notifications::notify(&mut *tx, booking.mentor_user_id, Kind::BookingReminder, "Session reminder", &text, Some("/mentor-dashboard")).await?;
    email::enqueue(tx, &EmailJob::BookingReminder { booking_id: booking.id, lead: lead.to_string() }).await?;
    Ok(true)
}

pub async fn handle(job: Remind, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut tx = ctx.pool.begin().await?;
    let sent = match bookings::find(&mut *tx, job.booking_id).await? {
        Some(b) if b.scheduled_at.timestamp() == job.start => remind(&mut tx, &b, &job.kind).await?,
        _ => false,
    };
    tx.commit().await?;
    tracing::info!(booking = %job.booking_id, kind = job.kind, sent, "reminder checked");
    Ok(())
}

/// Sends every reminder that is due, still ahead of its session, and not sent yet.
pub async fn sweep(job: SweepReminders, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut sent = 0;
    for (kind, before, _) in REMINDERS {
        let due: Vec<Uuid> = sqlx::query_scalar(
            "SELECT b.id FROM bookings b WHERE b.status IN ('pending', 'confirmed') AND b.scheduled_at > now() \
             AND b.scheduled_at - $1::interval <= now() AND b.updated_at < b.scheduled_at - $1::interval \
             AND NOT EXISTS (SELECT 1 FROM booking_reminders r WHERE r.booking_id = b.id AND r.kind = $2 AND r.scheduled_at = b.scheduled_at)",
        )
        .bind(before)
        .bind(kind)
        .fetch_all(&ctx.pool)
        .await?;
        for id in due {
            let mut tx = ctx.pool.begin().await?;
            if let Some(b) = bookings::find(&mut *tx, id).await?
                && remind(&mut tx, &b, kind).await?
            {
                sent += 1;
            }
            tx.commit().await?;
        }
    }
    if sent > 0 {
        tracing::warn!(tick = job.tick, sent, "sweep sent reminders whose tasks had not run");
    }
    Ok(())
}
