//! A notice for some users, queued in its cause's transaction and written by the worker in batches.

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{Kind, store::Notification};
use crate::{
    Result,
    job_queue::{self, PushOptions},
    push::{self, PushContent, PushKind},
    realtime::{self, Envelope, ServerEvent, protocol::NotificationView},
};

/// The worker's queue of fan-out tasks; never rename it (queued tasks keep the old one).
pub const FAN_OUT_QUEUE: &str = "notification_fanout";
/// Tries in all before a fan-out task is marked failed.
pub const FAN_OUT_MAX_ATTEMPTS: usize = 10;

struct Written {
    user_id: Uuid,
    notification: Notification,
}

/// One notice for some users, as queued for the worker. Every recipient's notification id is
/// chosen when it is queued, so a task that runs again finds its rows and writes none twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FanOut {
    pub kind: Kind,
    pub title: String,
    pub message: String,
    pub action_url: Option<String>,
    pub recipients: Vec<Recipient>,
    /// The Web Push each new notification also sends (to the recipient's browsers that allow it);
    /// none: in-app only. Absent from tasks queued before pushes existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push: Option<PushSpec>,
}

/// How a fan-out's notifications are pushed: the kind, and what the kind's defaults do not say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushSpec {
    pub kind: PushKind,
    /// RFC 8030 `Topic` (a newer push of the topic replaces one the push service still holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// The notification's tag on the screen; default: one per notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

