//! One-click unsubscribe (RFC 8058): every e-mail that a preference governs carries a link that
//! turns that one preference off without signing in. The link's token names the user and the
//! preference and is signed (HMAC-SHA256) with a server secret kept in `signing_keys`; it is not
//! a session and grants nothing else. Tokens travel in the query string, which no log records.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
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
    sqlx::query("INSERT INTO signing_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(KEY_NAME)
        .bind(&fresh[..])
        .execute(db)
        .await?;
    stored_key(db).await
}

async fn stored_key(db: impl PgExecutor<'_>) -> Result<Vec<u8>> {
    Ok(sqlx::query_scalar("SELECT secret FROM signing_keys WHERE name = $1")
        .bind(KEY_NAME)
        .fetch_one(db)
        .await?)
}

fn mac(key: &[u8], user_id: Uuid, preference: Preference) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(b"unsubscribe:");
    mac.update(user_id.as_bytes());
    mac.update(b":");
    mac.update(preference.name().as_bytes());
    mac
}

/// `<user id>.<preference>.<signature>`: URL-safe, readable, and useless for anything else.
pub fn sign(key: &[u8], user_id: Uuid, preference: Preference) -> String {
    let signature = URL_SAFE_NO_PAD.encode(mac(key, user_id, preference).finalize().into_bytes());
    format!("{}.{}.{signature}", user_id.simple(), preference.name())
}

/// The user and preference a token names, when its signature holds (compared in constant time).
pub fn verify(key: &[u8], token: &str) -> Option<(Uuid, Preference)> {
    let mut parts = token.trim().splitn(3, '.');
    let user_id = Uuid::try_parse(parts.next()?).ok()?;
    let preference = Preference::from_name(parts.next()?)?;
    let signature = URL_SAFE_NO_PAD.decode(parts.next()?).ok()?;
    mac(key, user_id, preference).verify_slice(&signature).ok()?;
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
    let (user_id, preference) = verify(&key, token).ok_or_else(|| Error::not_found(INVALID_LINK))?;
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)")
        .bind(user_id)
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

    #[test]
    fn a_token_names_its_user_and_preference_and_nothing_else_verifies() {
        let (key, other_key) = ([7u8; KEY_BYTES], [8u8; KEY_BYTES]);
        let user = Uuid::new_v4();
        for preference in Preference::ALL {
            let token = sign(&key, user, preference);
            assert_eq!(verify(&key, &token), Some((user, preference)));
            assert_eq!(verify(&other_key, &token), None, "another key");
            assert!(token.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)));
        }
        let token = sign(&key, user, Preference::MarketingEmails);
        // The same signature under another preference or user does not hold.
        let signature = token.rsplit('.').next().unwrap();
        let forged = format!("{}.review_requests.{signature}", user.simple());
        assert_eq!(verify(&key, &forged), None);
        let forged = format!("{}.marketing_emails.{signature}", Uuid::new_v4().simple());
        assert_eq!(verify(&key, &forged), None);
        for bad in ["", "x", "a.b.c", &token[..token.len() - 1], &format!("{token}x")] {
            assert_eq!(verify(&key, bad), None, "{bad}");
        }
    }
}
