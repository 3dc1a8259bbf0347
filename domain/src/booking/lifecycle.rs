//! What happens to a booking after it is made: the seeker reschedules or cancels, the mentor
//! confirms, cancels or completes. Every function runs in the caller's transaction; the caller
//! queues the e-mails, reminders and refund jobs in the same transaction.

use chrono::{DateTime, Duration, Utc};
use jiff::tz::TimeZone;
use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    BookingStatus,
    bookings::{self, Booking},
    calendar_busy, date_overrides, day_limits, notices, refunds, reservations, weekly_windows,
};
use crate::{
    Error, Result,
    catalogue::mentors,
    choice::Choice,
    error::OnConstraint,
    money::{PaymentStatus, RefundReason},
    statuses::ComplaintStatus,
};

/// Rescheduling closes this long before the start.
pub const RESCHEDULE_CLOSES_BEFORE: Duration = Duration::hours(2);
pub const NOT_FOUND: &str = "Booking not found";
pub const NO_NEW_TIME: &str = "Please select a new time";
pub const ACKNOWLEDGE: &str = "Please acknowledge the policy";
pub const TOO_LATE_TO_RESCHEDULE: &str = "Bookings can be rescheduled up to 2 hours before the start";
pub const ALREADY_STARTED: &str = "This session has already started";
pub const ALREADY_AT_THIS_TIME: &str = "The session is already at this time.";
pub const GROUP_SEAT_FIXED: &str = "A seat in a group session cannot be rescheduled: it follows the session's time";
/// A mentor's move names a status other than these (or none).
pub const INVALID_MOVE: &str = "Status must be confirmed, completed or cancelled";
pub const NOT_ENDED: &str = "A session can be marked completed only after it has ended";
/// A mentor's reason for cancelling is at most this many characters.
pub const MAX_CANCELLATION_REASON_CHARS: usize = 500;
pub const REASON_TOO_LONG: &str = "Reason must be at most 500 characters";
pub const MENTOR_CANCEL_STARTED: &str = "This session has already started and can no longer be cancelled";
pub const MENTOR_CANCEL_NOT_LIVE: &str = "Only pending or confirmed bookings can be cancelled";
/// The mentor marks a session completed while its seeker's complaint is open.
pub const OPEN_COMPLAINT: &str = "This session has an open complaint: it completes once the complaint is decided";

#[derive(Clone, Copy, Debug)]
pub struct RefundPolicy {
    pub percentage: u8,
    pub amount_cents: i64,
}

pub struct Cancelled {
    pub booking: Booking,
    pub policy: RefundPolicy,
    /// The refund to pay out, when there is money to return.
    pub refund: Option<Uuid>,
}

async fn locked(tx: &mut PgConnection, id: Uuid) -> Result<Booking> {
    sqlx::query_scalar!("SELECT 1 AS locked FROM bookings WHERE id = $1 FOR UPDATE", id)
        .fetch_optional(&mut *tx)
        .await?;
    bookings::find(&mut *tx, id)
        .await?
        .filter(|b| !b.status.is_hold())
        .ok_or_else(|| Error::not_found(NOT_FOUND))
}

async fn seekers(tx: &mut PgConnection, user_id: Uuid, id: Uuid) -> Result<Booking> {
    let b = locked(tx, id).await?;
    if b.user_id != user_id {
        return Err(Error::not_found(NOT_FOUND));
    }
    Ok(b)
}

fn live(b: &Booking, action: &str) -> Result<()> {
    if !b.status.is_live() {
        return Err(Error::conflict(format!(
            "Only pending or confirmed bookings can be {action}"
        )));
    }
    Ok(())
}

