//! The start times a viewer can book on one of their days.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use jiff::tz::TimeZone;
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use std::collections::HashMap;

use super::{
    BookingStatus, day_limits, reservations,
    slot_arithmetic::{self, DateOverride, Window},
    to_chrono, to_jiff,
};
use crate::{
    Error, Result,
    catalogue::{mentors, services},
    statuses::GroupStatus,
    time_zones,
};

pub const INVALID_DATE: &str = "Invalid date";

/// Who asks for the slots and what of theirs counts as free.
#[derive(Default, Clone, Copy)]
pub struct Viewer<'a> {
    /// The viewer's IANA zone (UTC when absent).
    pub zone: Option<&'a str>,
    /// A booking being rescheduled: its own time counts as free.
    pub except_booking: Option<Uuid>,
    /// The signed-in viewer: their own unpaid holds count as free (they can pick again).
    pub user_id: Option<Uuid>,
}

/// `HH:MM` starts in the viewer's zone on `date` (YYYY-MM-DD there), free and bookable now.
pub async fn slots_on(
    db: &PgPool,
    mentor_id: Uuid,
    date: &str,
    duration: Option<i64>,
    viewer: Viewer<'_>,
    now: DateTime<Utc>,
) -> Result<Vec<String>> {
    let date: jiff::civil::Date = date.trim().parse().map_err(|_| Error::validation(INVALID_DATE))?;
    let zone = viewer_zone(viewer.zone)?;
    let Some((day_start, day_end)) = slot_arithmetic::viewer_day(date, &zone) else {
        return Err(Error::validation(INVALID_DATE));
    };
    let free = free_starts(
        db,
        mentor_id,
        (to_chrono(day_start), to_chrono(day_end)),
        duration,
        viewer,
        now,
    )
    .await?;
    Ok(slot_arithmetic::labels(&free, &zone))
}

pub const INVALID_MONTH: &str = "Month must be YYYY-MM";

/// The viewer's dates (YYYY-MM-DD in their zone) of `month` (YYYY-MM there) with at least one start
/// free and bookable now: the days [`slots_on`] offers times on, in one read of the mentor's calendar.
pub async fn days_in(
    db: &PgPool,
    mentor_id: Uuid,
    month: &str,
    duration: Option<i64>,
    viewer: Viewer<'_>,
    now: DateTime<Utc>,
) -> Result<Vec<String>> {
    let first = parse_month(month)?;
    let zone = viewer_zone(viewer.zone)?;
    let next = first
        .checked_add(jiff::Span::new().months(1))
        .map_err(|_| Error::validation(INVALID_MONTH))?;
    let (Some((from, _)), Some((to, _))) = (
        slot_arithmetic::viewer_day(first, &zone),
        slot_arithmetic::viewer_day(next, &zone),
    ) else {
        return Err(Error::validation(INVALID_MONTH));
    };
    let free = free_starts(db, mentor_id, (to_chrono(from), to_chrono(to)), duration, viewer, now).await?;
    let mut days: Vec<String> = free
        .iter()
        .map(|s| s.to_zoned(zone.clone()).date().to_string())
        .collect();
    days.dedup();
    Ok(days)
}

/// The first day of a `YYYY-MM` month.
fn parse_month(raw: &str) -> Result<jiff::civil::Date> {
    let bad = || Error::validation(INVALID_MONTH);
    let (year, month) = raw.trim().split_once('-').ok_or_else(bad)?;
    if year.len() != 4 || month.len() != 2 {
        return Err(bad());
    }
    let (year, month): (i16, i8) = (year.parse().map_err(|_| bad())?, month.parse().map_err(|_| bad())?);
    jiff::civil::Date::new(year, month, 1).map_err(|_| bad())
}

/// The viewer's zone (UTC when absent).
fn viewer_zone(zone: Option<&str>) -> Result<TimeZone> {
    match zone.map(str::trim).filter(|z| !z.is_empty()) {
        Some(z) => {
            TimeZone::get(&time_zones::validate(z)?).map_err(|_| Error::validation(time_zones::INVALID_TIME_ZONE))
        }
        None => Ok(TimeZone::UTC),
    }
}

