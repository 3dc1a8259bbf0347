//! Push tasks: one per (push, subscribed browser), queued in the transaction of their cause and
//! sent by the worker's `web_push` queue (`jobs/src/web_push.rs`, [`super::send`]).

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use super::PushKind;
use crate::{Result, job_queue};

/// The worker's queue of pushes; never rename it (queued tasks keep the old one).
pub const QUEUE: &str = "web_push";
/// Tries of one task when our side fails (the database); a push service's refusals are handled
/// by [`super::send`] and its retries are new tasks.
pub const MAX_ATTEMPTS: usize = 5;
/// A socket not refreshed for this long belongs to a process that died (the real-time sockets'
/// `STALE_AFTER`, three missed 30-second pings; domain/tests/push.rs keeps the two equal).
pub const SOCKET_STALE_AFTER_SECONDS: i64 = 90;

/// What a push says (its payload less `sentAt`, which is stamped when it is sent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushContent {
    pub kind: PushKind,
    pub title: String,
    pub body: String,
    /// Where a click takes the user: a path of the web app.
    pub url: String,
    /// A later push with the same tag replaces this one on the screen.
    pub tag: String,
}

/// One push to one browser, as queued. Its id is chosen when it is queued: a push service that
/// accepted it is recorded under that id, so the task never sends twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushTask {
    pub id: Uuid,
    pub subscription_id: Uuid,
    pub content: PushContent,
    /// RFC 8030 `Topic`: a newer push of the same topic replaces one the service still holds.
    #[serde(default)]
    pub topic: Option<String>,
    /// Earlier tries of this push that the push service asked to repeat (429, 5xx).
    #[serde(default)]
    pub attempt: u32,
}

/// One push for one user (to each of their browsers).
#[derive(Clone, Debug)]
pub struct ForUser {
    pub user_id: Uuid,
    pub content: PushContent,
    pub topic: Option<String>,
}

/// A conversation's `Topic`: its id in hex without hyphens (32 characters, RFC 8030's limit).
pub fn topic_of(id: Uuid) -> String {
    id.simple().to_string()
}

/// Queues each push to every browser of its user who allows its kind (and, for a kind pushed only
/// to the absent, who has no connected socket), in the caller's transaction and one statement
/// each for choosing and queueing. Returns the tasks queued.
pub async fn queue(conn: &mut PgConnection, pushes: &[ForUser]) -> Result<usize> {
    if pushes.is_empty() {
        return Ok(0);
    }
    let users: Vec<Uuid> = pushes.iter().map(|p| p.user_id).collect();
    let families: Vec<String> = pushes
        .iter()
        .map(|p| p.content.kind.rules().preference.column().to_owned())
        .collect();
    let away: Vec<bool> = pushes.iter().map(|p| p.content.kind.rules().only_when_away).collect();
    let rows = sqlx::query!(
        r#"SELECT i.n AS "n!", s.id AS "subscription_id!"
           FROM unnest($1::uuid[], $2::text[], $3::bool[]) WITH ORDINALITY AS i (user_id, family, away, n)
           JOIN push_subscriptions s ON s.user_id = i.user_id
           LEFT JOIN push_preferences p ON p.user_id = i.user_id
           WHERE coalesce(CASE i.family WHEN 'calls' THEN p.calls WHEN 'messages' THEN p.messages
                   WHEN 'bookings' THEN p.bookings WHEN 'reminders' THEN p.reminders
                   WHEN 'group_sessions' THEN p.group_sessions END, true)
             AND NOT (i.away AND EXISTS (SELECT 1 FROM realtime_sockets r
                   WHERE r.user_id = i.user_id AND r.seen_at > now() - $4 * interval '1 second'))
           ORDER BY i.n, s.id"#,
        &users,
        &families,
        &away,
        SOCKET_STALE_AFTER_SECONDS as f64,
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut tasks = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(push) = usize::try_from(row.n - 1).ok().and_then(|i| pushes.get(i)) else {
            continue;
        };
        tasks.push(PushTask {
            id: Uuid::new_v4(),
            subscription_id: row.subscription_id,
            content: push.content.clone(),
            topic: push.topic.clone(),
            attempt: 0,
        });
    }
    job_queue::push_all(conn, QUEUE, &tasks, MAX_ATTEMPTS).await?;
    Ok(tasks.len())
}

/// [`queue`] for one push to one user.
pub async fn queue_to_user(conn: &mut PgConnection, user_id: Uuid, content: PushContent) -> Result<usize> {
    queue(
        conn,
        &[ForUser {
            user_id,
            content,
            topic: None,
        }],
    )
    .await
}

impl crate::job_queue::Job for PushTask {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    /// Retries only: the first task of a push is queued once by its cause's transaction.
    fn idempotency_key(&self, _run_at: Option<chrono::DateTime<chrono::Utc>>) -> Option<String> {
        (self.attempt > 0).then(|| format!("web-push:{}:{}", self.id, self.attempt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topic_is_32_hex_characters() {
        let id: Uuid = "0b7d2c1e-4f3a-4b5c-9d8e-7f6a5b4c3d2e".parse().unwrap();
        assert_eq!(topic_of(id), "0b7d2c1e4f3a4b5c9d8e7f6a5b4c3d2e");
        assert_eq!(topic_of(id).len(), 32);
    }

    /// Queued tasks carry this shape: it never changes.
    #[test]
    fn the_queued_payload_keeps_its_shape() {
        let task = PushTask {
            id: Uuid::nil(),
            subscription_id: Uuid::max(),
            content: PushContent {
                kind: PushKind::NewMessage,
                title: "New message".into(),
                body: "Ann Lee: hi".into(),
                url: "/messages".into(),
                tag: "t".into(),
            },
            topic: Some("abc".into()),
            attempt: 2,
        };
        let json = serde_json::json!({
            "id": Uuid::nil(),
            "subscriptionId": Uuid::max(),
            "content": {"kind": "new_message", "title": "New message", "body": "Ann Lee: hi", "url": "/messages", "tag": "t"},
            "topic": "abc",
            "attempt": 2,
        });
        assert_eq!(serde_json::to_value(&task).unwrap(), json);
        assert_eq!(serde_json::from_value::<PushTask>(json).unwrap(), task);
    }
}
