//! Signing in, with failed attempts limited per account and per client address.

use sqlx::PgPool;

use super::{passwords, users::User, users::find_by_email};
use crate::{
    Error, Result,
    config::Limits,
    rate_limit::{self, Limit, Scope},
};

pub const INVALID_CREDENTIALS: &str = "Invalid email or password";
pub const EMAIL_NOT_VERIFIED: &str =
    "Please verify your email address before signing in. Check your inbox for the verification link.";
pub const ACCOUNT_DEACTIVATED: &str = "Your account has been deactivated. Please contact support.";
pub const TOO_MANY_ATTEMPTS: &str = "Too many failed login attempts. Please try again in 15 minutes.";

/// Checks the credentials; the caller starts the session.
pub async fn login(pool: &PgPool, limits: &Limits, email: &str, password: &str, client: &str) -> Result<User> {
    let account_key = email.trim().to_lowercase();
    if email.trim().is_empty() || password.is_empty() {
        return Err(Error::validation("Email and password are required"));
    }
    // The failure is recorded before the slow password check, so parallel guesses cannot all pass
    // the limit; a matching password takes it back.
    let mut tx = pool.begin().await?;
    let reserved = rate_limit::take(
        &mut tx,
        &[
            Limit {
                scope: Scope::LoginFailureAccount,
                key: &account_key,
                limit: limits.login_failures_per_account,
            },
            Limit {
                scope: Scope::LoginFailureAddress,
                key: client,
                limit: limits.login_failures_per_address,
            },
        ],
        TOO_MANY_ATTEMPTS,
    )
    .await?;
    tx.commit().await?;

    let user = find_by_email(pool, email).await?;
    let stored: Option<String> = match &user {
        Some(u) => {
            sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
                .bind(u.id)
                .fetch_optional(pool)
                .await?
        }
        None => None,
    };
    let matches = match &stored {
        Some(hash) => passwords::verify(password, hash).await?,
        None => {
            // Same cost as a real check, so unknown addresses do not answer faster.
            passwords::verify(password, passwords::dummy_hash().await).await?;
            false
        }
    };
    let user = match (user, matches) {
        (Some(user), true) => user,
        _ => return Err(Error::unauthorized(INVALID_CREDENTIALS)),
    };
    rate_limit::forget(pool, &reserved).await?;
    if !user.is_active {
        return Err(Error::forbidden(ACCOUNT_DEACTIVATED));
    }
    if !user.email_verified {
        return Err(Error::forbidden(EMAIL_NOT_VERIFIED));
    }
    rate_limit::clear(pool, Scope::LoginFailureAccount, &account_key).await?;
    Ok(user)
}
