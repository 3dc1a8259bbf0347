//! Sliding-window limits kept in Postgres, so every api process counts the same events.
//!
//! Counting and recording are one decision: [`take`] locks each (scope, key) pair for the rest of
//! the transaction, then counts the window and records the event in one statement, so requests
//! racing for the last places cannot all get one.

use chrono::Duration;
use sqlx::{PgConnection, PgExecutor};

use crate::{Error, Result};

/// The answer of every limit on e-mail-sending requests (forgot-password, resend-verification, contact).
pub const TOO_MANY_EMAIL_REQUESTS: &str = "Too many requests. Please try again in 15 minutes.";

/// Every limit counts events of the last 15 minutes, except the per-recipient mail limits.
pub const WINDOW: Duration = Duration::minutes(15);
/// The per-recipient mail limits ([`Scope::ResetMailRecipient`], [`Scope::VerificationMailRecipient`])
/// count the last hour.
pub const RECIPIENT_WINDOW: Duration = Duration::hours(1);

#[derive(Clone, Copy, Debug)]
pub enum Scope {
    /// Failed sign-ins for one account from all addresses (slows guessing down, never refuses).
    LoginFailureAccount,
    /// Failed sign-ins for one account from one address.
    LoginFailureAccountAddress,
    LoginFailureAddress,
    ForgotPasswordAddress,
    ResendVerificationAddress,
    ContactAddress,
    RegistrationAddress,
    /// Wrong second factors (sign-in codes) for one account (keyed by its id), from all addresses;
    /// a right password does not forgive them.
    TwoFactorFailureAccount,
    /// Password-reset mails sent to one account (keyed by its id), whatever address asked.
    ResetMailRecipient,
    /// Verification mails re-sent to one account (keyed by its id), whatever address asked.
    VerificationMailRecipient,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Scope::LoginFailureAccount => "login_failure_account",
            Scope::LoginFailureAccountAddress => "login_failure_account_address",
            Scope::LoginFailureAddress => "login_failure_address",
            Scope::ForgotPasswordAddress => "forgot_password_address",
            Scope::ResendVerificationAddress => "resend_verification_address",
            Scope::ContactAddress => "contact_address",
            Scope::RegistrationAddress => "registration_address",
            Scope::TwoFactorFailureAccount => "two_factor_failure_account",
            Scope::ResetMailRecipient => "reset_mail_recipient",
            Scope::VerificationMailRecipient => "verification_mail_recipient",
        }
    }

    /// The stretch of time this scope's limit counts.
    pub fn window(self) -> Duration {
        match self {
            Scope::ResetMailRecipient | Scope::VerificationMailRecipient => RECIPIENT_WINDOW,
            _ => WINDOW,
        }
    }

    const LONG: [Scope; 2] = [Scope::ResetMailRecipient, Scope::VerificationMailRecipient];
}

/// One limit: at most `limit` events of `scope` for `key` in the window.
#[derive(Clone, Copy, Debug)]
pub struct Limit<'a> {
    pub scope: Scope,
    pub key: &'a str,
    pub limit: i64,
}

