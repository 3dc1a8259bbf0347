//! Signing in, with failed attempts limited per account and client address together and per
//! address, so failures from one address never keep the right password from another: a stranger
//! cannot lock anyone out. Guessing spread over many addresses is slowed, not refused.

use std::time::Duration;

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

/// How long every attempt for an account waits, right or wrong, once the account has had more failures
/// from all addresses together than `Limits::login_slowdown_after_account_failures` in the window.
pub const SLOWDOWN_DELAY: Duration = Duration::from_secs(2);

/// The key of the account-and-address limit: the same account from another address counts apart.
fn pair_key(account: &str, client: &str) -> String {
    format!("{account}\n{client}")
}

/// Checks the credentials; the caller starts the session.
pub async fn login(pool: &PgPool, limits: &Limits, email: &str, password: &str, client: &str) -> Result<User> {
    let account_key = email.trim().to_lowercase();
    if email.trim().is_empty() || password.is_empty() {
        return Err(Error::validation("Email and password are required"));
    }
    let pair = pair_key(&account_key, client);
    let account_failures = rate_limit::count(pool, Scope::LoginFailureAccount, &account_key).await?;
    if account_failures >= limits.login_slowdown_after_account_failures {
        tokio::time::sleep(SLOWDOWN_DELAY).await;
    }
    // The failure is recorded before the slow password check, so parallel guesses cannot all pass
    // the limit; a matching password takes it back. The account-wide count has no cap: it only slows.
    let mut tx = pool.begin().await?;
    let reserved = rate_limit::take(
        &mut tx,
        &[
            Limit {
                scope: Scope::LoginFailureAccountAddress,
                key: &pair,
                limit: limits.login_failures_per_account,
            },
            Limit {
                scope: Scope::LoginFailureAddress,
                key: client,
                limit: limits.login_failures_per_address,
            },
            Limit {
                scope: Scope::LoginFailureAccount,
                key: &account_key,
                limit: i64::MAX,
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
        return Err(Error::AccountDeactivated(ACCOUNT_DEACTIVATED.into()));
    }
    if !user.email_verified {
        return Err(Error::EmailNotVerified(EMAIL_NOT_VERIFIED.into()));
    }
    // Only this address's failures are forgiven: a success must not reset the slowdown that guessing
    // from elsewhere earned.
    rate_limit::clear(pool, Scope::LoginFailureAccountAddress, &pair).await?;
    Ok(user)
}
