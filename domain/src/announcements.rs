//! Announcements: an admin's notice to every active user of an audience, as one
//! `system_announcement` notification each, written by the worker in batches and pushed live.
//!
//! Exactly once per user: a unique index on `(announcement_id, user_id)` makes a batch that runs
//! again write nothing twice, and each batch adds what it wrote to `delivered_count` in its own
//! transaction.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    Error, Result, audit,
    notifications::Kind,
    realtime::{self, Envelope, ServerEvent, protocol::NotificationView},
};

pub const INVALID_AUDIENCE: &str = "Audience must be all, seekers or mentors";
pub const INVALID_TITLE: &str = "Title must be 1 to 100 characters";
pub const INVALID_MESSAGE: &str = "Message must be 1 to 1000 characters";
pub const MAX_TITLE_CHARS: usize = 100;
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// Users written per statement and transaction.
pub const BATCH_SIZE: i64 = 1000;

closed_set! {
    /// Who an announcement is for.
    pub enum Audience ("announcement audience") {
        All = "all",
        /// Users who are neither mentors nor admins.
        Seekers = "seekers",
        Mentors = "mentors",
    }
}

impl Audience {
    pub fn parse(raw: &str) -> Result<Self> {
        raw.trim().parse().map_err(|_| Error::validation(INVALID_AUDIENCE))
    }
}

#[derive(Clone, Debug)]
pub struct Announcement {
    pub id: Uuid,
    pub audience: Audience,
    pub title: String,
    pub message: String,
    pub created_at: DateTime<Utc>,
    pub delivered_count: i32,
    pub completed_at: Option<DateTime<Utc>>,
}

fn checked(raw: &str, max: usize, message: &str) -> Result<String> {
    let v = raw.trim();
    if v.is_empty() || v.chars().count() > max {
        return Err(Error::validation(message));
    }
    Ok(v.to_string())
}

/// Stores an announcement (audited) in the caller's transaction; the caller queues its delivery.
pub async fn create(
    tx: &mut PgConnection,
    admin_id: Uuid,
    audience: &str,
    title: &str,
    message: &str,
) -> Result<Announcement> {
    let audience = Audience::parse(audience)?;
    let title = checked(title, MAX_TITLE_CHARS, INVALID_TITLE)?;
    let message = checked(message, MAX_MESSAGE_CHARS, INVALID_MESSAGE)?;
    let a = sqlx::query_as!(
        Announcement,
        r#"INSERT INTO announcements (audience, title, message, created_by) VALUES ($1, $2, $3, $4)
           RETURNING id, audience AS "audience: Audience", title, message, created_at, delivered_count, completed_at"#,
        audience as Audience,
        &title,
        &message,
        admin_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    audit::record(
        tx,
        audit::AuditEntry {
            admin_id,
            action: "announcement.create",
            object_type: "announcement",
            object_id: a.id.to_string(),
            before: None,
            after: Some(json!({"audience": a.audience, "title": a.title})),
        },
    )
    .await?;
    Ok(a)
}

/// Every announcement, newest first.
pub async fn list(pool: &PgPool) -> Result<Vec<Announcement>> {
    Ok(sqlx::query_as!(
        Announcement,
        r#"SELECT id, audience AS "audience: Audience", title, message, created_at, delivered_count, completed_at
           FROM announcements ORDER BY created_at DESC, id"#
    )
    .fetch_all(pool)
    .await?)
}

pub async fn find(pool: &PgPool, id: Uuid) -> Result<Option<Announcement>> {
    Ok(sqlx::query_as!(
        Announcement,
        r#"SELECT id, audience AS "audience: Audience", title, message, created_at, delivered_count, completed_at
           FROM announcements WHERE id = $1"#,
        id
    )
    .fetch_optional(pool)
    .await?)
}

/// What one batch did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The last user the batch looked at: the next batch starts after them (None: nobody left).
    pub last_user: Option<Uuid>,
    /// Notifications written (those written before by an earlier run are not counted again).
    pub written: usize,
    /// The users whose notification this batch wrote and who want announcements by e-mail too
    /// (their "Marketing emails" preference is on): the caller queues their mails in the batch's
    /// transaction, so a mail is queued exactly when its notification is written.
    pub to_email: Vec<Uuid>,
}

