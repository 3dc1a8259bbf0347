//! Reserving a slot: a free service is booked and confirmed at once; a paid one is held for
//! [`HOLD_MINUTES`] while the seeker pays. The database's exclusion constraint decides races.

use chrono::{DateTime, Duration, Utc};
use jiff::tz::TimeZone;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{
    BookingStatus,
    bookings::{self, Booking},
    calendar_busy, date_overrides, day_limits, notices,
    slot_arithmetic::{self, BOOKING_WINDOW_DAYS, DateOverride},
    to_jiff, weekly_windows,
};
use crate::{
    Error, Result,
    catalogue::{mentors, services},
    error::OnConstraint,
    money,
    money::PaymentStatus,
};

/// A paid reservation is held this long for payment.
pub const HOLD_MINUTES: i64 = 60;
pub const MAX_NOTES_CHARS: usize = 2000;

pub const NO_TIME_CHOSEN: &str = "Please select a date and time";
pub use super::SLOT_TAKEN;
pub const OWN_SERVICE: &str = "You cannot book your own service";
pub const NOT_FOUND: &str = "Reservation Not Found";
pub const GROUP_SERVICE: &str = "This is a group service: join one of its group sessions instead";
pub const RELEASED: &str = "Reservation released";

/// Live (unpaid, unexpired) holds one seeker may have at a time, so nobody can starve others.
pub const MAX_LIVE_HOLDS: i64 = 3;
/// Live holds one seeker may have with one mentor.
pub const MAX_LIVE_HOLDS_PER_MENTOR: i64 = 1;
pub const HOLD_WITH_MENTOR: &str =
    "You already have a reservation waiting for payment with this mentor. Complete or release it first.";
pub const TOO_MANY_HOLDS: &str = "You can hold at most 3 unpaid reservations at a time. Complete or release one first.";
/// The first key of the advisory lock that serializes one seeker's new holds.
const HOLDS_LOCK_NAMESPACE: i32 = 0x686f_6c64; // "hold"

pub struct NewReservation {
    pub service_id: Uuid,
    pub mentor_id: Option<Uuid>,
    pub scheduled_at: Option<DateTime<Utc>>,
    pub notes: Option<String>,
    pub total_amount: Option<String>,
    /// The seeker's own live hold this one takes the place of: released in the same
    /// transaction, so picking again never leaves two holds (nor none, on a refusal).
    pub replaces: Option<Uuid>,
}

pub enum Reserved {
    /// A free service: confirmed now.
    Free(Booking),
    /// A paid service: held until `expires_at`.
    Held {
        booking: Booking,
        expires_at: DateTime<Utc>,
    },
}

pub fn total_mismatch(price_cents: i64) -> String {
    format!(
        "The total does not match the price of this service (${})",
        money::format(price_cents)
    )
}

/// How a notice reads: "2 hours", "1 day", "90 minutes".
pub fn notice_text(minutes: i32) -> String {
    let plural = |n: i32, unit: &str| {
        if n == 1 {
            format!("1 {unit}")
        } else {
            format!("{n} {unit}s")
        }
    };
    if minutes > 0 && minutes % (24 * 60) == 0 {
        plural(minutes / (24 * 60), "day")
    } else if minutes > 0 && minutes % 60 == 0 {
        plural(minutes / 60, "hour")
    } else {
        plural(minutes, "minute")
    }
}

pub fn too_soon(minimum_notice_minutes: i32) -> String {
    format!(
        "This mentor needs at least {} notice: please choose a later time",
        notice_text(minimum_notice_minutes)
    )
}

/// The earliest start a mentor with this notice accepts now.
pub fn earliest_start(minimum_notice_minutes: i32, now: DateTime<Utc>) -> DateTime<Utc> {
    now + Duration::minutes(minimum_notice_minutes as i64)
}

/// Refuses a start inside the mentor's minimum notice (400: the seeker can pick another time).
pub fn check_notice(minimum_notice_minutes: i32, start: DateTime<Utc>, now: DateTime<Utc>) -> Result<()> {
    if start > now && start < earliest_start(minimum_notice_minutes, now) {
        return Err(Error::validation(too_soon(minimum_notice_minutes)));
    }
    Ok(())
}

