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
    /// Whether they sign in with a second factor (TOTP).
    pub two_factor_enabled: bool,
    /// When the account is to be removed (they asked to delete it); None when not.
    pub deletion_scheduled_at: Option<DateTime<Utc>>,
}

/// `sqlx::query_as!(User, "SELECT <the columns of User> FROM user_accounts " + $rest, args)`: the
/// view's columns are all nullable to PostgreSQL, so each says it is not.
/// `query_users!(with "WITH ... ", "WHERE ...", args)` puts a head before the `SELECT`.
macro_rules! query_users {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        $crate::accounts::users::query_users!(with "", $rest $(, $arg)*)
    };
    (with $head:literal, $rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            crate::accounts::users::User,
            $head + r#"SELECT id AS "id!", email AS "email!", first_name AS "first_name!", last_name AS "last_name!", bio,
                      profile_image_url, is_admin AS "is_admin!", role AS "role!: crate::accounts::users::Role",
                      is_active AS "is_active!", email_verified AS "email_verified!", stripe_subscription_id,
                      created_at AS "created_at!",
                      EXISTS (SELECT 1 FROM mentors WHERE mentors.user_id = user_accounts.id) AS "is_mentor!",
                      EXISTS (SELECT 1 FROM two_factor WHERE two_factor.user_id = user_accounts.id
                              AND two_factor.enabled_at IS NOT NULL) AS "two_factor_enabled!",
                      deletion_scheduled_at
               FROM user_accounts "# + $rest
            $(, $arg)*
        )
    };
}
pub(crate) use query_users;

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<User>> {
    let user = query_users!("WHERE id = $1", id).fetch_optional(db).await?;
    Ok(user)
}

pub async fn find_by_email(db: impl PgExecutor<'_>, email: &str) -> Result<Option<User>> {
    let user = query_users!("WHERE lower(email) = lower($1)", email.trim())
        .fetch_optional(db)
        .await?;
    Ok(user)
}
