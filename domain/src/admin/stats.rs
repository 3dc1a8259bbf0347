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
    let sql = format!(
        "SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM mentors), \
                (SELECT count(*) FROM bookings WHERE status = ANY($1)), {}",
        super::revenue_sql("true")
    );
    let (total_users, total_mentors, total_bookings, total_revenue_cents): (i64, i64, i64, i64) =
        sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(BookingStatus::MADE)
            .fetch_one(db)
            .await?;
    Ok(PlatformStats {
        total_users,
        total_mentors,
        total_bookings,
        total_revenue_cents,
    })
}