/// What cancelling now would refund (the preview the cancel dialog shows).
pub async fn refund_preview(
    tx: &mut PgConnection,
    user_id: Uuid,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<RefundPolicy> {
    seekers(tx, user_id, id).await?;
    let percentage = refunds::percentage(now, earliest_start(tx, id).await?);
    Ok(RefundPolicy {
        percentage,
        amount_cents: refunds::amount(paid(tx, id).await?, percentage),
    })
}

/// The earliest start the booking has had: the refund tier follows it, so rescheduling a
/// session later never raises the refund.
async fn earliest_start(tx: &mut PgConnection, id: Uuid) -> Result<DateTime<Utc>> {
    Ok(
        sqlx::query_scalar!("SELECT earliest_scheduled_at FROM bookings WHERE id = $1", id)
            .fetch_one(&mut *tx)
            .await?,
    )
}

async fn paid(tx: &mut PgConnection, id: Uuid) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT coalesce(sum(amount_cents), 0)::bigint AS "paid!" FROM payments WHERE booking_id = $1 AND status = $2"#,
        id,
        PaymentStatus::Approved as PaymentStatus,
    )
    .fetch_one(&mut *tx)
    .await?)
}

pub async fn reschedule(
    tx: &mut PgConnection,
    user_id: Uuid,
    id: Uuid,
    new_start: Option<DateTime<Utc>>,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Booking> {
    let new_start = new_start.ok_or_else(|| Error::validation(NO_NEW_TIME))?;
    let b = seekers(tx, user_id, id).await?;
    live(&b, "rescheduled")?;
    if b.group_session_id.is_some() {
        return Err(Error::conflict(GROUP_SEAT_FIXED));
    }
    if b.scheduled_at - now < RESCHEDULE_CLOSES_BEFORE {
        return Err(Error::conflict(TOO_LATE_TO_RESCHEDULE));
    }
    // Moving a session to where it already is would only send a second e-mail and calendar update.
    if new_start == b.scheduled_at {
        return Err(Error::conflict(ALREADY_AT_THIS_TIME));
    }
    let mentor = mentors::find(&mut *tx, b.mentor_id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    reservations::check_notice(mentor.minimum_notice_minutes, new_start, now)?;
    let tz = TimeZone::get(&mentor.time_zone).map_err(|e| anyhow::anyhow!("mentor time zone: {e}"))?;
    let windows = weekly_windows::active_windows(&mut *tx, mentor.id).await?;
    let overrides = date_overrides::for_slots(&mut *tx, mentor.id).await?;
    if !reservations::is_offered(&windows, &overrides, &tz, new_start, b.duration_minutes, now) {
        return Err(Error::SlotTaken(reservations::SLOT_TAKEN.into()));
    }
    let new_end = new_start + Duration::minutes(b.duration_minutes as i64);
    calendar_busy::check_free(&mut *tx, mentor.id, new_start, new_end).await?;
    day_limits::check_room(&mut *tx, &mentor, (new_start, new_end), Some(id), now).await?;
    sqlx::query!(
        "UPDATE bookings SET scheduled_at = $2::timestamptz, ends_at = $2::timestamptz + (ends_at - scheduled_at),
         earliest_scheduled_at = least(earliest_scheduled_at, $2::timestamptz), calendar_sequence = calendar_sequence + 1, updated_at = now() WHERE id = $1",
        id,
        new_start,
    )
    .execute(&mut *tx)
    .await
    .on_constraints(&["bookings_no_overlap", "mentor_busy_no_overlap"], || Error::SlotTaken(reservations::SLOT_TAKEN.into()))?;
    let moved = bookings::find(&mut *tx, id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    notices::rescheduled(&moved, reason).send(tx, &moved).await?;
    Ok(moved)
}

/// Cancels a booking; `by_mentor` refunds in full, a seeker by the policy.
async fn cancel_booking(
    tx: &mut PgConnection,
    b: Booking,
    by_mentor: bool,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Cancelled> {
    let percentage = if by_mentor {
        refunds::FULL
    } else {
        refunds::percentage(now, earliest_start(tx, b.id).await?)
    };
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    mark_cancelled(tx, b.id, now, reason).await?;
    let (refund_id, cents) = refunds::record(tx, b.id, percentage).await?;
    let booking = bookings::find(&mut *tx, b.id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    notices::cancelled(&booking, by_mentor, cents, reason)
        .send(tx, &booking)
        .await?;
    Ok(Cancelled {
        booking,
        policy: RefundPolicy {
            percentage,
            amount_cents: cents,
        },
        refund: (cents > 0).then_some(refund_id),
    })
}

/// Cancels a seat of a group session its mentor cancelled: a full refund, like any cancellation
/// by the mentor.
pub async fn cancel_group_seat(tx: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> Result<Option<Cancelled>> {
    let b = locked(tx, id).await?;
    if !b.status.is_live() {
        return Ok(None);
    }
    Ok(Some(
        cancel_booking(tx, b, true, Some("The mentor cancelled the group session"), now).await?,
    ))
}

/// Why a seat removed for a reason other than conduct was cancelled (kept on the booking).
pub const REMOVED_SEAT_REASON: &str = "The mentor removed you from the group session";

/// Cancels the seat of a participant the mentor removed from a group session's call for a reason
/// other than conduct: refunded in full (a `removed_by_mentor` refund). The removal's own notice
/// tells the seeker; nothing else is sent here. `None` when the seat is no longer live.
pub async fn cancel_removed_seat(tx: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> Result<Option<Cancelled>> {
    let b = locked(tx, id).await?;
    if !b.status.is_live() || b.group_session_id.is_none() {
        return Ok(None);
    }
    mark_cancelled(tx, b.id, now, Some(REMOVED_SEAT_REASON)).await?;
    let (refund_id, cents) = refunds::record_for(tx, b.id, refunds::FULL, RefundReason::RemovedByMentor).await?;
    let booking = bookings::find(&mut *tx, b.id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    Ok(Some(Cancelled {
        booking,
        policy: RefundPolicy {
            percentage: refunds::FULL,
            amount_cents: cents,
        },
        refund: (cents > 0).then_some(refund_id),
    }))
}

pub async fn cancel_by_seeker(
    tx: &mut PgConnection,
    user_id: Uuid,
    id: Uuid,
    acknowledged: bool,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Cancelled> {
    if !acknowledged {
        return Err(Error::validation(ACKNOWLEDGE));
    }
    let b = seekers(tx, user_id, id).await?;
    live(&b, "cancelled")?;
    if b.scheduled_at <= now {
        return Err(Error::conflict(ALREADY_STARTED));
    }
    cancel_booking(tx, b, false, reason, now).await
}

/// The mentor's optional reason, trimmed; refused past [`MAX_CANCELLATION_REASON_CHARS`].
pub fn mentor_reason(raw: Option<&str>) -> Result<Option<&str>> {
    let Some(r) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    crate::text::multi_line(r, "Reason")?;
    if r.chars().count() > MAX_CANCELLATION_REASON_CHARS {
        return Err(Error::validation(REASON_TOO_LONG));
    }
    Ok(Some(r))
}

/// The mentor cancels a pending or confirmed booking that has not started: the seeker gets
/// everything back (the caller queues the refund and the e-mails). Anyone but the booking's
/// mentor is told it does not exist.
pub async fn cancel_by_mentor(
    tx: &mut PgConnection,
    mentor_user_id: Uuid,
    id: Uuid,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Cancelled> {
    let reason = mentor_reason(reason)?;
    let b = locked(tx, id).await?;
    if b.mentor_user_id != mentor_user_id {
        return Err(Error::not_found(NOT_FOUND));
    }
    if !b.status.is_live() {
        return Err(Error::conflict(MENTOR_CANCEL_NOT_LIVE));
    }
    if b.scheduled_at <= now {
        return Err(Error::conflict(MENTOR_CANCEL_STARTED));
    }
    cancel_booking(tx, b, true, reason, now).await
}

pub enum MentorMove {
    Confirmed(Booking),
    Completed(Booking),
    Cancelled(Cancelled),
}

/// pending -> confirmed | cancelled, confirmed -> completed; anything else is a conflict.
pub async fn move_by_mentor(
    tx: &mut PgConnection,
    mentor_user_id: Uuid,
    id: Uuid,
    to: Option<&Choice<BookingStatus>>,
    now: DateTime<Utc>,
) -> Result<MentorMove> {
    let b = locked(tx, id).await?;
    if b.mentor_user_id != mentor_user_id {
        return Err(Error::not_found(NOT_FOUND));
    }
    use BookingStatus::{Cancelled, Completed, Confirmed, Pending};
    let to = match Choice::required(to, INVALID_MOVE)? {
        to @ (Pending | Confirmed | Completed | Cancelled) => to,
        _ => return Err(Error::validation(INVALID_MOVE)),
    };
    match (b.status, to) {
        (Pending, Confirmed) => {
            sqlx::query!(
                "UPDATE bookings SET status = $3, confirmed_at = $2, updated_at = now() WHERE id = $1",
                id,
                now,
                Confirmed as BookingStatus,
            )
            .execute(&mut *tx)
            .await?;
            let booking = bookings::find(&mut *tx, id)
                .await?
                .ok_or_else(|| Error::not_found(NOT_FOUND))?;
            reservations::notify_confirmed(tx, &booking, false).await?;
            Ok(MentorMove::Confirmed(booking))
        }
        (Pending, Cancelled) => Ok(MentorMove::Cancelled(cancel_booking(tx, b, true, None, now).await?)),
        (Confirmed, Completed) => {
            if !has_ended(&b, now) {
                return Err(Error::conflict(NOT_ENDED));
            }
            let open_complaint = sqlx::query_scalar!(
                r#"SELECT EXISTS (SELECT 1 FROM complaints WHERE booking_id = $1 AND status = $2) AS "open!""#,
                id,
                ComplaintStatus::Open as ComplaintStatus,
            )
            .fetch_one(&mut *tx)
            .await?;
            if open_complaint {
                return Err(Error::conflict(OPEN_COMPLAINT));
            }
            sqlx::query!(
                "UPDATE bookings SET status = $3, completed_at = $2, updated_at = now() WHERE id = $1",
                id,
                now,
                Completed as BookingStatus,
            )
            .execute(&mut *tx)
            .await?;
            Ok(MentorMove::Completed(
                bookings::find(&mut *tx, id)
                    .await?
                    .ok_or_else(|| Error::not_found(NOT_FOUND))?,
            ))
        }
        (from, to) => Err(Error::conflict(format!("A {from} booking cannot become {to}"))),
    }
}

/// Whether the session is over: only then can it be marked completed.
pub fn has_ended(b: &Booking, now: DateTime<Utc>) -> bool {
    b.ends_at <= now
}

/// Completes a confirmed booking whose session ended more than the complaint window ago.
pub async fn complete_if_due(tx: &mut PgConnection, id: Uuid, complaint_window: Duration) -> Result<Option<Booking>> {
    // An open complaint holds the booking until it is decided.
    let done = sqlx::query!(
        "UPDATE bookings SET status = $3, completed_at = now(), updated_at = now()
         WHERE id = $1 AND status = $4 AND ends_at + $2::interval <= now()
           AND NOT EXISTS (SELECT 1 FROM complaints c WHERE c.booking_id = $1 AND c.status = $5)",
        id,
        complaint_window as Duration,
        BookingStatus::Completed as BookingStatus,
        BookingStatus::Confirmed as BookingStatus,
        ComplaintStatus::Open as ComplaintStatus,
    )
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(None);
    }
    bookings::find(&mut *tx, id).await
}

/// Marks booking `id` cancelled at `now` with `reason` (the caller holds its row lock and settles the
/// money); the calendar invitations' sequence moves on so calendars replace the event.
pub async fn mark_cancelled(conn: &mut PgConnection, id: Uuid, now: DateTime<Utc>, reason: Option<&str>) -> Result<()> {
    sqlx::query!(
        "UPDATE bookings SET status = $4, cancelled_at = $2, cancellation_reason = $3, calendar_sequence = calendar_sequence + 1,
         updated_at = now() WHERE id = $1",
        id,
        now,
        reason,
        BookingStatus::Cancelled as BookingStatus,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mentors_reason_is_optional_and_at_most_500_characters() {
        assert_eq!(mentor_reason(None).unwrap(), None);
        assert_eq!(mentor_reason(Some("   ")).unwrap(), None);
        assert_eq!(mentor_reason(Some(" ill ")).unwrap(), Some("ill"));
        let edge = "é".repeat(500);
        assert_eq!(
            mentor_reason(Some(&edge)).unwrap(),
            Some(edge.as_str()),
            "500 characters, more bytes"
        );
        let over = "a".repeat(501);
        assert_eq!(mentor_reason(Some(&over)).unwrap_err().to_string(), REASON_TOO_LONG);
        assert!(mentor_reason(Some("a\u{0}b")).is_err());
    }
}
