//! The browsers a user subscribed (`/api/push/subscriptions`). An endpoint is one row, whoever
//! sends it: the same endpoint again updates it, from another account moves it there. Each row
//! belongs to the session that sent it, so signing out of that browser removes it (the foreign
//! key on `sessions`), and a user keeps at most [`MAX_PER_USER`] (the least recently saved go).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use crate::{
    Error, Result,
    public_address::{self, Policy, Refusal},
    tokens,
};

/// Browsers one user may have subscribed at once.
pub const MAX_PER_USER: i64 = 10;
/// The user agent kept to name a device is cut to this many characters.
pub const MAX_USER_AGENT_CHARS: usize = 512;
pub const BAD_ENDPOINT: &str = "Push endpoint must be an https URL on a public address";
pub const UNRESOLVED_ENDPOINT: &str = "Push endpoint's host name does not resolve";
pub const BAD_KEYS: &str =
    "Subscription keys must be p256dh (a P-256 public key) and auth (16 bytes), base64url-encoded";
pub const NOT_FOUND: &str = "Push subscription not found";

/// What a browser sends (its `PushSubscription` as JSON).
#[derive(Clone, Debug)]
pub struct NewSubscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub user_agent: Option<String>,
}

/// One subscribed browser, as its owner lists it.
#[derive(Clone, Debug)]
pub struct Device {
    pub id: Uuid,
    pub endpoint: String,
    pub user_agent: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Saved by the session asking (this browser).
    pub current: bool,
}

/// Where one push goes: the endpoint and the browser's keys.
#[derive(Clone, Debug)]
pub struct Target {
    pub id: Uuid,
    pub endpoint: String,
    pub p256dh: Vec<u8>,
    pub auth: Vec<u8>,
}

fn decode(raw: &str) -> Option<Vec<u8>> {
    let trimmed = raw.trim().trim_end_matches('=');
    URL_SAFE_NO_PAD.decode(trimmed).ok()
}

/// The browser's keys, checked: a point on P-256 (uncompressed, 65 bytes) and a 16-byte secret.
pub fn keys(p256dh: &str, auth: &str) -> Result<(Vec<u8>, Vec<u8>)> {
    let point =
        decode(p256dh).filter(|p| p.len() == 65 && web_push_native::p256::PublicKey::from_sec1_bytes(p).is_ok());
    let secret = decode(auth).filter(|a| a.len() == 16);
    match (point, secret) {
        (Some(p), Some(a)) => Ok((p, a)),
        _ => Err(Error::validation(BAD_KEYS)),
    }
}

/// The endpoint, checked by the address rule (its host resolved now).
pub async fn endpoint(raw: &str, policy: Policy) -> Result<String> {
    match public_address::check(raw, policy).await {
        // Kept as the browser wrote it: the browser finds its own row by this text.
        Ok(_) => Ok(raw.trim().to_owned()),
        Err(Refusal::Unresolved) => Err(Error::validation(UNRESOLVED_ENDPOINT)),
        Err(_) => Err(Error::validation(BAD_ENDPOINT)),
    }
}

fn user_agent(raw: Option<&str>) -> Option<String> {
    let cleaned: String = raw?
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_USER_AGENT_CHARS)
        .collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.to_owned())
}

/// Saves `new` for `user_id` and the session of `session_token`; the saved row and whether it is
/// new (false: the endpoint was known and is updated, or moved from another account).
pub async fn save(
    pool: &PgPool,
    user_id: Uuid,
    session_token: &str,
    new: NewSubscription,
    policy: Policy,
) -> Result<(Device, bool)> {
    let (p256dh, auth) = keys(&new.p256dh, &new.auth)?;
    let endpoint = endpoint(&new.endpoint, policy).await?;
    let agent = user_agent(new.user_agent.as_deref());
    let mut tx = pool.begin().await?;
    // One user's saves take turns, so two at once cannot both keep an eleventh row.
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtext('push_subscriptions'), hashtext($1::uuid::text))",
        user_id
    )
    .execute(&mut *tx)
    .await?;
    let saved = sqlx::query!(
        r#"INSERT INTO push_subscriptions (user_id, session_token_hash, endpoint, p256dh, auth, user_agent)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (endpoint) DO UPDATE SET
             created_at = CASE WHEN push_subscriptions.user_id = EXCLUDED.user_id THEN push_subscriptions.created_at ELSE now() END,
             user_id = EXCLUDED.user_id, session_token_hash = EXCLUDED.session_token_hash,
             p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, user_agent = EXCLUDED.user_agent, updated_at = now()
           RETURNING id, endpoint, user_agent, created_at, updated_at, (xmax = 0) AS "inserted!""#,
        user_id,
        tokens::digest(session_token),
        endpoint,
        p256dh,
        auth,
        agent,
    )
    .fetch_one(&mut *tx)
    .await?;
    // The least recently saved beyond the limit go (never the one just saved).
    sqlx::query!(
        "DELETE FROM push_subscriptions WHERE id IN ( \
           SELECT id FROM push_subscriptions WHERE user_id = $1 AND id <> $2 \
           ORDER BY updated_at DESC, id DESC OFFSET $3)",
        user_id,
        saved.id,
        MAX_PER_USER - 1,
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((
        Device {
            id: saved.id,
            endpoint: saved.endpoint,
            user_agent: saved.user_agent,
            created_at: saved.created_at,
            updated_at: saved.updated_at,
            current: true,
        },
        saved.inserted,
    ))
}

