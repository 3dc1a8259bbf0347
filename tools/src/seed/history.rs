//! A demo mentor's weekly schedule and a little history: past sessions with their payments and
//! reviews, and a few upcoming sessions, so the catalogue, the booking page and both dashboards
//! are alive right after seeding. Every figure on screen then follows from these rows.

use chrono::{DateTime, Duration, Utc};
use domain::booking::{BookingStatus, slot_arithmetic, to_chrono, to_jiff};
use jiff::tz::TimeZone;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::schedules;

/// A mentor's schedule, written once (a mentor who already has one keeps it).
pub(super) async fn ensure_schedule(pool: &PgPool, mentor_id: Uuid, i: usize) -> anyhow::Result<()> {
    let has_one: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM availability_slots WHERE mentor_id = $1)")
        .bind(mentor_id)
        .fetch_one(pool)
        .await?;
    if has_one {
        return Ok(());
    }
    for w in schedules::weekly(i) {
        sqlx::query(
            "INSERT INTO availability_slots (mentor_id, day_of_week, start_minute, end_minute) VALUES ($1, $2, $3, $4)",
        )
        .bind(mentor_id)
        .bind(w.day_of_week as i16)
        .bind(w.start_minute)
        .bind(w.end_minute)
        .execute(pool)
        .await?;
    }
    Ok(())
}

pub(super) struct Service {
    pub id: Uuid,
    pub price_cents: i64,
    pub duration_minutes: i32,
}

/// Starts the mentor's schedule offers for `service` between `from` and `to`.
fn starts(i: usize, tz: &TimeZone, from: DateTime<Utc>, to: DateTime<Utc>, duration: i32) -> Vec<DateTime<Utc>> {
    slot_arithmetic::starts_between(&schedules::weekly(i), &[], tz, to_jiff(from), to_jiff(to), duration)
        .into_iter()
        .map(to_chrono)
        .collect()
}

/// One start per day, `count` of them, spread over the candidates.
fn spread(candidates: &[DateTime<Utc>], count: usize) -> Vec<DateTime<Utc>> {
    let mut days = Vec::new();
    let mut picked: Vec<DateTime<Utc>> = Vec::new();
    for start in candidates {
        let day = start.date_naive();
        if !days.contains(&day) {
            days.push(day);
            picked.push(*start);
        }
    }
    if picked.len() <= count {
        return picked;
    }
    let step = picked.len() / count;
    picked.into_iter().step_by(step.max(1)).take(count).collect()
}

/// Completed sessions in the past weeks, one per review in `reviews` (rating, comment, seeker),
/// each paid when the service has a price; the mentor's session count is theirs.
pub(super) async fn past_sessions(
    tx: &mut PgConnection,
    mentor_id: Uuid,
    i: usize,
    tz: &TimeZone,
    service: &Service,
    reviews: &[(i16, &str, Uuid)],
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let candidates = starts(
        i,
        tz,
        now - Duration::days(60),
        now - Duration::days(3),
        service.duration_minutes,
    );
    let times = spread(&candidates, reviews.len());
    for (start, (rating, comment, seeker)) in times.iter().zip(reviews) {
        let booking_id = insert_booking(tx, *seeker, mentor_id, service, *start, "completed").await?;
        sqlx::query("UPDATE bookings SET completed_at = ends_at + interval '1 day' WHERE id = $1")
            .bind(booking_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO reviews (mentor_id, user_id, booking_id, rating, comment, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(mentor_id)
            .bind(seeker)
            .bind(booking_id)
            .bind(rating)
            .bind(comment)
            .bind(*start + Duration::days(1))
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("UPDATE mentors SET total_sessions = (SELECT count(*) FROM bookings WHERE mentor_id = $1 AND status = $2) WHERE id = $1")
        .bind(mentor_id)
        .bind(BookingStatus::Completed)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// A confirmed session a few days ahead for `seeker`, with its reminders and completion queued
/// like any confirmed booking (no confirmation e-mail: nobody booked it just now).
pub(super) async fn upcoming_session(
    tx: &mut PgConnection,
    mentor_id: Uuid,
    i: usize,
    tz: &TimeZone,
    service: &Service,
    seeker: Uuid,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let candidates = starts(
        i,
        tz,
        now + Duration::days(2),
        now + Duration::days(12),
        service.duration_minutes,
    );
    let Some(start) = spread(&candidates, 3).get(i % 3).or(candidates.first()).copied() else {
        return Ok(());
    };
    let booking_id = insert_booking(tx, seeker, mentor_id, service, start, "confirmed").await?;
    domain::booking::jobs::schedule_reminders(tx, booking_id, start, now).await?;
    domain::booking::jobs::schedule_completion(
        tx,
        booking_id,
        start + Duration::minutes(service.duration_minutes as i64),
    )
    .await?;
    Ok(())
}

async fn insert_booking(
    tx: &mut PgConnection,
    seeker: Uuid,
    mentor_id: Uuid,
    service: &Service,
    start: DateTime<Utc>,
    status: &str,
) -> anyhow::Result<Uuid> {
    let booking_id: Uuid = sqlx::query_scalar(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, confirmed_at, \
         earliest_scheduled_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $5 + make_interval(mins => $6), $7, $5 - interval '5 days', $5, $5 - interval '5 days') RETURNING id",
    )
    .bind(seeker)
    .bind(mentor_id)
    .bind(service.id)
    .bind(status)
    .bind(start)
    .bind(service.duration_minutes)
    .bind(service.price_cents)
    .fetch_one(&mut *tx)
    .await?;
    if service.price_cents > 0 {
        let paid_at = start - Duration::days(5);
        let payment_id: Uuid = sqlx::query_scalar(
            "INSERT INTO payments (booking_id, user_id, gateway, transaction_id, amount_cents, card_last4, status, reference, created_at, settled_at) \
             VALUES ($1, $2, 'test', $3, $4, '1111', 'approved', $3, $5, $5) RETURNING id",
        )
        .bind(booking_id)
        .bind(seeker)
        .bind(format!("seed{}", &booking_id.simple().to_string()[..16]))
        .bind(service.price_cents)
        .bind(paid_at)
        .fetch_one(&mut *tx)
        .await?;
        // Every payment has its receipt, the demo's too.
        domain::receipts::issue_for_payment(&mut *tx, payment_id, paid_at).await?;
    }
    Ok(booking_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_takes_one_start_per_day() {
        let day = |d: i64, h: i64| DateTime::from_timestamp(1_800_000_000 + d * 86_400 + h * 3600, 0).unwrap();
        let candidates = vec![day(0, 0), day(0, 1), day(1, 0), day(2, 0), day(3, 0), day(3, 2)];
        let picked = spread(&candidates, 2);
        assert_eq!(picked.len(), 2);
        assert_ne!(picked[0].date_naive(), picked[1].date_naive());
        assert_eq!(spread(&candidates, 10).len(), 4);
    }
}
