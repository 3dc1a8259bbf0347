//! In-app notifications: written by business rules, read and dismissed by their owner.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor, PgPool};
use uuid::Uuid;

use crate::{Error, Result};

/// The bell shows this many by default.
pub const DEFAULT_LIMIT: i64 = 10;
pub const MAX_LIMIT: i64 = 100;
pub const NOT_FOUND: &str = "Notification not found";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    BookingConfirmed,
    BookingCancelled,
    BookingRescheduled,
    BookingReminder,
    NewMessage,
    NewReview,
    MentorApproved,
    PaymentReceived,
    PaymentFailed,
    SystemAnnouncement,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::BookingConfirmed => "booking_confirmed",
            Kind::BookingCancelled => "booking_cancelled",
            Kind::BookingRescheduled => "booking_rescheduled",
            Kind::BookingReminder => "booking_reminder",
            Kind::NewMessage => "new_message",
            Kind::NewReview => "new_review",
            Kind::MentorApproved => "mentor_approved",
            Kind::PaymentReceived => "payment_received",
            Kind::PaymentFailed => "payment_failed",
            Kind::SystemAnnouncement => "system_announcement",
        }
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct Notification {
    pub id: Uuid,
    pub kind: String,
    pub title: String,
    pub message: String,
    pub action_url: Option<String>,
    pub is_read: bool,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, type AS kind, title, message, action_url, is_read, created_at";

pub async fn notify(db: impl PgExecutor<'_>, user_id: Uuid, kind: Kind, title: &str, message: &str, action_url: Option<&str>) -> Result<()> {
    sqlx::query("INSERT INTO notifications (user_id, type, title, message, action_url) VALUES ($1, $2, $3, $4, $5)")
        .bind(user_id)
        .bind(kind.as_str())
        .bind(title)
        .bind(message)
        .bind(action_url)
        .execute(db)
        .await?;
    Ok(())
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
    Ok(sqlx::query_scalar("SELECT count(*) FROM notifications WHERE user_id = $1 AND NOT is_read")
        .bind(user_id)
        .fetch_one(db)
        .await?)
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
    Ok(sqlx::query("UPDATE notifications SET is_read = true, read_at = now() WHERE user_id = $1 AND NOT is_read")
        .bind(user_id)
        .execute(db)
        .await?
        .rows_affected())
}

pub async fn delete(db: &PgPool, user_id: Uuid, id: Uuid) -> Result<()> {
    let done = sqlx::query("DELETE FROM notifications WHERE id = $1 AND user_id = $2").bind(id).bind(user_id).execute(db).await?;
    if done.rows_affected() == 0 {
        return Err(Error::not_found(NOT_FOUND));
    }
    Ok(())
}
