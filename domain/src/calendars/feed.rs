//! Every user's private calendar feed (issue 33 §4): `GET /api/calendar/{token}.ics`, an iCalendar
//! file of their sessions from [`PAST_DAYS`] ago to [`FUTURE_DAYS`] ahead that any calendar app can
//! subscribe to. The address is the only access control: its token is an HMAC of 32 random bytes
//! (the row's nonce) with a server key, kept only as a digest; rotating draws new bytes, and the
//! old address answers 404.
//!
//! A seeker's feed has their bookings and group seats, named by the mentor; a mentor's has their
//! one-to-one bookings named by the seeker, and their group sessions once each. Each event carries
//! the UID the e-mail invitations use (`booking-{id}@mystic-mentors`), so an app that imported an
//! invitation sees one event. A cancelled session stays as STATUS:CANCELLED for
//! [`CANCELLED_SHOWN_DAYS`] after its cancellation. No message content is ever included.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use crate::{
    Config, Error, Result,
    booking::BookingStatus,
    mail::{
        PRODUCT_NAME,
        calendar::{fold, stamp, text},
    },
    statuses::GroupStatus,
    tokens,
};

/// Sessions this many days back are in the feed.
pub const PAST_DAYS: i64 = 30;
/// And this many days ahead.
pub const FUTURE_DAYS: i64 = 180;
/// A cancelled session stays in the feed (as cancelled) this long after its cancellation.
pub const CANCELLED_SHOWN_DAYS: i64 = 30;
pub const NOT_FOUND: &str = "Calendar feed not found";
/// The path of a feed, before `{token}.ics`.
pub const PATH_PREFIX: &str = "/api/calendar/";
pub const SUFFIX: &str = ".ics";
/// The row of `signing_keys` feed tokens are made with.
const KEY_NAME: &str = "calendar_feed";
const NONCE_BYTES: usize = 32;

/// The UID of a group session's event in its mentor's calendars.
pub fn group_session_uid(id: Uuid) -> String {
    format!("group-session-{id}@mystic-mentors")
}

async fn signing_key(db: &PgPool) -> Result<Vec<u8>> {
    let mut fresh = [0u8; 32];
    rand::rng().fill_bytes(&mut fresh);
    sqlx::query!(
        "INSERT INTO signing_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        KEY_NAME,
        &fresh[..],
    )
    .execute(db)
    .await?;
    Ok(
        sqlx::query_scalar!("SELECT secret FROM signing_keys WHERE name = $1", KEY_NAME,)
            .fetch_one(db)
            .await?,
    )
}

