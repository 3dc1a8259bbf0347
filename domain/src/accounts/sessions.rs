//! Server-side sessions behind the `sid` cookie; only the token's digest is stored.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::users::User;
use crate::{Result, tokens};

pub const COOKIE_NAME: &str = "sid";
/// A session lasts 30 days after its last use.
pub const SESSION_TTL: Duration = Duration::days(30);
/// `last_seen_at` is written at most this often, so reads stay reads.
pub const TOUCH_EVERY: Duration = Duration::minutes(5);

/// A sign-in from a browser and address this account has not used for this long is told to its owner.
pub const NEW_DEVICE_AFTER: Duration = Duration::days(90);
/// The longest `User-Agent` kept (longer ones are cut).
pub const MAX_USER_AGENT_CHARS: usize = 512;
/// The longest client address kept.
pub const MAX_ADDRESS_CHARS: usize = 100;
/// Session not found for this user (another user's id answers the same).
pub const SESSION_NOT_FOUND: &str = "Session not found";

/// Where a session was started from: the browser's `User-Agent` and the client's address.
#[derive(Clone, Debug, Default)]
pub struct Device {
    pub user_agent: String,
    pub address: String,
}

impl Device {
    pub fn new(user_agent: &str, address: &str) -> Self {
        Device {
            user_agent: user_agent.trim().chars().take(MAX_USER_AGENT_CHARS).collect(),
            address: address.trim().chars().take(MAX_ADDRESS_CHARS).collect(),
        }
    }
}

/// Starts a session (a sign-in) and returns the token for the cookie. The user's sign-in before
/// this one is kept with the session ([`previous_sign_in`]), and this one becomes their last.
pub async fn create(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<String> {
    create_on(db, user_id, &Device::default()).await
}

/// Starts a session from `device` and returns the token for the cookie.
pub async fn create_on(db: impl PgExecutor<'_>, user_id: Uuid, device: &Device) -> Result<String> {
    let token = tokens::generate();
    // Both parts of the statement see the row as it was: the session keeps the old value.
    sqlx::query!(
        "WITH signed_in AS (UPDATE users SET last_sign_in_at = now() WHERE id = $2) \
         INSERT INTO sessions (token_hash, user_id, expires_at, previous_sign_in_at, user_agent, address) \
         SELECT $1, $2, now() + $3::interval, (SELECT last_sign_in_at FROM users WHERE id = $2), \
                NULLIF($4, ''), NULLIF($5, '')",
        tokens::digest(&token),
        user_id,
        crate::sql::interval(SESSION_TTL),
        &device.user_agent,
        &device.address,
    )
    .execute(db)
    .await?;
    Ok(token)
}

/// A new session from a sign-in: the token for the cookie, and whether the browser and address are
/// new for this account (not used for [`NEW_DEVICE_AFTER`]; an account's very first sign-in is not).
pub struct SignedIn {
    pub token: String,
    pub new_device: bool,
}

/// Starts the session of a completed sign-in and records the device it came from.
pub async fn sign_in(pool: &PgPool, user_id: Uuid, device: &Device) -> Result<SignedIn> {
    let mut tx = pool.begin().await?;
    // Serialises one account's sign-ins, so two at once cannot both miss the other's device.
    sqlx::query!("SELECT id FROM users WHERE id = $1 FOR UPDATE", user_id,)
        .fetch_optional(&mut *tx)
        .await?;
    let seen = sqlx::query!(
        r#"SELECT EXISTS (SELECT 1 FROM sign_in_devices WHERE user_id = $1) AS "any_before!",
                  EXISTS (SELECT 1 FROM sign_in_devices WHERE user_id = $1 AND user_agent = $2 AND address = $3
                          AND last_signed_in > now() - $4::interval) AS "seen_recently!""#,
        user_id,
        &device.user_agent,
        &device.address,
        crate::sql::interval(NEW_DEVICE_AFTER),
    )
    .fetch_one(&mut *tx)
    .await?;
    let (any_before, seen_recently) = (seen.any_before, seen.seen_recently);
    sqlx::query!(
        "INSERT INTO sign_in_devices (user_id, user_agent, address) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id, user_agent, address) DO UPDATE SET last_signed_in = now()",
        user_id,
        &device.user_agent,
        &device.address,
    )
    .execute(&mut *tx)
    .await?;
    let token = create_on(&mut *tx, user_id, device).await?;
    tx.commit().await?;
    Ok(SignedIn {
        token,
        new_device: any_before && !seen_recently,
    })
}

/// One of a user's live sessions, as the session list shows it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SessionInfo {
    pub id: Uuid,
    pub current: bool,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub user_agent: Option<String>,
    pub address: Option<String>,
}

