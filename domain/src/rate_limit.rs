//! Sliding-window limits kept in Postgres, so every api process counts the same events.

use chrono::Duration;
use sqlx::PgExecutor;

use crate::{Error, Result};

/// Every limit counts events of the last 15 minutes.
pub const WINDOW: Duration = Duration::minutes(15);

#[derive(Clone, Copy, Debug)]
pub enum Scope {
    LoginFailureAccount,
    LoginFailureAddress,
    ForgotPasswordAddress,
    ResendVerificationAddress,
    ContactAddress,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Scope::LoginFailureAccount => "login_failure_account",
            Scope::LoginFailureAddress => "login_failure_address",
            Scope::ForgotPasswordAddress => "forgot_password_address",
            Scope::ResendVerificationAddress => "resend_verification_address",
            Scope::ContactAddress => "contact_address",
        }
    }
}

pub async fn count(db: impl PgExecutor<'_>, scope: Scope, key: &str) -> Result<i64> {
    let n = sqlx::query_scalar(
        "SELECT count(*) FROM rate_limit_events WHERE scope = $1 AND key = $2 AND created_at > now() - $3::interval",
    )
    .bind(scope.as_str())
    .bind(key)
    .bind(WINDOW)
    .fetch_one(db)
    .await?;
    Ok(n)
}

pub async fn record(db: impl PgExecutor<'_>, scope: Scope, key: &str) -> Result<()> {
    sqlx::query("INSERT INTO rate_limit_events (scope, key) VALUES ($1, $2)")
        .bind(scope.as_str())
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn clear(db: impl PgExecutor<'_>, scope: Scope, key: &str) -> Result<()> {
    sqlx::query("DELETE FROM rate_limit_events WHERE scope = $1 AND key = $2")
        .bind(scope.as_str())
        .bind(key)
        .execute(db)
        .await?;
    Ok(())
}

/// Refuses with 429 once `limit` events are already counted in the window.
pub async fn check(db: impl PgExecutor<'_>, scope: Scope, key: &str, limit: i64, message: &str) -> Result<()> {
    if count(db, scope, key).await? >= limit {
        return Err(Error::TooManyRequests(message.into()));
    }
    Ok(())
}

/// Counts this request and refuses it when it goes over `limit`.
pub async fn hit(pool: &sqlx::PgPool, scope: Scope, key: &str, limit: i64, message: &str) -> Result<()> {
    check(pool, scope, key, limit, message).await?;
    record(pool, scope, key).await
}

/// Deletes events older than the window.
pub async fn prune(db: impl PgExecutor<'_>) -> Result<u64> {
    let done = sqlx::query("DELETE FROM rate_limit_events WHERE created_at < now() - $1::interval")
        .bind(WINDOW)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