/// Whether the mentor offers a slot of this length starting exactly then (ignoring other bookings).
pub fn is_offered(
    windows: &[slot_arithmetic::Window],
    overrides: &[DateOverride],
    tz: &TimeZone,
    start: DateTime<Utc>,
    duration_minutes: i32,
    now: DateTime<Utc>,
) -> bool {
    if start <= now || start > now + Duration::days(BOOKING_WINDOW_DAYS) {
        return false;
    }
    let s = to_jiff(start);
    let Ok(until) = s.checked_add(jiff::SignedDuration::from_secs(1)) else {
        return false;
    };
    slot_arithmetic::starts_between(windows, overrides, tz, s, until, duration_minutes).contains(&s)
}

/// Validates and inserts the booking or hold in the caller's transaction.
pub async fn reserve(
    tx: &mut PgConnection,
    user_id: Uuid,
    input: NewReservation,
    now: DateTime<Utc>,
) -> Result<Reserved> {
    let scheduled_at = input.scheduled_at.ok_or_else(|| Error::validation(NO_TIME_CHOSEN))?;
    let not_found = || Error::not_found(services::NOT_FOUND);
    let service = services::find(&mut *tx, input.service_id)
        .await?
        .filter(|s| s.is_active)
        .ok_or_else(not_found)?;
    let mentor = mentors::find(&mut *tx, service.mentor_id)
        .await?
        .filter(|m| m.is_public())
        .ok_or_else(not_found)?;
    if input.mentor_id.is_some_and(|id| id != mentor.id) {
        return Err(Error::validation("This service belongs to another mentor"));
    }
    if mentor.user_id == user_id {
        return Err(Error::validation(OWN_SERVICE));
    }
    if service.is_group_session {
        return Err(Error::validation(GROUP_SERVICE));
    }
    if let Some(total) = input.total_amount.as_deref().filter(|t| !t.trim().is_empty()) {
        let mismatch = || Error::validation(total_mismatch(service.price_cents));
        if money::parse(total, "").map_err(|_| mismatch())? != service.price_cents {
            return Err(mismatch());
        }
    }
    let notes = input
        .notes
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    if notes.as_deref().is_some_and(|n| n.chars().count() > MAX_NOTES_CHARS) {
        return Err(Error::validation("Notes must be at most 2000 characters"));
    }
    check_notice(mentor.minimum_notice_minutes, scheduled_at, now)?;
    let tz = TimeZone::get(&mentor.time_zone).map_err(|e| anyhow::anyhow!("mentor time zone: {e}"))?;
    let windows = weekly_windows::active_windows(&mut *tx, mentor.id).await?;
    let overrides = date_overrides::for_slots(&mut *tx, mentor.id).await?;
    if !is_offered(&windows, &overrides, &tz, scheduled_at, service.duration_minutes, now) {
        return Err(Error::SlotTaken(SLOT_TAKEN.into()));
    }
    let free = service.price_cents == 0;
    if !free {
        lock_holds_of(&mut *tx, user_id).await?;
    }
    if let Some(old) = input.replaces {
        give_up_hold(&mut *tx, user_id, old, now).await?;
    }
    let ends_at = scheduled_at + Duration::minutes(service.duration_minutes as i64);
    calendar_busy::check_free(&mut *tx, mentor.id, scheduled_at, ends_at).await?;
    day_limits::check_room(&mut *tx, &mentor, (scheduled_at, ends_at), None, now).await?;
    let expires_at = now + Duration::minutes(HOLD_MINUTES);
    let status = if free {
        BookingStatus::Confirmed
    } else {
        BookingStatus::Reserved
    };
    let id = sqlx::query_scalar!(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, notes,
         hold_expires_at, confirmed_at, earliest_scheduled_at)
         VALUES ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz + make_interval(mins => $6), $7, $8, $9, $10, $5::timestamptz)
         RETURNING id",
        user_id,
        mentor.id,
        service.id,
        status as BookingStatus,
        scheduled_at,
        service.duration_minutes,
        service.price_cents,
        notes,
        (!free).then_some(expires_at),
        free.then_some(now),
    )
    .fetch_one(&mut *tx)
    .await
    .on_constraints(&["bookings_no_overlap", "mentor_busy_no_overlap"], || {
        Error::SlotTaken(SLOT_TAKEN.into())
    })?;
    if !free {
        // Counted after the insert, so a taken slot answers SLOT_TAKEN before any cap does.
        let (total, with_mentor) = live_holds(&mut *tx, user_id, mentor.id, now).await?;
        check_hold_caps(total, with_mentor)?;
    }
    let booking = bookings::find(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("booking vanished"))?;
    if free {
        notify_confirmed(&mut *tx, &booking, false).await?;
        Ok(Reserved::Free(booking))
    } else {
        Ok(Reserved::Held { booking, expires_at })
    }
}