/// Every start in `[range.0, range.1)` the mentor offers and nothing occupies, bookable now (after
/// the minimum notice, within the booking window): the one computation behind slots and days.
async fn free_starts(
    db: &PgPool,
    mentor_id: Uuid,
    (range_start, range_end): (DateTime<Utc>, DateTime<Utc>),
    duration: Option<i64>,
    viewer: Viewer<'_>,
    now: DateTime<Utc>,
) -> Result<Vec<jiff::Timestamp>> {
    let Viewer {
        zone: _,
        except_booking,
        user_id,
    } = viewer;
    let duration = services::duration(duration.unwrap_or(services::DEFAULT_DURATION_MINUTES as i64))?;
    let length = Duration::minutes(duration as i64);

    // Sessions within the largest buffer of the range still keep starts in it away.
    let reach = Duration::minutes(day_limits::MAX_BUFFER_MINUTES);
    let calendar = Calendar::load(
        db,
        mentor_id,
        range_start - reach,
        range_end + length + reach,
        except_booking,
        user_id,
    )
    .await?;
    let mentor_tz = TimeZone::get(&calendar.time_zone).map_err(|e| anyhow::anyhow!("mentor time zone: {e}"))?;
    let from = range_start
        .max(now + Duration::seconds(1))
        .max(reservations::earliest_start(calendar.minimum_notice_minutes, now));
    let to = range_end.min(now + Duration::days(slot_arithmetic::BOOKING_WINDOW_DAYS) + Duration::seconds(1));
    if from >= to {
        return Ok(Vec::new());
    }
    let (windows, overrides, busy) = (calendar.windows(), calendar.overrides(), calendar.busy());
    let own_busy = calendar.own_busy();
    let guard = day_limits::guard(calendar.buffer_before_minutes, calendar.buffer_after_minutes);
    let starts =
        slot_arithmetic::starts_between(&windows, &overrides, &mentor_tz, to_jiff(from), to_jiff(to), duration);
    // The sessions already counted on each local day of the mentor the range touches.
    let mut per_day: HashMap<jiff::civil::Date, i64> = HashMap::new();
    if calendar.max_bookings_per_day.is_some() {
        let counted = day_limits::counted_starts(
            &mut *db.acquire().await?,
            mentor_id,
            (from - Duration::days(2), to + Duration::days(2)),
            except_booking,
            user_id,
            now,
        )
        .await?;
        for start in counted {
            *per_day.entry(day_limits::local_date(&mentor_tz, start)).or_default() += 1;
        }
    }
    Ok(starts
        .into_iter()
        .filter(|s| {
            let (start, end) = (to_chrono(*s), to_chrono(*s) + length);
            let day = day_limits::local_date(&mentor_tz, start);
            !day_limits::clashes(&busy, start, end, guard)
                && !day_limits::clashes(&own_busy, start, end, Duration::zero())
                && day_limits::has_room(
                    calendar.max_bookings_per_day,
                    per_day.get(&day).copied().unwrap_or_default(),
                )
        })
        .collect())
}

/// What the slots of one viewer day are made of, read in one round trip: the mentor's zone and
/// notice, weekly windows, date overrides, and the bookings and group sessions that overlap the day.
#[derive(FromRow)]
struct Calendar {
    time_zone: String,
    minimum_notice_minutes: i32,
    buffer_before_minutes: i32,
    buffer_after_minutes: i32,
    max_bookings_per_day: Option<i32>,
    window_days: Option<Vec<i16>>,
    window_starts: Option<Vec<i32>>,
    window_ends: Option<Vec<i32>>,
    override_dates: Option<Vec<NaiveDate>>,
    override_days_off: Option<Vec<bool>>,
    override_starts: Option<Vec<Option<i32>>>,
    override_ends: Option<Vec<Option<i32>>>,
    busy_starts: Option<Vec<DateTime<Utc>>>,
    busy_ends: Option<Vec<DateTime<Utc>>>,
    /// Busy times read from the mentor's own calendar (no buffers around them).
    own_busy_starts: Option<Vec<DateTime<Utc>>>,
    own_busy_ends: Option<Vec<DateTime<Utc>>>,
}

