//! Reading users. The role comes from the `user_accounts` view so it is derived in one place.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

use crate::Result;

closed_set! {
    /// What a user is, derived by the `user_accounts` view (`users.is_admin` stays the admin flag;
    /// a mentor profile makes a mentor).
    pub enum Role ("role") {
        User = "user",
        Mentor = "mentor",
        Admin = "admin",
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct User {
    pub id: Uuid,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub bio: Option<String>,
    pub profile_image_url: Option<String>,
    pub is_admin: bool,
    pub role: Role,
    pub is_active: bool,
    pub email_verified: bool,
    pub stripe_subscription_id: Option<String>,
    pub created_at: DateTime<Utc>,
    /// Whether they have a mentor profile (an administrator may have one too; `role` says admin).
    pub is_mentor: bool,
}

/// The columns of [`User`] in `user_accounts`, as a literal for `concat!`.
#[macro_export]
macro_rules! user_columns {
    () => {
        "id, email, first_name, last_name, bio, profile_image_url, is_admin, role, \
         is_active, email_verified, stripe_subscription_id, created_at, \
         EXISTS (SELECT 1 FROM mentors WHERE mentors.user_id = user_accounts.id) AS is_mentor"
    };
}

/// `SELECT <the columns of User> FROM user_accounts <rest>` as a static string.
#[macro_export]
macro_rules! select_users {
    ($rest:literal) => {
        concat!("SELECT ", $crate::user_columns!(), " FROM user_accounts ", $rest)
    };
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<User>> {
    let user = sqlx::query_as(select_users!("WHERE id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(user)
}

pub async fn find_by_email(db: impl PgExecutor<'_>, email: &str) -> Result<Option<User>> {
    let user = sqlx::query_as(select_users!("WHERE lower(email) = lower($1)"))
        .bind(email.trim())
        .fetch_optional(db)
        .await?;
    Ok(user)
}