/// The token of a nonce: 43 URL-safe characters.
pub fn token(key: &[u8], nonce: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(b"calendar-feed:");
    mac.update(nonce);
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

fn address(config: &Config, token: &str) -> String {
    config.link(&format!("{PATH_PREFIX}{token}{SUFFIX}"), &[])
}

/// The user's feed address, made on first request.
pub async fn url(db: &PgPool, config: &Config, user_id: Uuid) -> Result<String> {
    let key = signing_key(db).await?;
    let existing: Option<Vec<u8>> =
        sqlx::query_scalar!("SELECT nonce FROM calendar_feeds WHERE user_id = $1", user_id,)
            .fetch_optional(db)
            .await?;
    let nonce = match existing {
        Some(nonce) => nonce,
        None => {
            let nonce = fresh_nonce();
            // Two first requests at once: one row wins, both answer with it.
            sqlx::query!(
                "INSERT INTO calendar_feeds (user_id, nonce, token_digest) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id) DO NOTHING",
                user_id,
                &nonce,
                tokens::digest(&token(&key, &nonce)),
            )
            .execute(db)
            .await?;
            sqlx::query_scalar!("SELECT nonce FROM calendar_feeds WHERE user_id = $1", user_id,)
                .fetch_one(db)
                .await?
        }
    };
    Ok(address(config, &token(&key, &nonce)))
}

fn fresh_nonce() -> Vec<u8> {
    let mut nonce = vec![0u8; NONCE_BYTES];
    rand::rng().fill_bytes(&mut nonce);
    nonce
}

/// A new address for the user's feed; the old one answers 404 from now on.
pub async fn rotate(db: &PgPool, config: &Config, user_id: Uuid) -> Result<String> {
    let key = signing_key(db).await?;
    let nonce = fresh_nonce();
    let token = token(&key, &nonce);
    sqlx::query!(
        "INSERT INTO calendar_feeds (user_id, nonce, token_digest) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id) DO UPDATE SET nonce = EXCLUDED.nonce, token_digest = EXCLUDED.token_digest, created_at = now()",
        user_id,
        &nonce,
        tokens::digest(&token),
    )
    .execute(db)
    .await?;
    Ok(address(config, &token))
}

/// One session in a feed.
#[derive(Debug, FromRow)]
pub struct FeedEvent {
    pub uid: String,
    pub scheduled_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub summary: String,
    pub cancelled: bool,
    pub sequence: i32,
}

/// The feed named by `file` (`{token}.ics`), or 404 [`NOT_FOUND`].
pub async fn feed(db: &PgPool, config: &Config, file: &str, now: DateTime<Utc>) -> Result<String> {
    let not_found = || Error::not_found(NOT_FOUND);
    let token = file.strip_suffix(SUFFIX).ok_or_else(not_found)?;
    if token.is_empty() || token.len() > 100 {
        return Err(not_found());
    }
    let user_id: Uuid = sqlx::query_scalar!(
        "SELECT f.user_id FROM calendar_feeds f JOIN users u ON u.id = f.user_id \
         WHERE f.token_digest = $1 AND u.is_active",
        tokens::digest(token),
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(not_found)?;
    let events = events_of(db, user_id, now).await?;
    Ok(render(&events, &config.link("/dashboard", &[]), now))
}

/// The user's sessions in the feed's range, as seeker and as mentor, by start.
pub async fn events_of(db: &PgPool, user_id: Uuid, now: DateTime<Utc>) -> Result<Vec<FeedEvent>> {
    let (from, to) = (now - Duration::days(PAST_DAYS), now + Duration::days(FUTURE_DAYS));
    let cancelled_since = now - Duration::days(CANCELLED_SHOWN_DAYS);
    Ok(sqlx::query_as!(
        FeedEvent,
        "SELECT 'booking-' || b.id || '@mystic-mentors' AS \"uid!\", b.scheduled_at AS \"scheduled_at!\", b.ends_at AS \"ends_at!\", \
           coalesce(g.title, s.title) || ' with ' || m.display_name AS \"summary!\", b.status = $5 AS \"cancelled!\", \
           b.calendar_sequence AS \"sequence!\" \
         FROM bookings b JOIN services s ON s.id = b.service_id JOIN mentors m ON m.id = b.mentor_id \
         LEFT JOIN group_sessions g ON g.id = b.group_session_id \
         WHERE b.user_id = $1 AND b.scheduled_at >= $2 AND b.scheduled_at < $3 \
           AND (b.status = ANY($4) OR (b.status = $5 AND b.cancelled_at >= $6)) \
         UNION ALL \
         SELECT 'booking-' || b.id || '@mystic-mentors', b.scheduled_at, b.ends_at, \
           s.title || ' with ' || u.first_name || ' ' || u.last_name, b.status = $5, b.calendar_sequence \
         FROM bookings b JOIN mentors m ON m.id = b.mentor_id JOIN users u ON u.id = b.user_id \
         JOIN services s ON s.id = b.service_id \
         WHERE m.user_id = $1 AND b.group_session_id IS NULL AND b.scheduled_at >= $2 AND b.scheduled_at < $3 \
           AND (b.status = ANY($4) OR (b.status = $5 AND b.cancelled_at >= $6)) \
         UNION ALL \
         SELECT 'group-session-' || g.id || '@mystic-mentors', g.scheduled_at, g.ends_at, \
           g.title || ' (group session)', g.status = $7, 0 \
         FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id \
         WHERE m.user_id = $1 AND g.scheduled_at >= $2 AND g.scheduled_at < $3 \
           AND (g.status <> $7 OR g.updated_at >= $6) \
         ORDER BY 2, 1",
        user_id,
        from,
        to,
        BookingStatus::GOING_AHEAD as &[BookingStatus],
        BookingStatus::Cancelled as BookingStatus,
        cancelled_since,
        GroupStatus::Cancelled as GroupStatus,
    )
    .fetch_all(db)
    .await?)
}

/// The feed as an iCalendar file (RFC 5545): no METHOD, as a subscription is no invitation.
pub fn render(events: &[FeedEvent], link: &str, now: DateTime<Utc>) -> String {
    let mut lines = vec![
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".to_string(),
        format!("PRODID:-//{PRODUCT_NAME}//Calendar feed//EN"),
        "CALSCALE:GREGORIAN".to_string(),
        format!("X-WR-CALNAME:{}", text(&format!("{PRODUCT_NAME} sessions"))),
    ];
    for e in events {
        lines.extend([
            "BEGIN:VEVENT".to_string(),
            format!("UID:{}", e.uid),
            format!("SEQUENCE:{}", e.sequence),
            format!("DTSTAMP:{}", stamp(now)),
            format!("DTSTART:{}", stamp(e.scheduled_at)),
            format!("DTEND:{}", stamp(e.ends_at)),
            format!("SUMMARY:{}", text(&e.summary)),
            format!(
                "DESCRIPTION:{}",
                text(&format!(
                    "Your {PRODUCT_NAME} video session. Join from your dashboard: {link}"
                ))
            ),
            format!("URL:{link}"),
            format!("STATUS:{}", if e.cancelled { "CANCELLED" } else { "CONFIRMED" }),
            "END:VEVENT".to_string(),
        ]);
    }
    lines.push("END:VCALENDAR".to_string());
    lines.iter().map(|l| fold(l)).collect::<Vec<_>>().join("\r\n") + "\r\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_url_safe_and_change_with_the_nonce() {
        let key = [7u8; 32];
        let (a, b) = (token(&key, &[1u8; 32]), token(&key, &[2u8; 32]));
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert_eq!(a, token(&key, &[1u8; 32]));
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    }

    #[test]
    fn a_feed_has_one_event_per_session_with_the_invitation_uid() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let id = Uuid::from_u128(42);
        let events = [
            FeedEvent {
                uid: crate::mail::calendar::booking_uid(id),
                scheduled_at: start,
                ends_at: start + Duration::hours(1),
                summary: "Tarot, with Mira".into(),
                cancelled: false,
                sequence: 2,
            },
            FeedEvent {
                uid: group_session_uid(id),
                scheduled_at: start,
                ends_at: start + Duration::hours(1),
                summary: "Moon circle (group session)".into(),
                cancelled: true,
                sequence: 0,
            },
        ];
        let ics = render(&events, "https://example.test/dashboard", start);
        assert!(ics.starts_with("BEGIN:VCALENDAR\r\n") && ics.ends_with("END:VCALENDAR\r\n"));
        assert!(!ics.contains("METHOD:"));
        assert!(ics.contains(&format!("UID:booking-{id}@mystic-mentors\r\n")));
        assert!(ics.contains("SUMMARY:Tarot\\, with Mira\r\n"));
        assert!(ics.contains("SEQUENCE:2\r\n"));
        assert_eq!(ics.matches("BEGIN:VEVENT").count(), 2);
        assert_eq!(ics.matches("STATUS:CANCELLED").count(), 1);
        assert!(ics.lines().all(|l| l.len() <= crate::mail::calendar::MAX_LINE_OCTETS));
    }
}