impl Calendar {
    /// An active mentor's calendar with what is busy in `[from, to)`, except `except` (a booking
    /// being moved) and the unpaid holds of `holder` (they may pick again).
    async fn load(
        db: &PgPool,
        mentor_id: Uuid,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        except: Option<Uuid>,
        holder: Option<Uuid>,
    ) -> Result<Self> {
        // A booking lasts at most as long as the longest service, so one that started earlier than
        // that before `from` cannot reach into it: the index on (mentor_id, scheduled_at) bounds the scan.
        sqlx::query_as!(
            Calendar,
            "SELECT m.time_zone, m.minimum_notice_minutes, m.buffer_before_minutes, m.buffer_after_minutes, m.max_bookings_per_day, \
               w.days AS window_days, w.starts AS window_starts, w.ends AS window_ends, \
               o.dates AS override_dates, o.days_off AS override_days_off, o.starts AS \"override_starts: Vec<Option<i32>>\", o.ends AS \"override_ends: Vec<Option<i32>>\", \
               b.starts AS busy_starts, b.ends AS busy_ends, x.starts AS own_busy_starts, x.ends AS own_busy_ends \
             FROM mentors m JOIN users u ON u.id = m.user_id \
             CROSS JOIN LATERAL (SELECT array_agg(day_of_week) AS days, array_agg(start_minute) AS starts, array_agg(end_minute) AS ends \
               FROM availability_slots WHERE mentor_id = m.id AND is_active) w \
             CROSS JOIN LATERAL (SELECT array_agg(date) AS dates, array_agg(is_day_off) AS days_off, array_agg(start_minute) AS starts, \
               array_agg(end_minute) AS ends FROM availability_overrides WHERE mentor_id = m.id AND date >= current_date - 2) o \
             CROSS JOIN LATERAL (SELECT array_agg(t.scheduled_at) AS starts, array_agg(t.ends_at) AS ends FROM ( \
               SELECT scheduled_at, ends_at FROM bookings WHERE mentor_id = m.id AND status = ANY($7) \
                 AND group_session_id IS NULL AND scheduled_at < $3::timestamptz AND scheduled_at > $2::timestamptz - make_interval(mins => $6) AND ends_at > $2::timestamptz \
                 AND id IS DISTINCT FROM $4 AND NOT (status = $8 AND user_id IS NOT DISTINCT FROM $5) \
               UNION ALL SELECT scheduled_at, ends_at FROM group_sessions WHERE mentor_id = m.id AND status = ANY($9) \
                 AND scheduled_at < $3::timestamptz AND ends_at > $2::timestamptz) t) b \
             CROSS JOIN LATERAL (SELECT array_agg(starts_at) AS starts, array_agg(ends_at) AS ends FROM calendar_busy_times \
               WHERE mentor_id = m.id AND starts_at < $3::timestamptz AND ends_at > $2::timestamptz) x \
             WHERE m.id = $1 AND m.is_active AND m.approval_status = 'approved' AND u.is_active",
            mentor_id,
            from,
            to,
            except,
            holder,
            services::MAX_DURATION_MINUTES,
            BookingStatus::HOLDING_TIME as &[BookingStatus],
            BookingStatus::Reserved as BookingStatus,
            GroupStatus::HOLDING_TIME as &[GroupStatus],
        )
        .fetch_optional(db)
        .await?
        .ok_or_else(|| Error::not_found(mentors::NOT_FOUND))
    }

    fn windows(&self) -> Vec<Window> {
        let (days, starts, ends) = (
            self.window_days.as_deref(),
            self.window_starts.as_deref(),
            self.window_ends.as_deref(),
        );
        let (days, starts, ends) = (
            days.unwrap_or_default(),
            starts.unwrap_or_default(),
            ends.unwrap_or_default(),
        );
        days.iter()
            .zip(starts)
            .zip(ends)
            .map(|((d, s), e)| Window {
                day_of_week: *d as i8,
                start_minute: *s,
                end_minute: *e,
            })
            .collect()
    }

    fn overrides(&self) -> Vec<DateOverride> {
        let dates = self.override_dates.as_deref().unwrap_or_default();
        let days_off = self.override_days_off.as_deref().unwrap_or_default();
        let starts = self.override_starts.as_deref().unwrap_or_default();
        let ends = self.override_ends.as_deref().unwrap_or_default();
        dates
            .iter()
            .zip(days_off)
            .zip(starts.iter().zip(ends))
            .map(|((d, off), (s, e))| DateOverride::new(*d, *off, *s, *e))
            .collect()
    }

    fn busy(&self) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
        let starts = self.busy_starts.as_deref().unwrap_or_default();
        let ends = self.busy_ends.as_deref().unwrap_or_default();
        starts.iter().copied().zip(ends.iter().copied()).collect()
    }

    fn own_busy(&self) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
        let starts = self.own_busy_starts.as_deref().unwrap_or_default();
        let ends = self.own_busy_ends.as_deref().unwrap_or_default();
        starts.iter().copied().zip(ends.iter().copied()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_month_is_four_digits_a_dash_and_two() {
        assert_eq!(parse_month("2026-12").unwrap().to_string(), "2026-12-01");
        assert_eq!(parse_month(" 2027-01 ").unwrap().to_string(), "2027-01-01");
        for bad in [
            "2026-13",
            "2026-00",
            "2026-1",
            "26-12",
            "2026/12",
            "",
            "2026-12-01",
            "abcd-ef",
        ] {
            assert_eq!(parse_month(bad).unwrap_err().to_string(), INVALID_MONTH, "{bad}");
        }
    }
}
