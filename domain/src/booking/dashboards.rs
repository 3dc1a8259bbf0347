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
    Ok(super::bookings::query_bookings!(
        "WHERE b.user_id = $1 AND b.status = ANY($2) ORDER BY b.scheduled_at DESC, b.id",
        user_id,
        BookingStatus::MADE as &[BookingStatus],
    )
    .fetch_all(db)
    .await?)
}

pub async fn client_stats(db: &PgPool, user_id: Uuid, now: DateTime<Utc>) -> Result<ClientStats> {
    let row = sqlx::query!(
        r#"SELECT count(*) FILTER (WHERE b.status = ANY($3)) AS "total_sessions!",
                  count(*) FILTER (WHERE b.status = ANY($4) AND b.ends_at > $2) AS "upcoming_sessions!",
                  (coalesce((SELECT sum(p.amount_cents) FROM payments p WHERE p.user_id = $1 AND p.status = $5), 0)
                   - coalesce((SELECT sum(r.amount_cents) FROM refunds r JOIN bookings rb ON rb.id = r.booking_id
                               WHERE rb.user_id = $1 AND r.status = ANY($6)), 0))::bigint AS "total_spent_cents!"
           FROM bookings b WHERE b.user_id = $1"#,
        user_id,
        now,
        BookingStatus::GOING_AHEAD as &[BookingStatus],
        BookingStatus::LIVE as &[BookingStatus],
        PaymentStatus::Approved as PaymentStatus,
        // A refund on its way counts as given back.
        &[RefundStatus::Pending, RefundStatus::Succeeded] as &[RefundStatus],
    )
    .fetch_one(db)
    .await?;
    let (total_sessions, upcoming_sessions, total_spent_cents) =
        (row.total_sessions, row.upcoming_sessions, row.total_spent_cents);
    Ok(ClientStats {
        total_sessions,
        upcoming_sessions,
        total_spent_cents,
    })
}

/// A mentor's bookings (holds excluded), newest start first.
pub async fn mentor_bookings(db: &PgPool, mentor_id: Uuid) -> Result<Vec<Booking>> {
    Ok(super::bookings::query_bookings!(
        "WHERE b.mentor_id = $1 AND b.status = ANY($2) ORDER BY b.scheduled_at DESC, b.id",
        mentor_id,
        BookingStatus::MADE as &[BookingStatus],
    )
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
    let row = sqlx::query!(
        r#"SELECT count(*) FILTER (WHERE b.status = ANY($3)) AS "total_sessions!",
                  count(*) FILTER (WHERE b.status = ANY($3)
                      AND date_trunc('month', b.scheduled_at AT TIME ZONE z.zone) = date_trunc('month', $2::timestamptz AT TIME ZONE z.zone)) AS "this_month!",
                  coalesce(sum(b.total_cents) FILTER (WHERE b.status = $4), 0)::bigint AS "total_earnings_cents!"
           FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = m.time_zone) THEN m.time_zone ELSE 'UTC' END AS zone
                 FROM mentors m WHERE m.id = $1) z
           LEFT JOIN bookings b ON b.mentor_id = $1"#,
        mentor_id,
        now,
        BookingStatus::GOING_AHEAD as &[BookingStatus],
        BookingStatus::Completed as BookingStatus,
    )
    .fetch_one(db)
    .await?;
    let (total_sessions, this_month, total_earnings_cents) =
        (row.total_sessions, row.this_month, row.total_earnings_cents);
    Ok(MentorStats {
        total_sessions,
        this_month,
        total_earnings_cents,
    })
}
