//! One-click unsubscribe (RFC 8058): every e-mail that a preference governs carries a link that
//! turns that one preference off without signing in. The link's token names the user and the
//! preference and is signed (HMAC-SHA256) with a server secret kept in `signing_keys`; it is not
//! a session and grants nothing else. Tokens travel in the query string, which no log records.
//! A token made now carries its expiry, [`TOKEN_LIFETIME`] ahead, under the signature; tokens of
//! mail sent before expiries existed (`<user>.<preference>.<signature>`) keep working.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::email_preferences::{self, Changes};
use crate::{Error, Result, config::Config};

/// The address of the unsubscribe page and of its one-click `POST` (token in `?token=`).
pub const PATH: &str = "/api/email/unsubscribe";
/// What a tampered, truncated or foreign token gets.
pub const INVALID_LINK: &str = "This unsubscribe link is not valid";
/// The body a mail client sends with the one-click `POST`, and the header announcing it.
pub const ONE_CLICK: &str = "List-Unsubscribe=One-Click";
/// The row of `signing_keys` these links are signed with.
const KEY_NAME: &str = "unsubscribe";
/// Random bytes of a new signing key.
pub const KEY_BYTES: usize = 32;
/// How long a new link works: a year.
pub const TOKEN_LIFETIME: Duration = Duration::days(365);

/// The e-mail preferences a link can turn off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preference {
    BookingConfirmations,
    BookingReminders,
    MarketingEmails,
    ReviewRequests,
}

impl Preference {
    pub const ALL: [Preference; 4] = [
        Preference::BookingConfirmations,
        Preference::BookingReminders,
        Preference::MarketingEmails,
        Preference::ReviewRequests,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preference::BookingConfirmations => "booking_confirmations",
            Preference::BookingReminders => "booking_reminders",
            Preference::MarketingEmails => "marketing_emails",
            Preference::ReviewRequests => "review_requests",
        }
    }

    /// As the e-mail preferences screen names it.
    pub fn label(self) -> &'static str {
        match self {
            Preference::BookingConfirmations => "Booking confirmations",
            Preference::BookingReminders => "Booking reminders",
            Preference::MarketingEmails => "Marketing emails",
            Preference::ReviewRequests => "Review requests",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    fn off(self) -> Changes {
        let mut c = Changes::default();
        match self {
            Preference::BookingConfirmations => c.booking_confirmations = Some(false),
            Preference::BookingReminders => c.booking_reminders = Some(false),
            Preference::MarketingEmails => c.marketing_emails = Some(false),
            Preference::ReviewRequests => c.review_requests = Some(false),
        }
        c
    }
}

/// The signing key, created on first use; two processes racing create one key between them.
pub async fn signing_key(db: &PgPool) -> Result<Vec<u8>> {
    let mut fresh = [0u8; KEY_BYTES];
    rand::rng().fill_bytes(&mut fresh);
    sqlx::query!(
        "INSERT INTO signing_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        KEY_NAME,
        &fresh[..],
    )
    .execute(db)
    .await?;
    stored_key(db).await
}

async fn stored_key(db: impl PgExecutor<'_>) -> Result<Vec<u8>> {
    Ok(
        sqlx::query_scalar!("SELECT secret FROM signing_keys WHERE name = $1", KEY_NAME,)
            .fetch_one(db)
            .await?,
    )
}

/// The signature over the user, the preference and, for tokens that have one, the expiry (Unix
/// seconds); a token without one is of mail sent before expiries existed.
fn mac(key: &[u8], user_id: Uuid, preference: Preference, expires: Option<i64>) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(b"unsubscribe:");
    mac.update(user_id.as_bytes());
    mac.update(b":");
    mac.update(preference.name().as_bytes());
    if let Some(expires) = expires {
        mac.update(b":expires:");
        mac.update(expires.to_string().as_bytes());
    }
    mac
}

/// `<user id>.<preference>.<expires>.<signature>`, working for [`TOKEN_LIFETIME`] from now:
/// URL-safe, readable, and useless for anything else.
pub fn sign(key: &[u8], user_id: Uuid, preference: Preference) -> String {
    sign_until(key, user_id, preference, Utc::now() + TOKEN_LIFETIME)
}

/// A token that works until `expires`.
pub fn sign_until(key: &[u8], user_id: Uuid, preference: Preference, expires: DateTime<Utc>) -> String {
    let expires = expires.timestamp();
    let signature = URL_SAFE_NO_PAD.encode(mac(key, user_id, preference, Some(expires)).finalize().into_bytes());
    format!("{}.{}.{expires}.{signature}", user_id.simple(), preference.name())
}

