//! Date overrides: on one date of the mentor's own calendar (their zone) a day off, extra hours,
//! or both. A day off hides that date's weekly windows; extra hours are offered on top of them
//! (with a day off, only they are). An override never cancels or moves an existing booking.

use chrono::{DateTime, NaiveDate, Utc};
use jiff::{civil::Date, tz::TimeZone};
use sqlx::{FromRow, PgConnection, PgPool};
use uuid::Uuid;

use super::{
    slot_arithmetic::{BOOKING_WINDOW_DAYS, DateOverride},
    to_jiff,
    weekly_windows::{END_BEFORE_START, parse_time},
};
use crate::{Error, Result};

/// Overrides are set from the mentor's today up to this many days ahead: as far as bookings go.
pub const OVERRIDE_WINDOW_DAYS: i64 = BOOKING_WINDOW_DAYS;

pub const INVALID_DATE: &str = "Date must be a valid date (YYYY-MM-DD)";
pub const OUT_OF_RANGE: &str = "Date must be from today to 90 days ahead";
pub const NOTHING_TO_CHANGE: &str = "Choose a day off, extra hours, or both";
pub const HALF_A_RANGE: &str = "Extra hours need both a start and an end time";
pub const ALREADY_DAY_OFF: &str = "That date is already a day off";
pub const OVERLAPS: &str = "These hours overlap extra hours you already added on that date";
pub const NOT_FOUND: &str = "Date override not found";

/// The mentor's today and the last date an override may be set for.
pub fn allowed_dates(tz: &TimeZone, now: DateTime<Utc>) -> (Date, Date) {
    let today = to_jiff(now).to_zoned(tz.clone()).date();
    let last = today
        .checked_add(jiff::Span::new().days(OVERRIDE_WINDOW_DAYS))
        .unwrap_or(Date::MAX);
    (today, last)
}

/// A `YYYY-MM-DD` date within [`allowed_dates`].
pub fn parse_date(raw: &str, tz: &TimeZone, now: DateTime<Utc>) -> Result<Date> {
    let raw = raw.trim();
    if raw.len() != 10 {
        return Err(Error::validation(INVALID_DATE));
    }
    let date: Date = raw.parse().map_err(|_| Error::validation(INVALID_DATE))?;
    let (today, last) = allowed_dates(tz, now);
    if date < today || date > last {
        return Err(Error::validation(OUT_OF_RANGE));
    }
    Ok(date)
}

