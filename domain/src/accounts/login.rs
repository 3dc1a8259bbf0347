//! Signing in, with failed attempts limited per account and client address together and per
//! address, so failures from one address never keep the right password from another: a stranger
//! cannot lock anyone out. Guessing spread over many addresses is slowed, not refused: past the
//! threshold an account's attempts take turns (one at a time in each api process), each waiting
//! [`SLOWDOWN_DELAY`], so parallel guesses cannot multiply the rate, and nothing answers 429.

use std::{
    collections::HashMap,
    sync::{Arc, LazyLock, Mutex, Weak},
    time::Duration,
};

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

/// One account's turn: attempts for the account run one at a time while they hold it. Held from
/// the count to the end of the password check, so the count each attempt sees includes the failure
/// of the attempt before it.
type Turn = tokio::sync::OwnedMutexGuard<()>;

/// Every account's turn lock, while some attempt holds or waits for it (weak, so idle accounts cost
/// nothing; dead entries are swept when the map is touched).
static TURNS: LazyLock<Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>> = LazyLock::new(Default::default);

async fn take_turn(account: &str) -> Turn {
    let lock = {
        let mut turns = TURNS.lock().expect("the turn map is never poisoned");
        turns.retain(|_, lock| lock.strong_count() > 0);
        match turns.get(account).and_then(Weak::upgrade) {
            Some(lock) => lock,
            None => {
                let lock = Arc::new(tokio::sync::Mutex::new(()));
                turns.insert(account.to_string(), Arc::downgrade(&lock));
                lock
            }
        }
    };
    lock.lock_owned().await
}

#[cfg(test)]
static HOLDING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
#[cfg(test)]
static MOST_HOLDING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts the slowed attempts running at once (tests read the most seen).
struct Slowed;

impl Slowed {
    fn enter() -> Self {
        #[cfg(test)]
        {
            use std::sync::atomic::Ordering::SeqCst;
            let now = HOLDING.fetch_add(1, SeqCst) + 1;
            MOST_HOLDING.fetch_max(now, SeqCst);
        }
        Slowed
    }
}

impl Drop for Slowed {
    fn drop(&mut self) {
        #[cfg(test)]
        HOLDING.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

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
    // Every attempt for the account takes its turn before counting: one at a time, so a burst
    // cannot all read a count below the threshold.
    let _turn = take_turn(&account_key).await;
    let account_failures = rate_limit::count(pool, Scope::LoginFailureAccount, &account_key).await?;
    let _slowed = (account_failures >= limits.login_slowdown_after_account_failures).then(Slowed::enter);
    if _slowed.is_some() {
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
            sqlx::query_scalar!("SELECT password_hash FROM users WHERE id = $1", u.id)
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

/// Wrong second factors an account may get in the rate-limit window (15 minutes), from all
/// addresses together, before sign-in codes are refused with 429 whatever they are.
pub const MAX_TWO_FACTOR_FAILURES_PER_ACCOUNT: i64 = 10;

/// Refuses (429) a second factor for an account that had too many wrong ones lately, before the
/// code is even checked.
pub async fn may_try_second_factor(pool: &PgPool, user_id: uuid::Uuid) -> Result<()> {
    let failures = rate_limit::count(pool, Scope::TwoFactorFailureAccount, &user_id.to_string()).await?;
    if failures >= MAX_TWO_FACTOR_FAILURES_PER_ACCOUNT {
        return Err(Error::TooManyRequests(TOO_MANY_ATTEMPTS.into()));
    }
    Ok(())
}

/// A wrong second factor counts as a failed sign-in: against the account's own limit of wrong
/// codes (which a right password does not reset), the address's limit, and the account-wide count
/// that slows guessing down.
pub async fn second_factor_failed(
    pool: &PgPool,
    limits: &Limits,
    user_id: uuid::Uuid,
    email: &str,
    client: &str,
) -> Result<()> {
    let account_key = email.trim().to_lowercase();
    let user_key = user_id.to_string();
    let mut tx = pool.begin().await?;
    rate_limit::take(
        &mut tx,
        &[
            Limit {
                scope: Scope::TwoFactorFailureAccount,
                key: &user_key,
                limit: MAX_TWO_FACTOR_FAILURES_PER_ACCOUNT,
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering::SeqCst;

    use super::*;

    /// Past the threshold, parallel guesses at one account run one at a time and are all answered
    /// (401, never 429), however many arrive together.
    #[sqlx::test(migrator = "crate::db::MIGRATOR")]
    async fn past_the_threshold_one_accounts_attempts_take_turns(pool: PgPool) {
        let limits = Limits {
            login_slowdown_after_account_failures: 2,
            ..crate::Config::from_lookup(|_| None).unwrap().limits
        };
        for i in 0..2 {
            let err = login(&pool, &limits, "ann@example.com", "wrong", &format!("203.0.113.{i}")).await;
            assert!(matches!(err, Err(Error::Unauthorized(_))), "{err:?}");
        }
        let guesses: Vec<_> = (0..4)
            .map(|i| {
                let (pool, limits) = (pool.clone(), limits.clone());
                tokio::spawn(async move {
                    login(&pool, &limits, "ann@example.com", "wrong", &format!("198.51.100.{i}")).await
                })
            })
            .collect();
        for guess in guesses {
            let answer = guess.await.unwrap();
            assert!(matches!(answer, Err(Error::Unauthorized(_))), "{answer:?}");
        }
        assert_eq!(
            MOST_HOLDING.load(SeqCst),
            1,
            "slowed attempts for one account ran one at a time"
        );
        assert_eq!(HOLDING.load(SeqCst), 0);
    }
}