/// The user's subscribed browsers, most recently saved first.
pub async fn list(db: impl PgExecutor<'_>, user_id: Uuid, session_token: &str) -> Result<Vec<Device>> {
    let rows = sqlx::query!(
        r#"SELECT id, endpoint, user_agent, created_at, updated_at, (session_token_hash = $2) AS "current!"
           FROM push_subscriptions WHERE user_id = $1 ORDER BY updated_at DESC, id DESC"#,
        user_id,
        tokens::digest(session_token),
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Device {
            id: r.id,
            endpoint: r.endpoint,
            user_agent: r.user_agent,
            created_at: r.created_at,
            updated_at: r.updated_at,
            current: r.current,
        })
        .collect())
}

/// Removes one of the user's browsers; anyone else's is not found.
pub async fn delete(db: impl PgExecutor<'_>, user_id: Uuid, id: Uuid) -> Result<()> {
    let done = sqlx::query!(
        "DELETE FROM push_subscriptions WHERE id = $1 AND user_id = $2",
        id,
        user_id
    )
    .execute(db)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::not_found(NOT_FOUND));
    }
    Ok(())
}

/// The endpoint and keys of a subscription, if it still exists.
pub async fn target(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<Target>> {
    Ok(sqlx::query_as!(
        Target,
        "SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE id = $1",
        id
    )
    .fetch_optional(db)
    .await?)
}

/// A push service said the subscription is gone (404, 410), or its address is no longer allowed.
pub async fn forget(db: impl PgExecutor<'_>, id: Uuid) -> Result<bool> {
    Ok(sqlx::query!("DELETE FROM push_subscriptions WHERE id = $1", id)
        .execute(db)
        .await?
        .rows_affected()
        == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_a_curve_point_and_a_16_byte_secret() {
        let point = web_push_native::p256::SecretKey::random(&mut rand_core_compat()).public_key();
        let encoded = {
            use web_push_native::p256::elliptic_curve::sec1::ToEncodedPoint;
            URL_SAFE_NO_PAD.encode(point.to_encoded_point(false).as_bytes())
        };
        let auth = URL_SAFE_NO_PAD.encode([7u8; 16]);
        assert!(keys(&encoded, &auth).is_ok());
        assert!(
            keys(&format!("{encoded}="), &format!("{auth}==")).is_ok(),
            "padding is tolerated"
        );
        assert!(keys(&encoded, &URL_SAFE_NO_PAD.encode([7u8; 15])).is_err());
        assert!(
            keys(&URL_SAFE_NO_PAD.encode([4u8; 65]), &auth).is_err(),
            "not on the curve"
        );
        assert!(keys("not base64!", &auth).is_err());
    }

    fn rand_core_compat() -> web_push_native::p256::elliptic_curve::rand_core::OsRng {
        web_push_native::p256::elliptic_curve::rand_core::OsRng
    }

    #[test]
    fn user_agents_are_one_short_line() {
        assert_eq!(user_agent(Some("  Mozilla/5.0\n x ")).as_deref(), Some("Mozilla/5.0 x"));
        assert_eq!(user_agent(Some("   ")), None);
        assert_eq!(user_agent(Some(&"a".repeat(600))).unwrap().len(), MAX_USER_AGENT_CHARS);
    }

    #[test]
    fn ten_browsers_per_user() {
        assert_eq!(MAX_PER_USER, 10);
    }
}
