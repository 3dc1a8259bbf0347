//! The four figures at the top of the admin dashboard.

use sqlx::PgExecutor;

use crate::{Result, booking::BookingStatus};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlatformStats {
    pub total_users: i64,
    pub total_mentors: i64,
    /// Bookings made (pending, confirmed, completed, cancelled): holds are not bookings.
    pub total_bookings: i64,
    /// Approved payments less refunds actually paid back, in cents.
    pub total_revenue_cents: i64,
}

pub async fn platform(db: impl PgExecutor<'_>) -> Result<PlatformStats> {
    let figures = admin_sql!(
        query[
            r#"SELECT (SELECT count(*) FROM users) AS "total_users!", (SELECT count(*) FROM mentors) AS "total_mentors!",
                (SELECT count(*) FROM bookings WHERE status = ANY($1)) AS "total_bookings!", "#
                + REVENUE("true") + r#" AS "total_revenue_cents!""#
        ],
        BookingStatus::MADE as &[BookingStatus],
    )
    .fetch_one(db)
    .await?;
    Ok(PlatformStats {
        total_users: figures.total_users,
        total_mentors: figures.total_mentors,
        total_bookings: figures.total_bookings,
        total_revenue_cents: figures.total_revenue_cents,
    })
}
