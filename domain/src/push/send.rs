//! Sending one push task: the payload encrypted for the browser (RFC 8291, aes128gcm, by
//! `web-push-native`), signed with our VAPID key (RFC 8292), and POSTed to the push service
//! (RFC 8030) by our own HTTP client, which connects only to allowed addresses
//! ([`crate::public_address`]). What the push service answers decides what happens next.

use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::{StatusCode, header::HeaderMap};
use serde::Serialize;
use sqlx::PgPool;

use super::{
    PushKind,
    keys::{self, VapidKeys},
    queue::PushTask,
    subscriptions,
};
use crate::{
    Result,
    public_address::{self, Policy},
};

/// A payload is at most this many bytes before encryption (the body is shortened to fit).
pub const MAX_PAYLOAD_BYTES: usize = 3_000;
/// Sends of one push in all, counting the first, before a push service that keeps refusing
/// (429, 5xx, unreachable) is given up on.
pub const MAX_SENDS: u32 = 6;
/// The first wait before trying again when the push service gave no `Retry-After`; doubled each time.
pub const FIRST_BACKOFF: Duration = Duration::from_secs(5);
/// No wait, asked for or computed, is longer than this.
pub const MAX_BACKOFF: Duration = Duration::from_secs(3_600);
/// One request to a push service.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

/// How the worker reaches push services.
#[derive(Clone)]
pub struct Sender {
    pub http: reqwest::Client,
    pub policy: Policy,
    /// The VAPID `sub` (`VAPID_SUBJECT`).
    pub subject: String,
}

impl Sender {
    pub fn new(policy: Policy, subject: String) -> reqwest::Result<Self> {
        Ok(Self {
            http: public_address::http_client(policy, REQUEST_TIMEOUT)?,
            policy,
            subject,
        })
    }
}

/// What became of one try.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The push service accepted it (2xx); recorded.
    Sent,
    /// Accepted before (this task ran again): nothing sent.
    AlreadySent,
    /// The browser unsubscribed or signed out since: nothing to send.
    NoSubscription,
    /// 404 or 410: the subscription expired and is deleted.
    Gone(u16),
    /// Will never go through (413, another 4xx, an address no longer allowed): logged, dropped.
    Dropped(String),
    /// 429, 5xx or unreachable: try again after this long.
    Retry { after: Duration, reason: String },
}

/// The payload as the service worker reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Payload<'a> {
    pub kind: PushKind,
    pub title: &'a str,
    pub body: String,
    pub url: &'a str,
    pub tag: &'a str,
    pub sent_at: DateTime<Utc>,
}

/// The payload's JSON, the body shortened (with "…") until it fits [`MAX_PAYLOAD_BYTES`].
pub fn payload(task: &PushTask, now: DateTime<Utc>) -> Vec<u8> {
    let c = &task.content;
    let mut body = c.body.clone();
    loop {
        let p = Payload {
            kind: c.kind,
            title: &c.title,
            body: body.clone(),
            url: &c.url,
            tag: &c.tag,
            sent_at: now,
        };
        let json = serde_json::to_vec(&p).expect("a payload serialises");
        if json.len() <= MAX_PAYLOAD_BYTES || body.is_empty() {
            return json;
        }
        // Cut at least the excess (and room for the ellipsis) off the text, on a character boundary.
        let over = json.len() - MAX_PAYLOAD_BYTES;
        let text = body.strip_suffix('…').unwrap_or(&body);
        let mut cut = text.len().saturating_sub(over + '…'.len_utf8());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        body = if cut == 0 {
            String::new()
        } else {
            format!("{}…", &text[..cut])
        };
    }
}

/// How long to wait before the next try: what `Retry-After` asked (at most [`MAX_BACKOFF`]),
/// else [`FIRST_BACKOFF`] doubled for each earlier try.
pub fn retry_delay(attempt: u32, retry_after: Option<Duration>) -> Duration {
    retry_after
        .unwrap_or_else(|| FIRST_BACKOFF.saturating_mul(1u32 << attempt.min(16)))
        .min(MAX_BACKOFF)
}