/// A user's live sessions, the one making the request first, then the most recently used.
pub async fn list(db: impl PgExecutor<'_>, user_id: Uuid, current_token: &str) -> Result<Vec<SessionInfo>> {
    let rows = sqlx::query_as!(
        SessionInfo,
        "SELECT id, token_hash = $2 AS \"current!\", created_at, last_seen_at, user_agent, address \
         FROM sessions WHERE user_id = $1 AND expires_at > now() \
         ORDER BY token_hash = $2 DESC, last_seen_at DESC, created_at DESC, id",
        user_id,
        tokens::digest(current_token),
    )
    .fetch_all(db)
    .await?;
    Ok(rows)
}

/// Ends one of the user's sessions by its id (its sockets close through the `sessions_ended`
/// trigger); another user's id, or an unknown one, is not found.
pub async fn end_by_id(db: impl PgExecutor<'_>, user_id: Uuid, id: Uuid) -> Result<()> {
    let done = sqlx::query!("DELETE FROM sessions WHERE id = $1 AND user_id = $2", id, user_id,)
        .execute(db)
        .await?;
    if done.rows_affected() == 0 {
        return Err(crate::Error::not_found(SESSION_NOT_FOUND));
    }
    Ok(())
}

/// When the user of this session had signed in before it began; None for their first sign-in
/// (the web greets 'Welcome' then, 'Welcome back' after).
pub async fn previous_sign_in(db: impl PgExecutor<'_>, token: &str) -> Result<Option<DateTime<Utc>>> {
    let at: Option<Option<DateTime<Utc>>> = sqlx::query_scalar!(
        "SELECT previous_sign_in_at FROM sessions WHERE token_hash = $1",
        tokens::digest(token),
    )
    .fetch_optional(db)
    .await?;
    Ok(at.flatten())
}

/// The active user behind a live session, in one statement that also slides the session's
/// expiry forward when it was last seen more than [`TOUCH_EVERY`] ago.
pub async fn user_for(pool: &sqlx::PgPool, token: &str) -> Result<Option<User>> {
    let user = crate::accounts::users::query_users!(
        with "WITH live AS (SELECT user_id FROM sessions WHERE token_hash = $1 AND expires_at > now()), \
              touched AS (UPDATE sessions SET last_seen_at = now(), expires_at = now() + $2::interval \
              WHERE token_hash = $1 AND expires_at > now() AND last_seen_at < now() - $3::interval) ",
        "WHERE is_active AND id = (SELECT user_id FROM live)",
        tokens::digest(token),
        crate::sql::interval(SESSION_TTL),
        crate::sql::interval(TOUCH_EVERY),
    )
    .fetch_optional(pool)
    .await?;
    Ok(user)
}

pub async fn end(db: impl PgExecutor<'_>, token: &str) -> Result<()> {
    sqlx::query!("DELETE FROM sessions WHERE token_hash = $1", tokens::digest(token),)
        .execute(db)
        .await?;
    Ok(())
}

/// Ends every session of a user except, optionally, the one making the request.
pub async fn end_all(db: impl PgExecutor<'_>, user_id: Uuid, keep_token: Option<&str>) -> Result<()> {
    sqlx::query!(
        "DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2",
        user_id,
        keep_token.map(tokens::digest),
    )
    .execute(db)
    .await?;
    Ok(())
}

pub async fn prune_expired(db: impl PgExecutor<'_>) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM sessions WHERE expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
