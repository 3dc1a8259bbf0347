//! The notifications a user reads, marks read and dismissed: their rows and the live event's object.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use super::Kind;
use crate::{Error, Result};

/// The bell shows this many by default.
pub const DEFAULT_LIMIT: i64 = 10;
pub const MAX_LIMIT: i64 = 100;
pub const NOT_FOUND: &str = "Notification not found";

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

pub async fn latest(db: &PgPool, user_id: Uuid, limit: Option<i64>) -> Result<Vec<Notification>> {
    let limit = limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    Ok(sqlx::query_as!(
        Notification,
        r#"SELECT id, type AS "kind: Kind", title, message, action_url, is_read, created_at
           FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2"#,
        user_id,
        limit,
    )
    .fetch_all(db)
    .await?)
}

pub async fn unread_count(db: &PgPool, user_id: Uuid) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        "SELECT count(*) AS \"count!\" FROM notifications WHERE user_id = $1 AND NOT is_read",
        user_id,
    )
    .fetch_one(db)
    .await?)
}

/// Unread to read, one way; someone else's notification is not found.
pub async fn mark_read(db: &PgPool, user_id: Uuid, id: Uuid) -> Result<Notification> {
    sqlx::query_as!(
        Notification,
        r#"UPDATE notifications SET is_read = true, read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2
           RETURNING id, type AS "kind: Kind", title, message, action_url, is_read, created_at"#,
        id,
        user_id,
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(|| Error::not_found(NOT_FOUND))
}

pub async fn mark_all_read(db: &PgPool, user_id: Uuid) -> Result<u64> {
    Ok(sqlx::query!(
        "UPDATE notifications SET is_read = true, read_at = now() WHERE user_id = $1 AND NOT is_read",
        user_id,
    )
    .execute(db)
    .await?
    .rows_affected())
}

pub async fn delete(db: &PgPool, user_id: Uuid, id: Uuid) -> Result<()> {
    let done = sqlx::query!("DELETE FROM notifications WHERE id = $1 AND user_id = $2", id, user_id,)
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
