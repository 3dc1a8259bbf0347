//! In-app notifications: sent by business rules, read and dismissed by their owner.
//!
//! A rule never writes a notification itself: [`notify`] queues a [`FanOut`] task in the rule's
//! transaction (so the notice exists if and only if its cause commits), and the worker's fan-out
//! job [`write`]s the rows in batches and pushes each one live to its recipient's sockets.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{FromRow, PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    Error, Result,
    job_queue::{self, PushOptions},
    realtime::{self, Envelope},
};

/// The bell shows this many by default.
pub const DEFAULT_LIMIT: i64 = 10;
pub const MAX_LIMIT: i64 = 100;
pub const NOT_FOUND: &str = "Notification not found";

/// The worker's queue of fan-out tasks; never rename it (queued tasks keep the old one).
pub const FAN_OUT_QUEUE: &str = "notification_fanout";
/// Tries in all before a fan-out task is marked failed.
pub const FAN_OUT_MAX_ATTEMPTS: usize = 10;
/// The real-time event that carries a new notification to its recipient's sockets.
pub const LIVE_EVENT: &str = "notification";

closed_set! {
    /// Stored in queued tasks and in `notifications.type` as its `as_str` name: never rename one.
    #[cfg_attr(feature = "openapi", oai(rename = "NotificationKind"))]
    pub enum Kind ("notification kind") {
        BookingConfirmed = "booking_confirmed",
        BookingCancelled = "booking_cancelled",
        BookingRescheduled = "booking_rescheduled",
        BookingReminder = "booking_reminder",
        NewMessage = "new_message",
        NewReview = "new_review",
        MentorApproved = "mentor_approved",
        PaymentReceived = "payment_received",
        PaymentFailed = "payment_failed",
        SystemAnnouncement = "system_announcement",
        PayoutDestinationChanged = "payout_destination_changed",
        /// The mentor removed the participant from a group session's call.
        RemovedFromSession = "removed_from_session",
        /// An administrator turned the mentor's profile down (the message gives the reason).
        MentorRejected = "mentor_rejected",
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct Notification {
    pub id: Uuid,
    pub kind: Kind,
    pub title: String,
    pub message: String,
    pub action_url: Option<String>,
    pub is_read: bool,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, type AS kind, title, message, action_url, is_read, created_at";

impl Notification {
    /// The live event's data: the API's Notification object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "type": self.kind,
            "title": self.title,
            "message": self.message,
            "isRead": self.is_read,
            "createdAt": self.created_at.to_rfc3339(),
            "actionUrl": self.action_url,
        })
    }
}

#[derive(FromRow)]
struct Written {
    user_id: Uuid,
    #[sqlx(flatten)]
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
        }
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
/// users deleted since, in one statement; announces each new one live when the transaction
/// commits. Returns the new ones.
pub async fn write(conn: &mut PgConnection, fan_out: &FanOut, recipients: &[Recipient]) -> Result<Vec<Notification>> {
    let ids: Vec<Uuid> = recipients.iter().map(|r| r.id).collect();
    let users: Vec<Uuid> = recipients.iter().map(|r| r.user_id).collect();
    let written: Vec<Written> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO notifications (id, user_id, type, title, message, action_url) \
         SELECT r.id, r.user_id, $3, $4, $5, $6 FROM unnest($1::uuid[], $2::uuid[]) AS r (id, user_id) \
         WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = r.user_id) \
         ON CONFLICT (id) DO NOTHING \
         RETURNING user_id, {COLUMNS}"
    )))
    .bind(&ids)
    .bind(&users)
    .bind(fan_out.kind)
    .bind(&fan_out.title)
    .bind(&fan_out.message)
    .bind(&fan_out.action_url)
    .fetch_all(&mut *conn)
    .await?;
    let mut notifications = Vec::with_capacity(written.len());
    for Written { user_id, notification } in written {
        realtime::publish(
            &mut *conn,
            &Envelope::to_users(vec![user_id], LIVE_EVENT, notification.to_json()),
        )
        .await?;
        notifications.push(notification);
    }
    Ok(notifications)
}

pub async fn latest(db: &PgPool, user_id: Uuid, limit: Option<i64>) -> Result<Vec<Notification>> {
    let limit = limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2"
    )))
    .bind(user_id)
    .bind(limit)
    .fetch_all(db)
    .await?)
}

pub async fn unread_count(db: &PgPool, user_id: Uuid) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT count(*) FROM notifications WHERE user_id = $1 AND NOT is_read")
            .bind(user_id)
            .fetch_one(db)
            .await?,
    )
}

/// Unread to read, one way; someone else's notification is not found.
pub async fn mark_read(db: &PgPool, user_id: Uuid, id: Uuid) -> Result<Notification> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "UPDATE notifications SET is_read = true, read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2 RETURNING {COLUMNS}"
    )))
    .bind(id)
    .bind(user_id)
    .fetch_optional(db)
    .await?
    .ok_or_else(|| Error::not_found(NOT_FOUND))
}

pub async fn mark_all_read(db: &PgPool, user_id: Uuid) -> Result<u64> {
    Ok(
        sqlx::query("UPDATE notifications SET is_read = true, read_at = now() WHERE user_id = $1 AND NOT is_read")
            .bind(user_id)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

pub async fn delete(db: &PgPool, user_id: Uuid, id: Uuid) -> Result<()> {
    let done = sqlx::query("DELETE FROM notifications WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .execute(db)
        .await?;
    if done.rows_affected() == 0 {
        return Err(Error::not_found(NOT_FOUND));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_travel_under_their_stored_names() {
        for &kind in Kind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            assert_eq!(serde_json::from_value::<Kind>(kind.as_str().into()).unwrap(), kind);
        }
    }

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
        assert_eq!(
            (FAN_OUT_QUEUE, FAN_OUT_MAX_ATTEMPTS, LIVE_EVENT),
            ("notification_fanout", 10, "notification")
        );
    }

    #[test]
    fn the_live_event_is_the_api_notification_object() {
        let at = DateTime::parse_from_rfc3339("2027-03-05T14:30:00.5Z").unwrap().to_utc();
        let n = Notification {
            id: Uuid::nil(),
            kind: Kind::NewReview,
            title: "New review".into(),
            message: "5 out of 5".into(),
            action_url: Some("/mentor/x".into()),
            is_read: false,
            created_at: at,
        };
        assert_eq!(
            n.to_json(),
            serde_json::json!({
                "id": Uuid::nil(),
                "type": "new_review",
                "title": "New review",
                "message": "5 out of 5",
                "isRead": false,
                "createdAt": "2027-03-05T14:30:00.500+00:00",
                "actionUrl": "/mentor/x",
            })
        );
    }
}
