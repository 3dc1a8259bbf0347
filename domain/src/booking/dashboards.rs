//! What the client and mentor dashboards show.

use chrono::{DateTime, Datelike, TimeZone, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::bookings::Booking;
use crate::Result;

pub struct ClientStats {
    pub total_sessions: i64,
    pub upcoming_sessions: i64,
    /// Paid minus refunded, in cents.
    pub total_spent_cents: i64,
}

/// A seeker's bookings (holds excluded), newest start first.
pub async fn client_bookings(db: &PgPool, user_id: Uuid) -> Result<Vec<Booking>> {
    Ok(sqlx::query_as(crate::select_bookings!(
        "WHERE b.user_id = $1 AND b.status IN ('pending', 'confirmed', 'completed', 'cancelled') ORDER BY b.scheduled_at DESC, b.id"
    ))
    .bind(user_id)
    .fetch_all(db)
    .await?)
}

pub async fn client_stats(db: &PgPool, user_id: Uuid, now: DateTime<Utc>) -> Result<ClientStats> {
    let (total_sessions, upcoming_sessions, total_spent_cents): (i64, i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE b.status IN ('pending', 'confirmed', 'completed')), \
                count(*) FILTER (WHERE b.status IN ('pending', 'confirmed') AND b.scheduled_at > $2), \
                (coalesce((SELECT sum(p.amount_cents) FROM payments p WHERE p.user_id = $1 AND p.status = 'approved'), 0) \
                 - coalesce((SELECT sum(r.amount_cents) FROM refunds r JOIN bookings rb ON rb.id = r.booking_id \
                             WHERE rb.user_id = $1 AND r.status IN ('pending', 'succeeded')), 0))::bigint \
         FROM bookings b WHERE b.user_id = $1",
    )
    .bind(user_id)
    .bind(now)
    .fetch_one(db)
    .await?;
    Ok(ClientStats { total_sessions, upcoming_sessions, total_spent_cents })
}

/// A mentor's bookings (holds excluded), newest start first.
pub async fn mentor_bookings(db: &PgPool, mentor_id: Uuid) -> Result<Vec<Booking>> {
    Ok(sqlx::query_as(crate::select_bookings!(
        "WHERE b.mentor_id = $1 AND b.status IN ('pending', 'confirmed', 'completed', 'cancelled') ORDER BY b.scheduled_at DESC, b.id"
    ))
    .bind(mentor_id)
    .fetch_all(db)
    .await?)
}

pub struct MentorStats {
    pub total_sessions: i64,
    /// Bookings scheduled in the current calendar month (UTC).
    pub this_month: i64,
    /// The totals of completed bookings, in cents.
    pub total_earnings_cents: i64,
}

pub async fn mentor_stats(db: &PgPool, mentor_id: Uuid, now: DateTime<Utc>) -> Result<MentorStats> {
    let month_start = Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0).single().expect("valid month start");
    let next_month = if now.month() == 12 {
        Utc.with_ymd_and_hms(now.year() + 1, 1, 1, 0, 0, 0)
    } else {
        Utc.with_ymd_and_hms(now.year(), now.month() + 1, 1, 0, 0, 0)
    }
    .single()
    .expect("valid month start");
    let (total_sessions, this_month, total_earnings_cents): (i64, i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE status IN ('pending', 'confirmed', 'completed')), \
                count(*) FILTER (WHERE status IN ('pending', 'confirmed', 'completed') AND scheduled_at >= $2 AND scheduled_at < $3), \
                coalesce(sum(total_cents) FILTER (WHERE status = 'completed'), 0)::bigint \
         FROM bookings WHERE mentor_id = $1",
    )
    .bind(mentor_id)
    .bind(month_start)
    .bind(next_month)
    .fetch_one(db)
    .await?;
    Ok(MentorStats { total_sessions, this_month, total_earnings_cents })
}