/// Serializes the seeker's new holds until the transaction ends, so parallel requests cannot
/// all pass the caps.
pub(crate) async fn lock_holds_of(tx: &mut PgConnection, user_id: Uuid) -> Result<()> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock($1, hashtext($2::text))",
        HOLDS_LOCK_NAMESPACE,
        user_id.to_string()
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The seeker's live holds: in total, and one-to-one with one mentor (a held group seat is not one).
pub(crate) async fn live_holds(
    tx: &mut PgConnection,
    user_id: Uuid,
    mentor_id: Uuid,
    now: DateTime<Utc>,
) -> Result<(i64, i64)> {
    let row = sqlx::query!(
        r#"SELECT count(*) AS "total!", count(*) FILTER (WHERE mentor_id = $2 AND group_session_id IS NULL) AS "with_mentor!"
           FROM bookings WHERE user_id = $1 AND status = $4 AND hold_expires_at > $3"#,
        user_id,
        mentor_id,
        now,
        BookingStatus::Reserved as BookingStatus,
    )
    .fetch_one(&mut *tx)
    .await?;
    Ok((row.total, row.with_mentor))
}

/// Refuses a seeker's live holds (the new one included) beyond the caps.
pub fn check_hold_caps(total: i64, with_mentor: i64) -> Result<()> {
    if with_mentor > MAX_LIVE_HOLDS_PER_MENTOR {
        return Err(Error::HoldLimit(HOLD_WITH_MENTOR.into()));
    }
    if total > MAX_LIVE_HOLDS {
        return Err(Error::HoldLimit(TOO_MANY_HOLDS.into()));
    }
    Ok(())
}

/// Tells both sides about a confirmed booking; a paid one tells the mentor about the payment.
pub async fn notify_confirmed(tx: &mut PgConnection, b: &Booking, paid: bool) -> Result<()> {
    notices::confirmed(b, paid).send(tx, b).await
}

/// The seeker's live hold; anything else (someone else's, paid, expired) is not found.
pub async fn live_hold(db: &PgPool, user_id: Uuid, id: Uuid, now: DateTime<Utc>) -> Result<Booking> {
    bookings::find(db, id)
        .await?
        .filter(|b| {
            b.user_id == user_id && b.status == BookingStatus::Reserved && b.hold_expires_at.is_some_and(|t| t > now)
        })
        .ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// The seeker's live holds, soonest expiry first: the checkouts they left unfinished.
pub async fn live_holds_of(db: &PgPool, user_id: Uuid, now: DateTime<Utc>) -> Result<Vec<Booking>> {
    Ok(super::bookings::query_bookings!(
        "WHERE b.user_id = $1 AND b.status = $3 AND b.hold_expires_at > $2 ORDER BY b.hold_expires_at, b.id",
        user_id,
        now,
        BookingStatus::Reserved as BookingStatus,
    )
    .fetch_all(db)
    .await?)
}

/// The seeker gives up their live hold at once, freeing the slot for others.
pub async fn release(db: &PgPool, user_id: Uuid, id: Uuid, now: DateTime<Utc>) -> Result<()> {
    give_up_hold(&mut *db.acquire().await?, user_id, id, now).await
}

/// Ends the seeker's own live hold; a hold whose charge is in flight stays (the payment decides).
async fn give_up_hold(conn: &mut PgConnection, user_id: Uuid, id: Uuid, now: DateTime<Utc>) -> Result<()> {
    let done = sqlx::query!(
        "UPDATE bookings SET status = $4, hold_expires_at = $3, updated_at = now()
         WHERE id = $1 AND user_id = $2 AND status = $5 AND hold_expires_at > $3
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = bookings.id AND p.status = $6)",
        id,
        user_id,
        now,
        BookingStatus::Expired as BookingStatus,
        BookingStatus::Reserved as BookingStatus,
        PaymentStatus::Processing as PaymentStatus,
    )
    .execute(conn)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::not_found(NOT_FOUND));
    }
    Ok(())
}