/// Optional extra hours: both times or neither, on the half hour, end after start.
pub fn parse_extra(start: Option<&str>, end: Option<&str>) -> Result<Option<(i32, i32)>> {
    fn given(t: Option<&str>) -> Option<&str> {
        t.map(str::trim).filter(|t| !t.is_empty())
    }
    match (given(start), given(end)) {
        (None, None) => Ok(None),
        (Some(start), Some(end)) => {
            let (start, end) = (parse_time(start)?, parse_time(end)?);
            if end <= start {
                return Err(Error::validation(END_BEFORE_START));
            }
            Ok(Some((start, end)))
        }
        _ => Err(Error::validation(HALF_A_RANGE)),
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct Override {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub date: NaiveDate,
    pub is_day_off: bool,
    pub start_minute: Option<i32>,
    pub end_minute: Option<i32>,
}

fn to_civil(d: NaiveDate) -> Date {
    use chrono::Datelike;
    Date::new(d.year() as i16, d.month() as i8, d.day() as i8).expect("a PostgreSQL date in jiff's range")
}

fn to_naive(d: Date) -> NaiveDate {
    NaiveDate::from_ymd_opt(d.year().into(), d.month() as u32, d.day() as u32).expect("a valid date")
}

impl From<&Override> for DateOverride {
    fn from(o: &Override) -> Self {
        Self::new(o.date, o.is_day_off, o.start_minute, o.end_minute)
    }
}

impl DateOverride {
    /// From a stored override's date, day-off flag and extra window.
    pub fn new(date: NaiveDate, day_off: bool, start_minute: Option<i32>, end_minute: Option<i32>) -> Self {
        Self {
            date: to_civil(date),
            day_off,
            extra: start_minute.zip(end_minute),
        }
    }
}

fn zone(name: &str) -> Result<TimeZone> {
    Ok(TimeZone::get(name).map_err(|e| anyhow::anyhow!("mentor time zone: {e}"))?)
}

/// The mentor's overrides from their today (in `time_zone`) on, by date then start.
pub async fn upcoming(db: &PgPool, mentor_id: Uuid, time_zone: &str, now: DateTime<Utc>) -> Result<Vec<Override>> {
    let (today, _) = allowed_dates(&zone(time_zone)?, now);
    Ok(sqlx::query_as!(
        Override,
        "SELECT id, mentor_id, date, is_day_off, start_minute, end_minute FROM availability_overrides WHERE mentor_id = $1 AND date >= $2 \
         ORDER BY date, is_day_off DESC, start_minute NULLS FIRST",
        mentor_id,
        to_naive(today),
    )
    .fetch_all(db)
    .await?)
}

/// Adds a day off, extra hours, or both on one date of the mentor's calendar (`time_zone`).
#[allow(clippy::too_many_arguments)]
pub async fn add(
    db: &PgPool,
    mentor_id: Uuid,
    time_zone: &str,
    date: &str,
    day_off: bool,
    start: Option<&str>,
    end: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Override> {
    let date = parse_date(date, &zone(time_zone)?, now)?;
    let extra = parse_extra(start, end)?;
    if !day_off && extra.is_none() {
        return Err(Error::validation(NOTHING_TO_CHANGE));
    }
    sqlx::query_as!(
        Override,
        "INSERT INTO availability_overrides (mentor_id, date, is_day_off, start_minute, end_minute) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id, mentor_id, date, is_day_off, start_minute, end_minute",
        mentor_id,
        to_naive(date),
        day_off,
        extra.map(|e| e.0),
        extra.map(|e| e.1),
    )
    .fetch_one(db)
    .await
    .map_err(|e| {
        let constraint = match &e {
            sqlx::Error::Database(db) => db.constraint().map(str::to_string),
            _ => None,
        };
        match constraint.as_deref() {
            Some("availability_overrides_one_day_off") => Error::conflict(ALREADY_DAY_OFF),
            Some("availability_overrides_no_overlap") => Error::conflict(OVERLAPS),
            _ => e.into(),
        }
    })
}

/// Removes one of the mentor's overrides; another mentor's is not found.
pub async fn delete(db: &PgPool, mentor_id: Uuid, id: Uuid) -> Result<()> {
    let done = sqlx::query!(
        "DELETE FROM availability_overrides WHERE id = $1 AND mentor_id = $2",
        id,
        mentor_id,
    )
    .execute(db)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::not_found(NOT_FOUND));
    }
    Ok(())
}

/// The overrides slot arithmetic needs: from two days before the server's today (any zone's
/// today is at most a day behind), the rest ignore themselves.
pub async fn for_slots(db: &mut PgConnection, mentor_id: Uuid) -> Result<Vec<DateOverride>> {
    let rows: Vec<Override> = sqlx::query_as!(
        Override,
        "SELECT id, mentor_id, date, is_day_off, start_minute, end_minute FROM availability_overrides WHERE mentor_id = $1 AND date >= current_date - 2",
        mentor_id,
    )
    .fetch_all(db)
    .await?;
    Ok(rows.iter().map(DateOverride::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booking::slot_arithmetic::{MINUTES_PER_DAY, Window, windows_on};

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    // 2026-06-01 is a Monday.
    const MONDAY: [Window; 2] = [
        Window {
            day_of_week: 1,
            start_minute: 9 * 60,
            end_minute: 12 * 60,
        },
        Window {
            day_of_week: 1,
            start_minute: 14 * 60,
            end_minute: 17 * 60,
        },
    ];

    #[test]
    fn a_day_off_hides_that_dates_weekly_windows_only() {
        let off = [DateOverride {
            date: d("2026-06-01"),
            day_off: true,
            extra: None,
        }];
        assert_eq!(windows_on(&MONDAY, &off, d("2026-06-01")), Vec::<(i32, i32)>::new());
        assert_eq!(
            windows_on(&MONDAY, &off, d("2026-06-08")),
            [(540, 720), (840, 1020)],
            "the next Monday is untouched"
        );
    }

    #[test]
    fn extra_hours_add_to_the_weekly_windows_or_replace_them_on_a_day_off() {
        let extra = [DateOverride {
            date: d("2026-06-01"),
            day_off: false,
            extra: Some((18 * 60, 20 * 60)),
        }];
        assert_eq!(
            windows_on(&MONDAY, &extra, d("2026-06-01")),
            [(540, 720), (840, 1020), (1080, 1200)]
        );
        let sunday = [DateOverride {
            date: d("2026-05-31"),
            day_off: false,
            extra: Some((600, MINUTES_PER_DAY)),
        }];
        assert_eq!(
            windows_on(&MONDAY, &sunday, d("2026-05-31")),
            [(600, 1440)],
            "a day without weekly windows"
        );
        let both = [DateOverride {
            date: d("2026-06-01"),
            day_off: true,
            extra: Some((18 * 60, 20 * 60)),
        }];
        assert_eq!(windows_on(&MONDAY, &both, d("2026-06-01")), [(1080, 1200)]);
    }

    #[test]
    fn dates_run_from_the_mentors_today_to_90_days_ahead() {
        // 2026-06-01 02:00 UTC is still 2026-05-31 in New York.
        let now = DateTime::parse_from_rfc3339("2026-06-01T02:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let ny = TimeZone::get("America/New_York").unwrap();
        assert_eq!(parse_date("2026-05-31", &ny, now).unwrap(), d("2026-05-31"));
        assert_eq!(
            parse_date("2026-05-30", &ny, now).unwrap_err().to_string(),
            OUT_OF_RANGE
        );
        assert_eq!(parse_date("2026-08-29", &ny, now).unwrap(), d("2026-08-29"));
        assert_eq!(
            parse_date("2026-08-30", &ny, now).unwrap_err().to_string(),
            OUT_OF_RANGE
        );
        assert_eq!(
            parse_date("2026-05-31", &TimeZone::UTC, now).unwrap_err().to_string(),
            OUT_OF_RANGE
        );
        for bad in ["", "2026-6-1", "2026-02-30", "tomorrow", "2026-06-01T00:00"] {
            assert_eq!(
                parse_date(bad, &ny, now).unwrap_err().to_string(),
                INVALID_DATE,
                "{bad}"
            );
        }
    }

    #[test]
    fn extra_hours_are_a_whole_half_hour_range() {
        assert_eq!(parse_extra(None, Some(" ")).unwrap(), None);
        assert_eq!(parse_extra(Some("18:00"), Some("24:00")).unwrap(), Some((1080, 1440)));
        assert_eq!(parse_extra(Some("18:00"), None).unwrap_err().to_string(), HALF_A_RANGE);
        assert_eq!(
            parse_extra(Some("18:00"), Some("18:00")).unwrap_err().to_string(),
            END_BEFORE_START
        );
        assert!(parse_extra(Some("18:15"), Some("19:00")).is_err());
    }
}
