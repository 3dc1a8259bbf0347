//! The start times a viewer can book on one of their days.

use chrono::{DateTime, Duration, Utc};
use jiff::tz::TimeZone;
use sqlx::PgPool;
use uuid::Uuid;

use super::{date_overrides, weekly_windows, reservations, slot_arithmetic, to_chrono, to_jiff};
use crate::{Error, Result, catalogue::{mentors, services}, time_zones};

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
    let Viewer { zone: viewer_zone, except_booking, user_id } = viewer;
    let mentor = mentors::find(db, mentor_id).await?.filter(|m| m.is_active).ok_or_else(|| Error::not_found(mentors::NOT_FOUND))?;
    let date: jiff::civil::Date = date.trim().parse().map_err(|_| Error::validation(INVALID_DATE))?;
    let viewer = match viewer_zone.map(str::trim).filter(|z| !z.is_empty()) {
        Some(z) => TimeZone::get(&time_zones::validate(z)?).map_err(|_| Error::validation(time_zones::INVALID_TIME_ZONE))?,
        None => TimeZone::UTC,
    };
    let duration = services::duration(duration.unwrap_or(services::DEFAULT_DURATION_MINUTES as i64))?;
    let mentor_tz = TimeZone::get(&mentor.time_zone).map_err(|e| anyhow::anyhow!("mentor time zone: {e}"))?;

    let Some((day_start, day_end)) = slot_arithmetic::viewer_day(date, &viewer) else { return Err(Error::validation(INVALID_DATE)) };
    let from = to_chrono(day_start).max(now + Duration::seconds(1)).max(reservations::earliest_start(mentor.minimum_notice_minutes, now));
    let to = to_chrono(day_end).min(now + Duration::days(slot_arithmetic::BOOKING_WINDOW_DAYS) + Duration::seconds(1));
    if from >= to {
        return Ok(Vec::new());
    }
    let windows = weekly_windows::active_windows(db, mentor.id).await?;
    let overrides = date_overrides::for_slots(&mut *db.acquire().await?, mentor.id).await?;
    let starts = slot_arithmetic::starts_between(&windows, &overrides, &mentor_tz, to_jiff(from), to_jiff(to), duration);
    let length = Duration::minutes(duration as i64);
    let busy = reservations::busy(db, mentor.id, from, to + length, except_booking, user_id).await?;
    let free: Vec<jiff::Timestamp> = starts
        .into_iter()
        .filter(|s| {
            let (start, end) = (to_chrono(*s), to_chrono(*s) + length);
            !busy.iter().any(|(b_start, b_end)| start < *b_end && *b_start < end)
        })
        .collect();
    Ok(slot_arithmetic::labels(&free, &viewer))
}
