//! What the client and mentor dashboards show.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::{BookingStatus, bookings::Booking};
use crate::{
    Result,
    money::{PaymentStatus, RefundStatus},
};

pub struct ClientStats {
    pub total_sessions: i64,
    /// Pending or confirmed bookings that have not ended: a session in progress is still upcoming.
    pub upcoming_sessions: i64,
    /// Paid minus refunded, in cents.
    pub total_spent_cents: i64,
}

/// A seeker's bookings (holds excluded), newest start first.
pub async fn client_bookings(db: &PgPool, user_id: Uuid) -> Result<Vec<Booking>> {
    Ok(sqlx::query_as(crate::select_bookings!(
        "WHERE b.user_id = $1 AND b.status = ANY($2) ORDER BY b.scheduled_at DESC, b.id"
    ))
    .bind(user_id)
    .bind(BookingStatus::MADE)
    .fetch_all(db)
    .await?)
}

pub async fn client_stats(db: &PgPool, user_id: Uuid, now: DateTime<Utc>) -> Result<ClientStats> {
    let (total_sessions, upcoming_sessions, total_spent_cents): (i64, i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE b.status = ANY($3)), \
                count(*) FILTER (WHERE b.status = ANY($4) AND b.ends_at > $2), \
                (coalesce((SELECT sum(p.amount_cents) FROM payments p WHERE p.user_id = $1 AND p.status = $5), 0) \
                 - coalesce((SELECT sum(r.amount_cents) FROM refunds r JOIN bookings rb ON rb.id = r.booking_id \
                             WHERE rb.user_id = $1 AND r.status = ANY($6)), 0))::bigint \
         FROM bookings b WHERE b.user_id = $1",
    )
    .bind(user_id)
    .bind(now)
    .bind(BookingStatus::GOING_AHEAD)
    .bind(BookingStatus::LIVE)
    .bind(PaymentStatus::Approved)
    // A refund on its way counts as given back.
    .bind(&[RefundStatus::Pending, RefundStatus::Succeeded][..])
    .fetch_one(db)
    .await?;
    Ok(ClientStats {
        total_sessions,
        upcoming_sessions,
        total_spent_cents,
    })
}

/// A mentor's bookings (holds excluded), newest start first.
pub async fn mentor_bookings(db: &PgPool, mentor_id: Uuid) -> Result<Vec<Booking>> {
    Ok(sqlx::query_as(crate::select_bookings!(
        "WHERE b.mentor_id = $1 AND b.status = ANY($2) ORDER BY b.scheduled_at DESC, b.id"
    ))
    .bind(mentor_id)
    .bind(BookingStatus::MADE)
    .fetch_all(db)
    .await?)
}

pub struct MentorStats {
    pub total_sessions: i64,
    /// Bookings scheduled in the current calendar month on the mentor's own clock (their time zone).
    pub this_month: i64,
    /// The totals of completed bookings, in cents.
    pub total_earnings_cents: i64,
}

pub async fn mentor_stats(db: &PgPool, mentor_id: Uuid, now: DateTime<Utc>) -> Result<MentorStats> {
    // The month is the mentor's: a session on the 1st at 01:00 in Tokyo is that month's, although
    // it is the previous month in UTC. PostgreSQL's tz database answers `AT TIME ZONE`.
    let (total_sessions, this_month, total_earnings_cents): (i64, i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE b.status = ANY($3)), \
                count(*) FILTER (WHERE b.status = ANY($3) \
                    AND date_trunc('month', b.scheduled_at AT TIME ZONE z.zone) = date_trunc('month', $2::timestamptz AT TIME ZONE z.zone)), \
                coalesce(sum(b.total_cents) FILTER (WHERE b.status = $4), 0)::bigint \
         FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = m.time_zone) THEN m.time_zone ELSE 'UTC' END AS zone \
               FROM mentors m WHERE m.id = $1) z \
         LEFT JOIN bookings b ON b.mentor_id = $1",
    )
    .bind(mentor_id)
    .bind(now)
    .bind(BookingStatus::GOING_AHEAD)
    .bind(BookingStatus::Completed)
    .fetch_one(db)
    .await?;
    Ok(MentorStats {
        total_sessions,
        this_month,
        total_earnings_cents,
    })
}