/// Releases a hold whose time has come; true when this call released it. Never releases early.
/// A hold with a charge in flight is kept until the charge settles (reconciliation settles it;
/// the sweep then releases a hold whose charge was refused).
pub async fn expire_hold(db: &PgPool, id: Uuid) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE bookings SET status = $2, updated_at = now() WHERE id = $1 AND status = $3 AND hold_expires_at <= now()
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = bookings.id AND p.status = $4)",
        id,
        BookingStatus::Expired as BookingStatus,
        BookingStatus::Reserved as BookingStatus,
        PaymentStatus::Processing as PaymentStatus,
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// [`expire_hold`] for many holds in one statement: the ids this call released. Each hold is
/// released at most once whatever runs at the same time (the statement only changes a hold that
/// is still held), never early, never with a charge in flight.
pub async fn expire_holds(db: impl sqlx::PgExecutor<'_>, ids: &[Uuid]) -> Result<Vec<Uuid>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(sqlx::query_scalar!(
        "UPDATE bookings SET status = $2, updated_at = now() WHERE id = ANY($1) AND status = $3 AND hold_expires_at <= now() \
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = bookings.id AND p.status = $4) RETURNING id",
        ids,
        BookingStatus::Expired as BookingStatus,
        BookingStatus::Reserved as BookingStatus,
        PaymentStatus::Processing as PaymentStatus,
    )
    .fetch_all(db)
    .await?)
}

/// Releases every hold that has run out (the safety net for lost jobs); returns how many.
pub async fn expire_overdue_holds(db: &PgPool) -> Result<u64> {
    Ok(sqlx::query!(
        "UPDATE bookings SET status = $1, updated_at = now() WHERE status = $2 AND hold_expires_at <= now()
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = bookings.id AND p.status = $3)",
        BookingStatus::Expired as BookingStatus,
        BookingStatus::Reserved as BookingStatus,
        PaymentStatus::Processing as PaymentStatus,
    )
    .execute(db)
    .await?
    .rows_affected())
}

#[cfg(test)]
mod notice_tests {
    use super::*;

    #[test]
    fn notice_reads_in_the_largest_whole_unit() {
        assert_eq!(notice_text(120), "2 hours");
        assert_eq!(notice_text(60), "1 hour");
        assert_eq!(notice_text(90), "90 minutes");
        assert_eq!(notice_text(1440), "1 day");
        assert_eq!(notice_text(10_080), "7 days");
        assert_eq!(notice_text(0), "0 minutes");
    }

    #[test]
    fn a_start_inside_the_notice_is_refused_and_one_at_its_edge_accepted() {
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert!(check_notice(120, now + Duration::minutes(119), now).is_err());
        assert!(check_notice(120, now + Duration::minutes(120), now).is_ok());
        assert!(check_notice(0, now + Duration::minutes(1), now).is_ok());
        assert_eq!(
            check_notice(120, now + Duration::minutes(30), now)
                .unwrap_err()
                .to_string(),
            too_soon(120)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hold_caps() {
        assert!(check_hold_caps(1, 1).is_ok());
        assert!(check_hold_caps(3, 1).is_ok(), "three in total, one per mentor");
        let over = |total, with_mentor| check_hold_caps(total, with_mentor).unwrap_err().to_string();
        assert_eq!(over(2, 2), HOLD_WITH_MENTOR);
        assert_eq!(over(4, 1), TOO_MANY_HOLDS);
        assert_eq!(over(4, 2), HOLD_WITH_MENTOR, "the mentor's cap is named first");
        assert!(TOO_MANY_HOLDS.contains(&MAX_LIVE_HOLDS.to_string()));
        assert!(
            matches!(check_hold_caps(4, 1), Err(Error::HoldLimit(_))),
            "its own error code"
        );
        assert!(matches!(check_hold_caps(2, 2), Err(Error::HoldLimit(_))));
    }
}
