//! The start times a viewer can book on one of their days.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use jiff::tz::TimeZone;
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use super::{
    BookingStatus, reservations,
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
    let Viewer {
        zone: viewer_zone,
        except_booking,
        user_id,
    } = viewer;
    let date: jiff::civil::Date = date.trim().parse().map_err(|_| Error::validation(INVALID_DATE))?;
    let viewer = match viewer_zone.map(str::trim).filter(|z| !z.is_empty()) {
        Some(z) => {
            TimeZone::get(&time_zones::validate(z)?).map_err(|_| Error::validation(time_zones::INVALID_TIME_ZONE))?
        }
        None => TimeZone::UTC,
    };
    let duration = services::duration(duration.unwrap_or(services::DEFAULT_DURATION_MINUTES as i64))?;
    let length = Duration::minutes(duration as i64);
    let Some((day_start, day_end)) = slot_arithmetic::viewer_day(date, &viewer) else {
        return Err(Error::validation(INVALID_DATE));
    };
    let (day_start, day_end) = (to_chrono(day_start), to_chrono(day_end));

    let calendar = Calendar::load(db, mentor_id, day_start, day_end + length, except_booking, user_id).await?;
    let mentor_tz = TimeZone::get(&calendar.time_zone).map_err(|e| anyhow::anyhow!("mentor time zone: {e}"))?;
    let from = day_start
        .max(now + Duration::seconds(1))
        .max(reservations::earliest_start(calendar.minimum_notice_minutes, now));
    let to = day_end.min(now + Duration::days(slot_arithmetic::BOOKING_WINDOW_DAYS) + Duration::seconds(1));
    if from >= to {
        return Ok(Vec::new());
    }
    let (windows, overrides, busy) = (calendar.windows(), calendar.overrides(), calendar.busy());
    let starts =
        slot_arithmetic::starts_between(&windows, &overrides, &mentor_tz, to_jiff(from), to_jiff(to), duration);
    let free: Vec<jiff::Timestamp> = starts
        .into_iter()
        .filter(|s| {
            let (start, end) = (to_chrono(*s), to_chrono(*s) + length);
            !busy.iter().any(|(b_start, b_end)| start < *b_end && *b_start < end)
        })
        .collect();
    Ok(slot_arithmetic::labels(&free, &viewer))
}

/// What the slots of one viewer day are made of, read in one round trip: the mentor's zone and
/// notice, weekly windows, date overrides, and the bookings and group sessions that overlap the day.
#[derive(FromRow)]
struct Calendar {
    time_zone: String,
    minimum_notice_minutes: i32,
    window_days: Option<Vec<i16>>,
    window_starts: Option<Vec<i32>>,
    window_ends: Option<Vec<i32>>,
    override_dates: Option<Vec<NaiveDate>>,
    override_days_off: Option<Vec<bool>>,
    override_starts: Option<Vec<Option<i32>>>,
    override_ends: Option<Vec<Option<i32>>>,
    busy_starts: Option<Vec<DateTime<Utc>>>,
    busy_ends: Option<Vec<DateTime<Utc>>>,
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
        sqlx::query_as(
            "SELECT m.time_zone, m.minimum_notice_minutes, \
               w.days AS window_days, w.starts AS window_starts, w.ends AS window_ends, \
               o.dates AS override_dates, o.days_off AS override_days_off, o.starts AS override_starts, o.ends AS override_ends, \
               b.starts AS busy_starts, b.ends AS busy_ends \
             FROM mentors m JOIN users u ON u.id = m.user_id \
             CROSS JOIN LATERAL (SELECT array_agg(day_of_week) AS days, array_agg(start_minute) AS starts, array_agg(end_minute) AS ends \
               FROM availability_slots WHERE mentor_id = m.id AND is_active) w \
             CROSS JOIN LATERAL (SELECT array_agg(date) AS dates, array_agg(is_day_off) AS days_off, array_agg(start_minute) AS starts, \
               array_agg(end_minute) AS ends FROM availability_overrides WHERE mentor_id = m.id AND date >= current_date - 2) o \
             CROSS JOIN LATERAL (SELECT array_agg(t.scheduled_at) AS starts, array_agg(t.ends_at) AS ends FROM ( \
               SELECT scheduled_at, ends_at FROM bookings WHERE mentor_id = m.id AND status = ANY($7) \
                 AND group_session_id IS NULL AND scheduled_at < $3 AND scheduled_at > $2 - make_interval(mins => $6) AND ends_at > $2 \
                 AND id IS DISTINCT FROM $4 AND NOT (status = $8 AND user_id IS NOT DISTINCT FROM $5) \
               UNION ALL SELECT scheduled_at, ends_at FROM group_sessions WHERE mentor_id = m.id AND status = ANY($9) \
                 AND scheduled_at < $3 AND ends_at > $2) t) b \
             WHERE m.id = $1 AND m.is_active AND m.approval_status = 'approved' AND u.is_active",
        )
        .bind(mentor_id)
        .bind(from)
        .bind(to)
        .bind(except)
        .bind(holder)
        .bind(services::MAX_DURATION_MINUTES)
        .bind(BookingStatus::HOLDING_TIME)
        .bind(BookingStatus::Reserved)
        .bind(GroupStatus::HOLDING_TIME)
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
}
