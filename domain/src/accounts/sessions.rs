//! Server-side sessions behind the `sid` cookie; only the token's digest is stored.

use chrono::Duration;
use sqlx::PgExecutor;
use uuid::Uuid;

use super::users::User;
use crate::{Result, tokens};

pub const COOKIE_NAME: &str = "sid";
/// A session lasts 30 days after its last use.
pub const SESSION_TTL: Duration = Duration::days(30);
/// `last_seen_at` is written at most this often, so reads stay reads.
pub const TOUCH_EVERY: Duration = Duration::minutes(5);

/// Starts a session and returns the token for the cookie.
pub async fn create(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<String> {
    let token = tokens::generate();
    sqlx::query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + $3::interval)")
        .bind(tokens::digest(&token))
        .bind(user_id)
        .bind(SESSION_TTL)
        .execute(db)
        .await?;
    Ok(token)
}

/// The active user behind a live session, in one statement that also slides the session's
/// expiry forward when it was last seen more than [`TOUCH_EVERY`] ago.
pub async fn user_for(pool: &sqlx::PgPool, token: &str) -> Result<Option<User>> {
    let user = sqlx::query_as(concat!(
        "WITH live AS (SELECT user_id FROM sessions WHERE token_hash = $1 AND expires_at > now()), ",
        "touched AS (UPDATE sessions SET last_seen_at = now(), expires_at = now() + $2::interval ",
        "WHERE token_hash = $1 AND expires_at > now() AND last_seen_at < now() - $3::interval) ",
        "SELECT ",
        crate::user_columns!(),
        " FROM user_accounts WHERE is_active AND id = (SELECT user_id FROM live)"
    ))
    .bind(tokens::digest(token))
    .bind(SESSION_TTL)
    .bind(TOUCH_EVERY)
    .fetch_optional(pool)
    .await?;
    Ok(user)
}

pub async fn end(db: impl PgExecutor<'_>, token: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(tokens::digest(token))
        .execute(db)
        .await?;
    Ok(())
}

/// Ends every session of a user except, optionally, the one making the request.
pub async fn end_all(db: impl PgExecutor<'_>, user_id: Uuid, keep_token: Option<&str>) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2")
        .bind(user_id)
        .bind(keep_token.map(tokens::digest))
        .execute(db)
        .await?;
    Ok(())
}

pub async fn prune_expired(db: impl PgExecutor<'_>) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