/// Writes the notifications of the next [`BATCH_SIZE`] users of the audience after `after` (by
/// id), in the caller's transaction, and announces each new one live when it commits.
pub async fn deliver_batch(conn: &mut PgConnection, announcement_id: Uuid, after: Option<Uuid>) -> Result<Batch> {
    // One statement: the batch's users (active, of the audience), the notifications missing among
    // them, the count added to the announcement.
    let row = sqlx::query!(
        r#"WITH a AS (SELECT * FROM announcements WHERE id = $1),
         batch AS (
             SELECT u.id FROM users u, a
             WHERE u.is_active AND ($2::uuid IS NULL OR u.id > $2)
               AND CASE a.audience
                     WHEN 'all' THEN true
                     WHEN 'mentors' THEN EXISTS (SELECT 1 FROM mentors m WHERE m.user_id = u.id)
                     ELSE NOT u.is_admin AND NOT EXISTS (SELECT 1 FROM mentors m WHERE m.user_id = u.id)
                   END
             ORDER BY u.id LIMIT $3),
         written AS (
             INSERT INTO notifications (user_id, type, title, message, action_url, announcement_id)
             SELECT b.id, $4, a.title, a.message, NULL, a.id FROM batch b, a
             ON CONFLICT (announcement_id, user_id) WHERE announcement_id IS NOT NULL DO NOTHING
             RETURNING user_id, id, title, message, action_url, is_read, created_at),
         emailed AS (
             SELECT coalesce(array_agg(w.user_id ORDER BY w.user_id), '{}') AS ids FROM written w
             LEFT JOIN email_preferences p ON p.user_id = w.user_id
             WHERE coalesce(p.marketing_emails, false)),
         counted AS (
             UPDATE announcements SET delivered_count = delivered_count + (SELECT count(*) FROM written)
             WHERE id = $1 RETURNING id)
         SELECT (SELECT id FROM batch ORDER BY id DESC LIMIT 1) AS last_user,
                (SELECT json_agg(json_build_object('userId', user_id, 'id', id, 'title', title,
                        'message', message, 'actionUrl', action_url, 'isRead', is_read, 'createdAt', created_at))
                 FROM written) AS written,
                (SELECT ids FROM emailed) AS "to_email!"
         FROM counted"#,
        announcement_id,
        after,
        BATCH_SIZE,
        Kind::SystemAnnouncement as Kind,
    )
    .fetch_one(&mut *conn)
    .await?;
    let written = match row.written {
        Some(serde_json::Value::Array(items)) => items,
        _ => vec![],
    };
    for item in &written {
        let Some(user_id) = item["userId"].as_str().and_then(|s| s.parse::<Uuid>().ok()) else {
            continue;
        };
        let data = json!({
            "id": item["id"],
            "type": Kind::SystemAnnouncement.as_str(),
            "title": item["title"],
            "message": item["message"],
            "actionUrl": item["actionUrl"],
            "isRead": item["isRead"],
            "createdAt": item["createdAt"],
        });
        realtime::publish(
            &mut *conn,
            &Envelope::to_users(vec![user_id], ServerEvent::Notification(NotificationView(data))),
        )
        .await?;
    }
    Ok(Batch {
        last_user: row.last_user,
        written: written.len(),
        to_email: row.to_email,
    })
}

/// Marks the delivery finished.
pub async fn complete(conn: &mut PgConnection, announcement_id: Uuid) -> Result<()> {
    sqlx::query!(
        "UPDATE announcements SET completed_at = coalesce(completed_at, now()) WHERE id = $1",
        announcement_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Delivering an announcement, queued by `POST /api/admin/announcements` in the transaction that
/// stores it; the worker's `jobs::announcement_fanout` writes it in batches ([`deliver_batch`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Announce {
    pub announcement_id: Uuid,
}

impl crate::job_queue::Job for Announce {
    const QUEUE: &'static str = "announcement_fanout";
    const MAX_ATTEMPTS: usize = 10;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("announce:{}", self.announcement_id))
    }
}
