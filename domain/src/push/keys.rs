//! The VAPID key pair (RFC 8292, P-256) that signs every push: made at random by the first
//! process that needs it and kept in `signing_keys`, so every api and worker signs with the same
//! key and browsers subscribed with its public half keep working across restarts. Deleting the
//! row rotates it (docs/push.md).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use sqlx::PgPool;
use web_push_native::jwt_simple::{
    algorithms::{ECDSAP256KeyPairLike, ECDSAP256PublicKeyLike, ES256KeyPair},
    claims::Claims,
    prelude::Duration,
};

use crate::Result;

/// The row of `signing_keys` holding the private key (its 32-byte scalar).
pub const KEY_NAME: &str = "vapid_p256";
/// How long a VAPID token is good for; RFC 8292 allows at most 24 hours.
pub const TOKEN_VALIDITY_HOURS: u64 = 12;

pub struct VapidKeys {
    pair: ES256KeyPair,
}

impl VapidKeys {
    pub fn from_secret(secret: &[u8]) -> anyhow::Result<Self> {
        Ok(Self {
            pair: ES256KeyPair::from_bytes(secret).map_err(|e| anyhow::anyhow!("the stored VAPID key: {e}"))?,
        })
    }

    /// The public key as browsers take it (`applicationServerKey`): the uncompressed point, base64url.
    pub fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.pair.public_key().public_key().to_bytes_uncompressed())
    }

    /// The `Authorization` header of a push to a push resource of `origin` (`scheme://host[:port]`):
    /// `vapid t=<JWT>, k=<public key>`, the JWT's `aud` the origin, `sub` the contact and `exp`
    /// [`TOKEN_VALIDITY_HOURS`] away.
    pub fn authorization(&self, origin: &str, subject: &str) -> anyhow::Result<String> {
        let claims = Claims::create(Duration::from_hours(TOKEN_VALIDITY_HOURS))
            .with_audience(origin)
            .with_subject(subject);
        let token = self
            .pair
            .sign(claims)
            .map_err(|e| anyhow::anyhow!("signing a VAPID token: {e}"))?;
        Ok(format!("vapid t={token}, k={}", self.public_key()))
    }
}

/// The key pair, made on first use; two processes racing make one between them.
pub async fn load(db: &PgPool) -> Result<VapidKeys> {
    if let Some(secret) = sqlx::query_scalar!("SELECT secret FROM signing_keys WHERE name = $1", KEY_NAME)
        .fetch_optional(db)
        .await?
    {
        return Ok(VapidKeys::from_secret(&secret)?);
    }
    let fresh = ES256KeyPair::generate().to_bytes();
    sqlx::query!(
        "INSERT INTO signing_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        KEY_NAME,
        &fresh[..]
    )
    .execute(db)
    .await?;
    let secret = sqlx::query_scalar!("SELECT secret FROM signing_keys WHERE name = $1", KEY_NAME)
        .fetch_one(db)
        .await?;
    Ok(VapidKeys::from_secret(&secret)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_key_is_an_uncompressed_point_and_tokens_name_the_origin() {
        let keys = VapidKeys::from_secret(&ES256KeyPair::generate().to_bytes()).unwrap();
        let public = URL_SAFE_NO_PAD.decode(keys.public_key()).unwrap();
        assert_eq!((public.len(), public[0]), (65, 4));
        let header = keys
            .authorization("http://127.0.0.1:9000", "mailto:support@example.com")
            .unwrap();
        let token = header.strip_prefix("vapid t=").unwrap().split(',').next().unwrap();
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(token.split('.').nth(1).unwrap()).unwrap()).unwrap();
        assert_eq!(claims["aud"], "http://127.0.0.1:9000");
        assert_eq!(claims["sub"], "mailto:support@example.com");
        let lifetime = claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap();
        assert!(lifetime > 0 && lifetime <= 24 * 3600, "{lifetime}");
        assert!(header.ends_with(&format!(", k={}", keys.public_key())));
    }
}
