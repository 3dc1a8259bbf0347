//! A mentor's weekly availability windows (wall-clock time in the mentor's zone).

use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use super::slot_arithmetic::{MINUTES_PER_DAY, SLOT_STEP_MINUTES, Window};
use crate::{Error, Result, error::OnConstraint};

pub const END_BEFORE_START: &str = "End time must be after start time";
pub const NOT_ON_THE_HALF_HOUR: &str = "Times must be on the hour or half hour";
pub const INVALID_DAY: &str = "Day of week must be from 0 (Sunday) to 6 (Saturday)";
pub const OVERLAPS: &str = "This time overlaps your availability on that day";
pub const NOT_FOUND: &str = "Availability slot not found";
pub const NOT_YOURS: &str = "You can only change your own availability";
pub const NO_DAYS: &str = "Please select at least one day";

#[derive(Clone, Debug, FromRow)]
pub struct Slot {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub day_of_week: i16,
    pub start_minute: i32,
    pub end_minute: i32,
    pub is_active: bool,
}

/// "09:30" -> 570; only whole half hours from 00:00 to 24:00.
pub fn parse_time(raw: &str) -> Result<i32> {
    let bad = || Error::validation(NOT_ON_THE_HALF_HOUR);
    let (h, m) = raw.trim().split_once(':').ok_or_else(bad)?;
    if h.len() != 2 || m.len() != 2 {
        return Err(bad());
    }
    let (h, m): (i32, i32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    let minute = h * 60 + m;
    if !(0..=MINUTES_PER_DAY).contains(&minute) || m >= 60 || minute % SLOT_STEP_MINUTES != 0 {
        return Err(bad());
    }
    Ok(minute)
}

pub fn format_time(minute: i32) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

pub async fn list(db: &PgPool, mentor_id: Uuid) -> Result<Vec<Slot>> {
    Ok(sqlx::query_as!(
        Slot,
        "SELECT id, mentor_id, day_of_week, start_minute, end_minute, is_active FROM availability_slots \
         WHERE mentor_id = $1 ORDER BY day_of_week, start_minute",
        mentor_id,
    )
    .fetch_all(db)
    .await?)
}

pub async fn add(db: &PgPool, mentor_id: Uuid, day_of_week: i64, start: &str, end: &str) -> Result<Slot> {
    if !(0..=6).contains(&day_of_week) {
        return Err(Error::validation(INVALID_DAY));
    }
    let (start, end) = (parse_time(start)?, parse_time(end)?);
    if end <= start {
        return Err(Error::validation(END_BEFORE_START));
    }
    insert(db, mentor_id, day_of_week, start, end).await
}

/// One window per chosen day with the same times, all or none: a window overlapping one
/// already there refuses the whole lot. Days chosen twice count once.
pub async fn add_many(db: &PgPool, mentor_id: Uuid, days_of_week: &[i64], start: &str, end: &str) -> Result<Vec<Slot>> {
    let mut days = days_of_week.to_vec();
    days.sort_unstable();
    days.dedup();
    if days.is_empty() {
        return Err(Error::validation(NO_DAYS));
    }
    if days.iter().any(|d| !(0..=6).contains(d)) {
        return Err(Error::validation(INVALID_DAY));
    }
    let (start, end) = (parse_time(start)?, parse_time(end)?);
    if end <= start {
        return Err(Error::validation(END_BEFORE_START));
    }
    let mut tx = db.begin().await?;
    let mut slots = Vec::with_capacity(days.len());
    for day in days {
        slots.push(insert(&mut *tx, mentor_id, day, start, end).await?);
    }
    tx.commit().await?;
    Ok(slots)
}

async fn insert(
    db: impl sqlx::PgExecutor<'_>,
    mentor_id: Uuid,
    day_of_week: i64,
    start: i32,
    end: i32,
) -> Result<Slot> {
    sqlx::query_as!(
        Slot,
        "INSERT INTO availability_slots (mentor_id, day_of_week, start_minute, end_minute) VALUES ($1, $2, $3, $4) \
         RETURNING id, mentor_id, day_of_week, start_minute, end_minute, is_active",
        mentor_id,
        day_of_week as i16,
        start,
        end,
    )
    .fetch_one(db)
    .await
    .on_constraint("availability_slots_no_overlap", || Error::conflict(OVERLAPS))
}

async fn owned(db: &PgPool, mentor_id: Uuid, id: Uuid) -> Result<Slot> {
    let slot: Slot = sqlx::query_as!(
        Slot,
        "SELECT id, mentor_id, day_of_week, start_minute, end_minute, is_active FROM availability_slots WHERE id = $1",
        id,
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    if slot.mentor_id != mentor_id {
        return Err(Error::forbidden(NOT_YOURS));
    }
    Ok(slot)
}

pub async fn set_active(db: &PgPool, mentor_id: Uuid, id: Uuid, is_active: bool) -> Result<Slot> {
    owned(db, mentor_id, id).await?;
    Ok(sqlx::query_as!(
        Slot,
        "UPDATE availability_slots SET is_active = $2 WHERE id = $1 RETURNING id, mentor_id, day_of_week, start_minute, end_minute, is_active",
        id,
        is_active,
    )
    .fetch_one(db)
    .await?)
}

pub async fn delete(db: &PgPool, mentor_id: Uuid, id: Uuid) -> Result<()> {
    owned(db, mentor_id, id).await?;
    sqlx::query!("DELETE FROM availability_slots WHERE id = $1", id,)
        .execute(db)
        .await?;
    Ok(())
}

/// The active windows that slots are computed from.
pub async fn active_windows(db: impl sqlx::PgExecutor<'_>, mentor_id: Uuid) -> Result<Vec<Window>> {
    let rows = sqlx::query!(
        "SELECT day_of_week, start_minute, end_minute FROM availability_slots WHERE mentor_id = $1 AND is_active",
        mentor_id,
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.day_of_week, r.start_minute, r.end_minute))
        .map(|(d, s, e)| Window {
            day_of_week: d as i8,
            start_minute: s,
            end_minute: e,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_half_hours_from_midnight_to_midnight() {
        assert_eq!(parse_time("00:00").unwrap(), 0);
        assert_eq!(parse_time("09:30").unwrap(), 570);
        assert_eq!(parse_time("24:00").unwrap(), 1440);
        for bad in ["9:30", "09:15", "24:30", "25:00", "ab:cd", "", "09:60"] {
            assert_eq!(parse_time(bad).unwrap_err().to_string(), NOT_ON_THE_HALF_HOUR, "{bad}");
        }
        assert_eq!(format_time(570), "09:30");
        assert_eq!(format_time(1440), "24:00");
    }
}
