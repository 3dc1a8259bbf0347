//! Date overrides for a few demo mentors: a day off next week (on a working day without a
//! booking) and one mentor's extra Sunday hours, so the Availability tab and the booking page
//! show them after seeding.

use chrono::{DateTime, Utc};
use domain::booking::{date_overrides, slot_arithmetic::Window};
use jiff::{ToSpan, civil::Date, tz::TimeZone};
use sqlx::PgPool;
use uuid::Uuid;

use super::schedules;

/// Demo mentors (by index) who take a day off next week.
pub(super) const DAY_OFF_MENTORS: &[usize] = &[0, 3, 6];
/// The demo mentor (by index, one without Sunday hours) who adds hours on the coming Sunday.
pub(super) const EXTRA_SUNDAY_MENTOR: usize = 5;
/// Extra Sunday hours, in minutes after the mentor's midnight.
const EXTRA_SUNDAY: (i32, i32) = (10 * 60, 14 * 60);

/// Written once: a mentor who already has an override keeps what they have.
pub(super) async fn ensure_overrides(
    pool: &PgPool,
    mentor_id: Uuid,
    i: usize,
    tz: &TimeZone,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let has_one: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM availability_overrides WHERE mentor_id = $1)")
        .bind(mentor_id)
        .fetch_one(pool)
        .await?;
    if has_one {
        return Ok(());
    }
    let (today, _) = date_overrides::allowed_dates(tz, now);
    let weekly = schedules::weekly(i);
    if DAY_OFF_MENTORS.contains(&i) {
        for offset in 7..14 {
            let date = today.checked_add(offset.days())?;
            if works_on(&weekly, date) && !has_booking_on(pool, mentor_id, tz, date).await? {
                insert(pool, mentor_id, date, true, None).await?;
                break;
            }
        }
    }
    if i == EXTRA_SUNDAY_MENTOR {
        let date = (1..8)
            .map(|d| today.checked_add(d.days()))
            .filter_map(Result::ok)
            .find(|d| d.weekday() == jiff::civil::Weekday::Sunday);
        if let Some(date) = date {
            insert(pool, mentor_id, date, false, Some(EXTRA_SUNDAY)).await?;
        }
    }
    Ok(())
}

fn works_on(weekly: &[Window], date: Date) -> bool {
    weekly
        .iter()
        .any(|w| w.day_of_week == date.weekday().to_sunday_zero_offset())
}

async fn has_booking_on(pool: &PgPool, mentor_id: Uuid, tz: &TimeZone, date: Date) -> anyhow::Result<bool> {
    let start = tz
        .to_zoned(date.to_datetime(jiff::civil::Time::midnight()))?
        .timestamp();
    let end = tz
        .to_zoned(date.tomorrow()?.to_datetime(jiff::civil::Time::midnight()))?
        .timestamp();
    let (start, end) = (domain::booking::to_chrono(start), domain::booking::to_chrono(end));
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM bookings WHERE mentor_id = $1 AND status = ANY($4) \
         AND scheduled_at < $3 AND ends_at > $2)",
    )
    .bind(mentor_id)
    .bind(start)
    .bind(end)
    .bind(domain::booking::BookingStatus::HOLDING_TIME)
    .fetch_one(pool)
    .await?)
}

async fn insert(
    pool: &PgPool,
    mentor_id: Uuid,
    date: Date,
    day_off: bool,
    extra: Option<(i32, i32)>,
) -> anyhow::Result<()> {
    let date = chrono::NaiveDate::from_ymd_opt(date.year().into(), date.month() as u32, date.day() as u32)
        .expect("a valid date");
    sqlx::query("INSERT INTO availability_overrides (mentor_id, date, is_day_off, start_minute, end_minute) VALUES ($1, $2, $3, $4, $5)")
        .bind(mentor_id)
        .bind(date)
        .bind(day_off)
        .bind(extra.map(|e| e.0))
        .bind(extra.map(|e| e.1))
        .execute(pool)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extra_sunday_mentor_has_no_sunday_hours_of_their_own() {
        assert!(
            !schedules::weekly(EXTRA_SUNDAY_MENTOR)
                .iter()
                .any(|w| w.day_of_week == 0)
        );
        assert!(EXTRA_SUNDAY.0 < EXTRA_SUNDAY.1);
    }
}