impl PushSpec {
    pub fn new(kind: PushKind) -> Self {
        Self {
            kind,
            topic: None,
            tag: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recipient {
    /// The id the notification will have.
    pub id: Uuid,
    pub user_id: Uuid,
}

impl FanOut {
    /// The notice for each of `user_ids` (each once, in order), with fresh notification ids.
    pub fn new(user_ids: &[Uuid], kind: Kind, title: &str, message: &str, action_url: Option<&str>) -> Self {
        let mut seen = std::collections::HashSet::new();
        let recipients = user_ids
            .iter()
            .filter(|id| seen.insert(**id))
            .map(|&user_id| Recipient {
                id: Uuid::new_v4(),
                user_id,
            })
            .collect();
        Self {
            kind,
            title: title.to_owned(),
            message: message.to_owned(),
            action_url: action_url.map(str::to_owned),
            recipients,
            push: kind.push().map(PushSpec::new),
        }
    }

    /// The same notice pushed as `spec` says (none: in-app only) rather than as its kind's default.
    pub fn pushed_as(self, spec: Option<PushSpec>) -> Self {
        Self { push: spec, ..self }
    }

    /// Queues the fan-out in the caller's transaction.
    pub async fn enqueue(&self, conn: &mut PgConnection) -> Result<()> {
        if self.recipients.is_empty() {
            return Ok(());
        }
        let options = PushOptions {
            max_attempts: Some(FAN_OUT_MAX_ATTEMPTS),
            ..Default::default()
        };
        Ok(job_queue::push(conn, FAN_OUT_QUEUE, self, options).await?)
    }

    /// Queues every fan-out of `fan_outs` that has recipients in one statement, in the caller's
    /// transaction.
    pub async fn enqueue_all(conn: &mut PgConnection, fan_outs: &[FanOut]) -> Result<()> {
        let addressed: Vec<&FanOut> = fan_outs.iter().filter(|f| !f.recipients.is_empty()).collect();
        Ok(job_queue::push_all(conn, FAN_OUT_QUEUE, &addressed, FAN_OUT_MAX_ATTEMPTS).await?)
    }
}

/// Sends a notification to one user, once the caller's transaction commits.
pub async fn notify(
    conn: &mut PgConnection,
    user_id: Uuid,
    kind: Kind,
    title: &str,
    message: &str,
    action_url: Option<&str>,
) -> Result<()> {
    notify_many(conn, &[user_id], kind, title, message, action_url).await
}

/// Sends one notification to each of `user_ids` (once each), once the caller's transaction commits.
pub async fn notify_many(
    conn: &mut PgConnection,
    user_ids: &[Uuid],
    kind: Kind,
    title: &str,
    message: &str,
    action_url: Option<&str>,
) -> Result<()> {
    FanOut::new(user_ids, kind, title, message, action_url)
        .enqueue(conn)
        .await
}

/// Writes the notifications of `recipients` (a part of `fan_out`) that do not exist yet, skipping
/// users deleted or removed since (`users.deleted_at`, issue 35: the key-share lock waits for a
/// removal in progress, whose `FOR UPDATE` it conflicts with, and then reads the row it left), in
/// one statement; announces each new one live when the transaction commits and queues its push
/// (`fan_out.push`) in it. Returns the new ones.
pub async fn write(conn: &mut PgConnection, fan_out: &FanOut, recipients: &[Recipient]) -> Result<Vec<Notification>> {
    let ids: Vec<Uuid> = recipients.iter().map(|r| r.id).collect();
    let users: Vec<Uuid> = recipients.iter().map(|r| r.user_id).collect();
    let written: Vec<Written> = sqlx::query!(
        r#"INSERT INTO notifications (id, user_id, type, title, message, action_url)
           SELECT r.id, r.user_id, $3, $4, $5, $6 FROM unnest($1::uuid[], $2::uuid[]) AS r (id, user_id)
           JOIN users u ON u.id = r.user_id AND u.deleted_at IS NULL
           FOR KEY SHARE OF u
           ON CONFLICT (id) DO NOTHING
           RETURNING user_id, id, type AS "kind: Kind", title, message, action_url, is_read, created_at"#,
        &ids,
        &users,
        fan_out.kind as Kind,
        &fan_out.title,
        &fan_out.message,
        fan_out.action_url.as_deref(),
    )
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|r| Written {
        user_id: r.user_id,
        notification: Notification {
            id: r.id,
            kind: r.kind,
            title: r.title,
            message: r.message,
            action_url: r.action_url,
            is_read: r.is_read,
            created_at: r.created_at,
        },
    })
    .collect();
    let mut notifications = Vec::with_capacity(written.len());
    let mut pushes = Vec::new();
    for Written { user_id, notification } in written {
        if let Some(spec) = &fan_out.push {
            pushes.push(push::ForUser {
                user_id,
                content: PushContent {
                    kind: spec.kind,
                    title: fan_out.title.clone(),
                    body: fan_out.message.clone(),
                    url: fan_out.action_url.clone().unwrap_or_else(|| "/notifications".into()),
                    tag: spec
                        .tag
                        .clone()
                        .unwrap_or_else(|| format!("notification-{}", notification.id)),
                },
                topic: spec.topic.clone(),
            });
        }
        realtime::publish(
            &mut *conn,
            &Envelope::to_users(
                vec![user_id],
                ServerEvent::Notification(NotificationView(notification.to_json())),
            ),
        )
        .await?;
        notifications.push(notification);
    }
    // Only the notifications written now are pushed: a fan-out that runs again pushes none twice.
    push::queue(conn, &pushes).await?;
    Ok(notifications)
}

impl crate::job_queue::Job for FanOut {
    const QUEUE: &'static str = FAN_OUT_QUEUE;
    const MAX_ATTEMPTS: usize = FAN_OUT_MAX_ATTEMPTS;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_recipient_once_with_its_own_notification_id() {
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let fan_out = FanOut::new(
            &[a, b, a],
            Kind::NewReview,
            "New review",
            "5 out of 5",
            Some("/mentor/x"),
        );
        assert_eq!(fan_out.recipients.iter().map(|r| r.user_id).collect::<Vec<_>>(), [a, b]);
        assert_ne!(fan_out.recipients[0].id, fan_out.recipients[1].id);
    }

    /// Queued tasks carry this shape: it never changes.
    #[test]
    fn the_queued_payload_keeps_its_shape() {
        let (id, user) = (Uuid::nil(), Uuid::max());
        let fan_out = FanOut {
            kind: Kind::BookingConfirmed,
            title: "Booking confirmed".into(),
            message: "See you".into(),
            action_url: None,
            recipients: vec![Recipient { id, user_id: user }],
            push: None,
        };
        let json = serde_json::json!({
            "kind": "booking_confirmed",
            "title": "Booking confirmed",
            "message": "See you",
            "actionUrl": null,
            "recipients": [{ "id": id, "userId": user }],
        });
        assert_eq!(serde_json::to_value(&fan_out).unwrap(), json);
        assert_eq!(serde_json::from_value::<FanOut>(json).unwrap(), fan_out);
    }
}
