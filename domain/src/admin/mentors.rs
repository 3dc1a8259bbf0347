//! Mentors as the admin console lists them: profile, status, services and what they earned.

use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

use crate::Result;

#[derive(Clone, Debug, FromRow)]
pub struct AdminMentor {
    pub id: Uuid,
    pub display_name: String,
    pub user_id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// Two decimals.
    pub rating: String,
    pub total_sessions: i32,
    /// The mentor profile is active and so is its user (a deactivated user's profile is hidden).
    pub is_active: bool,
    pub services_count: i64,
    /// Bookings made with the mentor (holds excluded).
    pub total_bookings: i64,
    /// Approved payments for the mentor's bookings less refunds paid back, in cents.
    pub total_revenue_cents: i64,
}

/// Every mentor, newest profile first.
pub async fn list(db: impl PgExecutor<'_>) -> Result<Vec<AdminMentor>> {
    let sql = format!(
        "SELECT m.id, m.display_name, m.user_id, u.first_name, u.last_name, u.email, m.rating::text AS rating, m.total_sessions, \
                (m.is_active AND u.is_active) AS is_active, \
                (SELECT count(*) FROM services s WHERE s.mentor_id = m.id) AS services_count, \
                (SELECT count(*) FROM bookings b WHERE b.mentor_id = m.id AND b.status IN ('pending', 'confirmed', 'completed', 'cancelled')) AS total_bookings, \
                {} AS total_revenue_cents \
         FROM mentors m JOIN users u ON u.id = m.user_id ORDER BY m.created_at DESC, m.id DESC",
        super::revenue_sql("mentor_id = m.id")
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(db).await?)
}
