//! Mentors as the admin console lists them: profile, status, services and what they earned.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

use crate::{Result, catalogue::mentors::ApprovalStatus};

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
    /// Decided in `catalogue::vetting`.
    pub approval_status: ApprovalStatus,
    pub rejection_reason: Option<String>,
    /// When the profile was created or last resubmitted.
    pub submitted_at: DateTime<Utc>,
    /// When an administrator last approved or rejected it.
    pub reviewed_at: Option<DateTime<Utc>>,
    pub services_count: i64,
    /// Bookings made with the mentor (holds excluded).
    pub total_bookings: i64,
    /// Approved payments for the mentor's bookings less refunds paid back, in cents.
    pub total_revenue_cents: i64,
    /// No-shows settled against the mentor: resolved no-show complaints and group sessions they never joined.
    pub no_show_count: i64,
}

/// `SELECT <AdminMentor columns> FROM mentors m JOIN users u ... <rest>`, as an [`AdminMentor`] query.
macro_rules! select_mentors {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        admin_sql!(
            (as AdminMentor)[
                r#"SELECT m.id, m.display_name, m.user_id, u.first_name, u.last_name, u.email, m.rating::text AS "rating!",
                    m.total_sessions, (m.is_active AND u.is_active) AS "is_active!",
                    m.approval_status AS "approval_status: ApprovalStatus", m.rejection_reason, m.submitted_at, m.reviewed_at,
                    (SELECT count(*) FROM services s WHERE s.mentor_id = m.id) AS "services_count!",
                    (SELECT count(*) FROM bookings b WHERE b.mentor_id = m.id AND b.status IN ("# + MADE + r#")) AS "total_bookings!", "#
                    + REVENUE("mentor_id = m.id")
                    + r#" AS "total_revenue_cents!",
                    ((SELECT count(*) FROM complaints c WHERE c.mentor_id = m.id AND c.reason IN ('mentor_no_show') AND c.status IN ('resolved'))
                     + (SELECT count(*) FROM group_sessions g WHERE g.mentor_id = m.id AND g.mentor_no_show_at IS NOT NULL)) AS "no_show_count!"
                FROM mentors m JOIN users u ON u.id = m.user_id "#
                    + $rest
            ]
            $(, $arg)*
        )
    };
}

/// Every mentor (or those of one approval status), newest profile first.
pub async fn list(db: impl PgExecutor<'_>, approval_status: Option<ApprovalStatus>) -> Result<Vec<AdminMentor>> {
    Ok(select_mentors!(
        "WHERE ($1::text IS NULL OR m.approval_status = $1) ORDER BY m.created_at DESC, m.id DESC",
        approval_status as Option<ApprovalStatus>,
    )
    .fetch_all(db)
    .await?)
}

/// One mentor, as the list shows it.
pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<AdminMentor>> {
    Ok(select_mentors!("WHERE m.id = $1", id).fetch_optional(db).await?)
}