/// `Retry-After` as seconds or an HTTP date.
pub fn retry_after(headers: &HeaderMap, now: DateTime<Utc>) -> Option<Duration> {
    let raw = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = raw.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = DateTime::parse_from_rfc2822(raw).ok()?.to_utc();
    Some((at - now).to_std().unwrap_or(Duration::ZERO))
}

/// Has this push been accepted before?
async fn sent_before(db: &PgPool, task: &PushTask) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM push_deliveries WHERE id = $1) AS "e!""#,
        task.id
    )
    .fetch_one(db)
    .await?)
}

async fn record_sent(db: &PgPool, task: &PushTask) -> Result<()> {
    sqlx::query!(
        "INSERT INTO push_deliveries (id) VALUES ($1) ON CONFLICT (id) DO NOTHING",
        task.id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A push's record is kept this long: longer than any task of it can still run.
pub const KEEP_DELIVERIES_DAYS: i32 = 7;

/// Deletes the records of pushes sent more than [`KEEP_DELIVERIES_DAYS`] ago.
pub async fn prune_deliveries(db: &PgPool) -> Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM push_deliveries WHERE sent_at < now() - make_interval(days => $1)",
        KEEP_DELIVERIES_DAYS
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// Sends one push task once; see [`Outcome`].
pub async fn deliver(db: &PgPool, sender: &Sender, task: &PushTask, now: DateTime<Utc>) -> Result<Outcome> {
    if sent_before(db, task).await? {
        return Ok(Outcome::AlreadySent);
    }
    let Some(target) = subscriptions::target(db, task.subscription_id).await? else {
        return Ok(Outcome::NoSubscription);
    };
    // The address rule again: the endpoint's literal address here, its name's at connection time.
    let url = match public_address::check_url(&target.endpoint, sender.policy) {
        Ok(url) => url,
        Err(refusal) => {
            subscriptions::forget(db, target.id).await?;
            return Ok(Outcome::Dropped(format!("endpoint refused: {refusal}")));
        }
    };
    let keys = keys::load(db).await?;
    let request = match build(&keys, sender, task, &target, &url, now) {
        Ok(request) => request,
        Err(err) => return Ok(Outcome::Dropped(format!("cannot build the request: {err:#}"))),
    };
    let response = match sender.http.execute(request).await {
        Ok(response) => response,
        Err(err) => {
            let refused = std::error::Error::source(&err).and_then(|e| find_refusal(e)).is_some();
            if refused {
                subscriptions::forget(db, target.id).await?;
                return Ok(Outcome::Dropped(
                    "endpoint resolves to an address that is not allowed".into(),
                ));
            }
            return Ok(Outcome::Retry {
                after: retry_delay(task.attempt, None),
                reason: format!("push service unreachable: {}", without_url(&err)),
            });
        }
    };
    let status = response.status();
    Ok(match status {
        s if s.is_success() => {
            record_sent(db, task).await?;
            Outcome::Sent
        }
        StatusCode::NOT_FOUND | StatusCode::GONE => {
            subscriptions::forget(db, target.id).await?;
            Outcome::Gone(status.as_u16())
        }
        StatusCode::TOO_MANY_REQUESTS => Outcome::Retry {
            after: retry_delay(task.attempt, retry_after(response.headers(), now)),
            reason: "429 Too Many Requests".into(),
        },
        s if s.is_server_error() => Outcome::Retry {
            after: retry_delay(task.attempt, retry_after(response.headers(), now)),
            reason: s.to_string(),
        },
        StatusCode::PAYLOAD_TOO_LARGE => Outcome::Dropped("413 Payload Too Large".into()),
        s => Outcome::Dropped(s.to_string()),
    })
}

/// A refusal of the address rule somewhere in an error's chain (our resolver's answer).
fn find_refusal<'a>(mut err: &'a (dyn std::error::Error + 'static)) -> Option<&'a public_address::Refusal> {
    loop {
        if let Some(refusal) = err.downcast_ref::<public_address::Refusal>() {
            return Some(refusal);
        }
        err = err.source()?;
    }
}

/// The error without the endpoint (a capability URL: it is not logged).
fn without_url(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    if let Some(url) = err.url() {
        text = text.replace(url.as_str(), "<endpoint>");
    }
    text
}

fn build(
    keys: &VapidKeys,
    sender: &Sender,
    task: &PushTask,
    target: &subscriptions::Target,
    url: &url::Url,
    now: DateTime<Utc>,
) -> anyhow::Result<reqwest::Request> {
    use web_push_native::{Auth, WebPushBuilder, p256::PublicKey};
    let rules = task.content.kind.rules();
    let auth: [u8; 16] = target.auth.as_slice().try_into()?;
    let builder = WebPushBuilder::new(
        url.as_str().parse()?,
        PublicKey::from_sec1_bytes(&target.p256dh)?,
        Auth::from(auth),
    )
    // The request's `TTL` header is this duration.
    .with_valid_duration(Duration::from_secs(rules.ttl.into()));
    let mut request = builder.build(payload(task, now))?;
    let headers = request.headers_mut();
    headers.insert("urgency", rules.urgency.as_str().parse()?);
    if let Some(topic) = &task.topic {
        headers.insert("topic", topic.parse()?);
    }
    // Signed here rather than by the crate's `with_vapid`, whose `aud` drops the port: RFC 8292
    // wants the push resource's origin.
    let origin = url.origin().ascii_serialization();
    headers.insert(
        reqwest::header::AUTHORIZATION,
        keys.authorization(&origin, &sender.subject)?.parse()?,
    );
    Ok(reqwest::Request::try_from(request)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::push::queue::PushContent;

    fn task(body: &str) -> PushTask {
        PushTask {
            id: uuid::Uuid::nil(),
            subscription_id: uuid::Uuid::nil(),
            content: PushContent {
                kind: PushKind::BookingConfirmed,
                title: "Booking confirmed".into(),
                body: body.into(),
                url: "/dashboard".into(),
                tag: "booking".into(),
            },
            topic: None,
            attempt: 0,
        }
    }

    #[test]
    fn the_payload_is_the_contract_and_at_most_3000_bytes() {
        let now = DateTime::parse_from_rfc3339("2027-03-05T14:30:00Z").unwrap().to_utc();
        let json: serde_json::Value = serde_json::from_slice(&payload(&task("See you"), now)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "booking_confirmed", "title": "Booking confirmed", "body": "See you",
                "url": "/dashboard", "tag": "booking", "sentAt": "2027-03-05T14:30:00Z"})
        );
        let long = payload(&task(&"é".repeat(5_000)), now);
        assert!(long.len() <= MAX_PAYLOAD_BYTES, "{}", long.len());
        assert!(
            long.len() > MAX_PAYLOAD_BYTES - 10,
            "only as short as needed: {}",
            long.len()
        );
        let body = serde_json::from_slice::<serde_json::Value>(&long).unwrap()["body"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(body.ends_with('…'));
        let exact = "a".repeat(MAX_PAYLOAD_BYTES - payload(&task(""), now).len());
        assert_eq!(
            payload(&task(&exact), now).len(),
            MAX_PAYLOAD_BYTES,
            "a payload of exactly the limit is kept"
        );
    }

    #[test]
    fn retries_honour_retry_after_else_back_off() {
        assert_eq!(retry_delay(0, None), Duration::from_secs(5));
        assert_eq!(retry_delay(1, None), Duration::from_secs(10));
        assert_eq!(retry_delay(3, None), Duration::from_secs(40));
        assert_eq!(retry_delay(30, None), MAX_BACKOFF);
        assert_eq!(retry_delay(3, Some(Duration::from_secs(2))), Duration::from_secs(2));
        assert_eq!(retry_delay(0, Some(Duration::from_secs(86_400))), MAX_BACKOFF);
        let now = DateTime::parse_from_rfc3339("2015-10-21T07:28:00Z").unwrap().to_utc();
        let mut h = HeaderMap::new();
        h.insert("retry-after", "120".parse().unwrap());
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(120)));
        h.insert("retry-after", "Wed, 21 Oct 2015 07:29:00 GMT".parse().unwrap());
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(60)));
        h.insert("retry-after", "soon".parse().unwrap());
        assert_eq!(retry_after(&h, now), None);
    }
}