/// The user and preference a token names, when its signature holds (compared in constant time)
/// and it has not expired at `now`; a token without an expiry (older mail) never expires.
pub fn verify(key: &[u8], token: &str, now: DateTime<Utc>) -> Option<(Uuid, Preference)> {
    let parts: Vec<&str> = token.trim().split('.').collect();
    let (user, preference, expires, signature) = match parts[..] {
        [user, preference, signature] => (user, preference, None, signature),
        [user, preference, expires, signature] => {
            if !expires.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (user, preference, Some(expires.parse::<i64>().ok()?), signature)
        }
        _ => return None,
    };
    let user_id = Uuid::try_parse(user).ok()?;
    let preference = Preference::from_name(preference)?;
    let signature = URL_SAFE_NO_PAD.decode(signature).ok()?;
    mac(key, user_id, preference, expires).verify_slice(&signature).ok()?;
    if expires.is_some_and(|expires| expires <= now.timestamp()) {
        return None;
    }
    Some((user_id, preference))
}

/// The one-click address for a mail to `user_id` that `preference` governs.
pub async fn link(db: &PgPool, config: &Config, user_id: Uuid, preference: Preference) -> Result<String> {
    let key = signing_key(db).await?;
    Ok(config.link(PATH, &[("token", &sign(&key, user_id, preference))]))
}

/// What a valid token names, or 404 [`INVALID_LINK`]; changes nothing (the page a `GET` shows).
pub async fn check(db: &PgPool, token: &str) -> Result<Preference> {
    Ok(named(db, token).await?.1)
}

/// Turns the token's preference off (the one-click `POST`); doing it twice changes nothing more.
pub async fn unsubscribe(db: &PgPool, token: &str) -> Result<Preference> {
    let (user_id, preference) = named(db, token).await?;
    email_preferences::update(db, user_id, preference.off()).await?;
    Ok(preference)
}

/// The existing user and the preference a token names.
async fn named(db: &PgPool, token: &str) -> Result<(Uuid, Preference)> {
    let key = signing_key(db).await?;
    let (user_id, preference) = verify(&key, token, Utc::now()).ok_or_else(|| Error::not_found(INVALID_LINK))?;
    // Compile-checked: the macro counts its parameters against the statement.
    let exists = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM users WHERE id = $1) AS "exists!""#,
        user_id
    )
    .fetch_one(db)
    .await?;
    if !exists {
        return Err(Error::not_found(INVALID_LINK));
    }
    Ok((user_id, preference))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legacy(key: &[u8], user_id: Uuid, preference: Preference) -> String {
        let signature = URL_SAFE_NO_PAD.encode(mac(key, user_id, preference, None).finalize().into_bytes());
        format!("{}.{}.{signature}", user_id.simple(), preference.name())
    }

    #[test]
    fn a_token_names_its_user_and_preference_and_nothing_else_verifies() {
        let (key, other_key) = ([7u8; KEY_BYTES], [8u8; KEY_BYTES]);
        let now = Utc::now();
        let user = Uuid::new_v4();
        for preference in Preference::ALL {
            let token = sign(&key, user, preference);
            assert_eq!(verify(&key, &token, now), Some((user, preference)));
            assert_eq!(verify(&other_key, &token, now), None, "another key");
            assert!(token.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)));
        }
        let token = sign(&key, user, Preference::MarketingEmails);
        let parts: Vec<&str> = token.split('.').collect();
        let (expires, signature) = (parts[2], parts[3]);
        // The same signature under another preference, user or expiry does not hold.
        for forged in [
            format!("{}.review_requests.{expires}.{signature}", user.simple()),
            format!("{}.marketing_emails.{expires}.{signature}", Uuid::new_v4().simple()),
            format!(
                "{}.marketing_emails.{}.{signature}",
                user.simple(),
                expires.parse::<i64>().unwrap() + 1
            ),
            format!("{}.marketing_emails.{signature}", user.simple()),
        ] {
            assert_eq!(verify(&key, &forged, now), None, "{forged}");
        }
        for bad in [
            "",
            "x",
            "a.b.c",
            "a.b.c.d.e",
            &token[..token.len() - 1],
            &format!("{token}x"),
        ] {
            assert_eq!(verify(&key, bad, now), None, "{bad}");
        }
    }

    #[test]
    fn new_tokens_expire_a_year_ahead_and_old_ones_without_an_expiry_keep_working() {
        let key = [7u8; KEY_BYTES];
        let (user, now) = (Uuid::new_v4(), Utc::now());
        let token = sign(&key, user, Preference::BookingReminders);
        let expires: i64 = token.split('.').nth(2).unwrap().parse().unwrap();
        assert!(
            (expires - (now + TOKEN_LIFETIME).timestamp()).abs() <= 5,
            "a year ahead"
        );
        assert!(verify(&key, &token, now + TOKEN_LIFETIME - Duration::minutes(1)).is_some());
        assert_eq!(verify(&key, &token, now + TOKEN_LIFETIME + Duration::minutes(1)), None);
        let old = legacy(&key, user, Preference::BookingReminders);
        assert_eq!(
            verify(&key, &old, now + Duration::days(3650)),
            Some((user, Preference::BookingReminders))
        );
        assert_eq!(TOKEN_LIFETIME, Duration::days(365));
    }
}