pub async fn count(db: impl PgExecutor<'_>, scope: Scope, key: &str) -> Result<i64> {
    let n = sqlx::query_scalar!(
        "SELECT count(*) AS \"count!\" FROM rate_limit_events WHERE scope = $1 AND key = $2 AND created_at > now() - $3::interval",
        scope.as_str(),
        key,
        crate::sql::interval(scope.window()),
    )
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// Records one event for every limit when each of them still has room, or none and refuses
/// with 429. Inside the caller's transaction: the pairs stay locked until it ends, and a
/// rollback takes the events back. Returns the ids of the recorded events.
pub async fn take(tx: &mut PgConnection, limits: &[Limit<'_>], message: &str) -> Result<Vec<i64>> {
    // Always in the callers' fixed order (e.g. account before address), so two requests never wait on each other in a cycle.
    for l in limits {
        sqlx::query!(
            "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))",
            l.scope.as_str(),
            l.key,
        )
        .execute(&mut *tx)
        .await?;
    }
    let scopes: Vec<String> = limits.iter().map(|l| l.scope.as_str().to_string()).collect();
    let keys: Vec<String> = limits.iter().map(|l| l.key.to_string()).collect();
    let caps: Vec<i64> = limits.iter().map(|l| l.limit).collect();
    let windows: Vec<_> = limits.iter().map(|l| crate::sql::interval(l.scope.window())).collect();
    let ids: Vec<i64> = sqlx::query_scalar!(
        "WITH wanted AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::interval[]) \
             AS w (scope, key, cap, window_length)), \
         full_limits AS (SELECT 1 FROM wanted w WHERE (SELECT count(*) FROM rate_limit_events e \
             WHERE e.scope = w.scope AND e.key = w.key AND e.created_at > now() - w.window_length) >= w.cap) \
         INSERT INTO rate_limit_events (scope, key) \
         SELECT scope, key FROM wanted WHERE NOT EXISTS (SELECT 1 FROM full_limits) RETURNING id",
        &scopes,
        &keys,
        &caps,
        &windows,
    )
    .fetch_all(&mut *tx)
    .await?;
    if ids.len() < limits.len() {
        return Err(Error::TooManyRequests(message.into()));
    }
    Ok(ids)
}

/// Counts this request against one limit in its own transaction, refusing it when the limit is reached.
pub async fn hit(pool: &sqlx::PgPool, scope: Scope, key: &str, limit: i64, message: &str) -> Result<()> {
    let mut tx = pool.begin().await?;
    take(&mut tx, &[Limit { scope, key, limit }], message).await?;
    tx.commit().await?;
    Ok(())
}

/// Counts one event against a limit whose refusal nobody sees (e.g. mails to one recipient, where
/// a 429 would tell whether the account exists): `false` when the limit is reached and nothing was
/// recorded, so the caller answers as usual and skips the work.
pub async fn allow(pool: &sqlx::PgPool, scope: Scope, key: &str, limit: i64) -> Result<bool> {
    let mut tx = pool.begin().await?;
    match take(&mut tx, &[Limit { scope, key, limit }], "").await {
        Ok(_) => {
            tx.commit().await?;
            Ok(true)
        }
        Err(Error::TooManyRequests(_)) => Ok(false),
        Err(err) => Err(err),
    }
}

/// Takes back events recorded by [`take`] (e.g. a reserved failure that turned out a success).
pub async fn forget(db: impl PgExecutor<'_>, ids: &[i64]) -> Result<()> {
    sqlx::query!("DELETE FROM rate_limit_events WHERE id = ANY($1)", ids,)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn clear(db: impl PgExecutor<'_>, scope: Scope, key: &str) -> Result<()> {
    sqlx::query!(
        "DELETE FROM rate_limit_events WHERE scope = $1 AND key = $2",
        scope.as_str(),
        key,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Deletes events older than their scope's window.
pub async fn prune(db: impl PgExecutor<'_>) -> Result<u64> {
    let long: Vec<String> = Scope::LONG.iter().map(|s| s.as_str().to_string()).collect();
    let done = sqlx::query!(
        "DELETE FROM rate_limit_events WHERE (created_at < now() - $1::interval AND scope <> ALL($2)) \
         OR created_at < now() - $3::interval",
        crate::sql::interval(WINDOW),
        &long,
        crate::sql::interval(RECIPIENT_WINDOW),
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn take_one(pool: &sqlx::PgPool, key: &str, limit: i64) -> Result<Vec<i64>> {
        let mut tx = pool.begin().await?;
        let ids = take(
            &mut tx,
            &[Limit {
                scope: Scope::ContactAddress,
                key,
                limit,
            }],
            "slow down",
        )
        .await?;
        tx.commit().await?;
        Ok(ids)
    }

    #[sqlx::test(migrator = "crate::db::MIGRATOR")]
    async fn parallel_requests_get_exactly_the_limit(pool: sqlx::PgPool) {
        let tasks: Vec<_> = (0..20)
            .map(|_| {
                tokio::spawn({
                    let pool = pool.clone();
                    async move { take_one(&pool, "10.0.0.1", 5).await.is_ok() }
                })
            })
            .collect();
        let mut passed = 0;
        for t in tasks {
            passed += t.await.unwrap() as usize;
        }
        assert_eq!(passed, 5);
        assert_eq!(count(&pool, Scope::ContactAddress, "10.0.0.1").await.unwrap(), 5);
    }

    #[sqlx::test(migrator = "crate::db::MIGRATOR")]
    async fn all_limits_or_none_and_a_rollback_takes_the_event_back(pool: sqlx::PgPool) {
        let both = |limit_b| {
            [
                Limit {
                    scope: Scope::LoginFailureAccount,
                    key: "a",
                    limit: 5,
                },
                Limit {
                    scope: Scope::LoginFailureAddress,
                    key: "b",
                    limit: limit_b,
                },
            ]
        };
        let mut tx = pool.begin().await.unwrap();
        assert_eq!(take(&mut tx, &both(1), "x").await.unwrap().len(), 2);
        tx.commit().await.unwrap();
        let mut tx = pool.begin().await.unwrap();
        let err = take(&mut tx, &both(1), "full").await.unwrap_err();
        assert_eq!(err.to_string(), "full");
        drop(tx);
        assert_eq!(
            count(&pool, Scope::LoginFailureAccount, "a").await.unwrap(),
            1,
            "the account gets nothing when the address is full"
        );

        let mut tx = pool.begin().await.unwrap();
        take(&mut tx, &both(10), "x").await.unwrap();
        tx.rollback().await.unwrap();
        assert_eq!(count(&pool, Scope::LoginFailureAccount, "a").await.unwrap(), 1);
    }
}
