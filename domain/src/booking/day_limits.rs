//! A mentor's buffers around this platform's sessions and their cap of sessions per local day
//! (issue 33 §5). Slots leave out what these rules refuse, and a reservation or a reschedule
//! checks them again under a per-mentor lock, so parallel requests never exceed the cap.
//!
//! Buffers: a session together with its buffers (before and after) may not overlap another
//! session, nor may the other session's buffers overlap it: two sessions are at least the larger
//! buffer apart ([`guard`]). Buffers surround this platform's sessions only: they never
//! cut into a window's edges nor pad busy times read from the mentor's own calendar.
//!
//! The cap: one-to-one bookings (confirmed, pending, completed, and holds while held) and group
//! sessions (each once, however many seats) whose start falls in one local day of the mentor.

use chrono::{DateTime, Duration, Utc};
use jiff::tz::TimeZone;
use sqlx::PgConnection;
use uuid::Uuid;

use super::{BookingStatus, SLOT_TAKEN, to_chrono, to_jiff};
pub use crate::catalogue::scheduling_rules::{
    INVALID_BUFFER, INVALID_DAILY_CAP, MAX_BOOKINGS_PER_DAY, MAX_BUFFER_MINUTES, buffer, daily_cap,
};
use crate::{Error, Result, catalogue::mentors::Mentor, statuses::GroupStatus};

/// The first key of the advisory lock that serializes one mentor's new sessions while a buffer or
/// a cap applies.
const MENTOR_DAY_LOCK_NAMESPACE: i32 = 0x6461_7973; // "days"

/// How far apart two of the mentor's sessions must be: the larger of the two buffers (a session
/// with its buffers overlaps no other session, nor another's buffers it).
pub fn guard(before_minutes: i32, after_minutes: i32) -> Duration {
    Duration::minutes(before_minutes.max(after_minutes).max(0) as i64)
}

/// Whether `[start, end)` comes closer than `guard` to one of `sessions`.
pub fn clashes(
    sessions: &[(DateTime<Utc>, DateTime<Utc>)],
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    guard: Duration,
) -> bool {
    sessions.iter().any(|(s, e)| start < *e + guard && *s - guard < end)
}

/// The mentor's local day `[midnight, next midnight)` that `t` falls in.
pub fn local_day(tz: &TimeZone, t: DateTime<Utc>) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    let date = to_jiff(t).to_zoned(tz.clone()).date();
    super::slot_arithmetic::viewer_day(date, tz).map(|(a, b)| (to_chrono(a), to_chrono(b)))
}

/// The mentor's local date of `t`.
pub fn local_date(tz: &TimeZone, t: DateTime<Utc>) -> jiff::civil::Date {
    to_jiff(t).to_zoned(tz.clone()).date()
}

/// Whether a day that already has `taken` sessions has room for one more under `cap`.
pub fn has_room(cap: Option<i32>, taken: i64) -> bool {
    cap.is_none_or(|cap| taken < cap as i64)
}

/// The starts of the mentor's sessions that count toward the cap in `[from, to)`: live one-to-one
/// bookings, holds while held, completed ones, and group sessions once each. `except` (a booking
/// being moved) and the unpaid holds of `holder` (about to be replaced) are left out.
pub async fn counted_starts(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    except: Option<Uuid>,
    holder: Option<Uuid>,
    now: DateTime<Utc>,
) -> Result<Vec<DateTime<Utc>>> {
    Ok(sqlx::query_scalar!(
        "SELECT scheduled_at AS \"scheduled_at!\" FROM bookings WHERE mentor_id = $1 AND group_session_id IS NULL \
           AND scheduled_at >= $2 AND scheduled_at < $3 AND id IS DISTINCT FROM $4 \
           AND (status = ANY($6) OR (status = $7 AND hold_expires_at > $8 AND user_id IS DISTINCT FROM $5)) \
         UNION ALL SELECT scheduled_at FROM group_sessions WHERE mentor_id = $1 AND status = ANY($9) \
           AND scheduled_at >= $2 AND scheduled_at < $3",
        mentor_id,
        from,
        to,
        except,
        holder,
        &[
            BookingStatus::Pending,
            BookingStatus::Confirmed,
            BookingStatus::Completed,
        ] as &[BookingStatus],
        BookingStatus::Reserved as BookingStatus,
        now,
        &[GroupStatus::Scheduled, GroupStatus::Active, GroupStatus::Completed] as &[GroupStatus],
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// Refuses (409, like a taken slot) a new one-to-one session `[start, end)` of `mentor` that comes
/// closer than the buffers to another session or would exceed the day's cap. Holds a per-mentor
/// lock until the caller's transaction ends, so parallel reservations are checked one by one.
pub async fn check_room(
    tx: &mut PgConnection,
    mentor: &Mentor,
    (start, end): (DateTime<Utc>, DateTime<Utc>),
    except: Option<Uuid>,
    now: DateTime<Utc>,
) -> Result<()> {
    let guard = guard(mentor.buffer_before_minutes, mentor.buffer_after_minutes);
    if guard.is_zero() && mentor.max_bookings_per_day.is_none() {
        return Ok(());
    }
    let taken = || Error::SlotTaken(SLOT_TAKEN.into());
    sqlx::query!(
        "SELECT pg_advisory_xact_lock($1, hashtext($2::text))",
        MENTOR_DAY_LOCK_NAMESPACE,
        mentor.id.to_string(),
    )
    .execute(&mut *tx)
    .await?;
    if !guard.is_zero() {
        let near: bool = sqlx::query_scalar!(
            "SELECT EXISTS (SELECT 1 FROM mentor_busy_times WHERE mentor_id = $1 \
               AND during && tstzrange($2, $3) AND booking_id IS DISTINCT FROM $4) AS \"near!\"",
            mentor.id,
            start - guard,
            end + guard,
            except,
        )
        .fetch_one(&mut *tx)
        .await?;
        if near {
            return Err(taken());
        }
    }
    if let Some(cap) = mentor.max_bookings_per_day {
        let tz = TimeZone::get(&mentor.time_zone).map_err(|e| anyhow::anyhow!("mentor time zone: {e}"))?;
        let day = local_day(&tz, start).ok_or_else(|| anyhow::anyhow!("no local day"))?;
        let starts = counted_starts(&mut *tx, mentor.id, day, except, None, now).await?;
        if !has_room(Some(cap), starts.len() as i64) {
            return Err(taken());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(&format!("2026-06-01T{h:02}:{m:02}:00Z"))
            .unwrap()
            .to_utc()
    }

    #[test]
    fn buffers_are_whole_minutes_up_to_two_hours() {
        assert_eq!(buffer(0).unwrap(), 0);
        assert_eq!(buffer(MAX_BUFFER_MINUTES).unwrap(), 120);
        for bad in [-1, 121, 10_000] {
            assert_eq!(buffer(bad).unwrap_err().to_string(), INVALID_BUFFER, "{bad}");
        }
    }

    #[test]
    fn a_cap_is_one_to_fifty_and_zero_is_none() {
        assert_eq!(daily_cap(0).unwrap(), None);
        assert_eq!(daily_cap(1).unwrap(), Some(1));
        assert_eq!(daily_cap(MAX_BOOKINGS_PER_DAY).unwrap(), Some(50));
        for bad in [-1, 51] {
            assert_eq!(daily_cap(bad).unwrap_err().to_string(), INVALID_DAILY_CAP, "{bad}");
        }
        assert!(has_room(None, 1_000));
        assert!(has_room(Some(2), 1));
        assert!(!has_room(Some(2), 2));
    }

    #[test]
    fn sessions_stay_the_larger_buffer_apart() {
        let booked = [(at(10, 0), at(11, 0))];
        let g = guard(0, 30);
        assert!(clashes(&booked, at(11, 0), at(12, 0), g), "inside the after-buffer");
        assert!(!clashes(&booked, at(11, 30), at(12, 30), g), "just after it");
        assert!(
            clashes(&booked, at(9, 0), at(10, 0), g),
            "its buffer would overlap the next session"
        );
        assert!(!clashes(&booked, at(8, 30), at(9, 30), g));
        assert!(
            !clashes(&booked, at(11, 0), at(12, 0), guard(0, 0)),
            "no buffers: back to back"
        );
        assert_eq!(guard(15, 45), Duration::minutes(45));
    }

    #[test]
    fn the_local_day_is_the_mentors() {
        let tz = TimeZone::get("America/New_York").unwrap();
        // 03:00 UTC on 1 June is 23:00 on 31 May in New York (EDT).
        let (from, to) = local_day(&tz, at(3, 0)).unwrap();
        assert_eq!(from.to_rfc3339(), "2026-05-31T04:00:00+00:00");
        assert_eq!(to.to_rfc3339(), "2026-06-01T04:00:00+00:00");
        assert_eq!(local_date(&tz, at(3, 0)).to_string(), "2026-05-31");
    }
}
