//! The contact form: messages are stored, then e-mailed to support by a job.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Error, Result, accounts::validation, choice::Choice};

pub const MISSING_FIELDS: &str = "Please fill in all required fields.";
pub const INVALID_CATEGORY: &str = "Please choose a valid category";
pub const SENT: &str = "Thank you for contacting us. We'll get back to you within 24 hours.";
/// Support promises a reply within this many hours.
pub const REPLY_WITHIN_HOURS: u32 = 24;

closed_set! {
    /// What a contact message is about (the form's seven categories).
    pub enum ContactCategory ("contact category") {
        General = "general",
        Technical = "technical",
        Billing = "billing",
        Mentor = "mentor",
        Report = "report",
        Partnership = "partnership",
        Feedback = "feedback",
    }
}

impl ContactCategory {
    /// How the form shows it.
    pub fn label(self) -> &'static str {
        match self {
            Self::General => "General Inquiry",
            Self::Technical => "Technical Support",
            Self::Billing => "Billing & Payments",
            Self::Mentor => "Mentor Application",
            Self::Report => "Report an Issue",
            Self::Partnership => "Partnership Opportunity",
            Self::Feedback => "Feedback & Suggestions",
        }
    }
}

pub struct NewMessage<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    /// Blank or absent is `general`; a value outside the set is [`INVALID_CATEGORY`].
    pub category: Option<&'a Choice<ContactCategory>>,
    pub message: &'a str,
    pub user_id: Option<Uuid>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ContactMessage {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub category: ContactCategory,
    pub message: String,
}

pub async fn store(tx: &mut PgConnection, input: NewMessage<'_>) -> Result<Uuid> {
    let (name, email, message) = (input.name.trim(), input.email.trim(), input.message.trim());
    if name.is_empty() || email.is_empty() || message.is_empty() {
        return Err(Error::validation(MISSING_FIELDS));
    }
    let email = validation::email(email)?;
    if name.chars().count() > 200 || input.subject.trim().chars().count() > 200 {
        return Err(Error::validation("Name and subject must be at most 200 characters"));
    }
    if message.chars().count() > 5000 {
        return Err(Error::validation("Message must be at most 5000 characters"));
    }
    let category = match input.category {
        None => ContactCategory::General,
        Some(c) if c.is_blank() => ContactCategory::General,
        Some(c) => c.value(INVALID_CATEGORY)?,
    };
    Ok(sqlx::query_scalar!(
        "INSERT INTO contact_messages (user_id, name, email, subject, category, message) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        input.user_id,
        name,
        email,
        input.subject.trim(),
        category as ContactCategory,
        message,
    )
    .fetch_one(&mut *tx)
    .await?)
}

pub async fn find(db: &sqlx::PgPool, id: Uuid) -> Result<Option<ContactMessage>> {
    Ok(sqlx::query_as!(
        ContactMessage,
        r#"SELECT id, name, email, subject, category AS "category: ContactCategory", message
           FROM contact_messages WHERE id = $1"#,
        id
    )
    .fetch_optional(db)
    .await?)
}

/// The admins' inbox: open messages wait for an answer, answered ones are kept.
pub mod inbox {
    use chrono::{DateTime, Utc};
    use serde_json::json;
    use sqlx::PgPool;
    use uuid::Uuid;

    use super::ContactCategory;
    use crate::{Error, Result, audit};

    pub const NOT_FOUND: &str = "Contact message not found";
    pub const ALREADY_ANSWERED: &str = "This message has already been marked as answered";
    pub const INVALID_STATUS: &str = "Status must be open or answered";

    closed_set! {
        /// Where a message stands (derived from `answered_at`, not stored).
        #[cfg_attr(feature = "openapi", oai(rename = "ContactStatus"))]
        pub enum Status ("contact message status") {
            Open = "open",
            Answered = "answered",
        }
    }

    #[derive(Clone, Debug)]
    pub struct InboxMessage {
        pub id: Uuid,
        pub user_id: Option<Uuid>,
        pub name: String,
        pub email: String,
        pub subject: String,
        pub category: ContactCategory,
        pub message: String,
        pub created_at: DateTime<Utc>,
        pub answered_at: Option<DateTime<Utc>>,
    }

    impl InboxMessage {
        pub fn status(&self) -> Status {
            if self.answered_at.is_some() {
                Status::Answered
            } else {
                Status::Open
            }
        }
    }

    /// Messages of one status (every one without), newest first.
    pub async fn list(pool: &PgPool, status: Option<Status>) -> Result<Vec<InboxMessage>> {
        Ok(sqlx::query_as!(
            InboxMessage,
            r#"SELECT id, user_id, name, email, subject, category AS "category: ContactCategory", message, created_at, answered_at
               FROM contact_messages
               WHERE $1::boolean IS NULL OR (answered_at IS NOT NULL) = $1
               ORDER BY created_at DESC, id"#,
            status.map(|s| s == Status::Answered),
        )
        .fetch_all(pool)
        .await?)
    }

    /// Marks an open message answered, audited; 404 for none, 409 when it already is.
    pub async fn mark_answered(pool: &PgPool, admin_id: Uuid, id: Uuid) -> Result<InboxMessage> {
        let mut tx = pool.begin().await?;
        let answered = sqlx::query_scalar!("SELECT answered_at FROM contact_messages WHERE id = $1 FOR UPDATE", id)
            .fetch_optional(&mut *tx)
            .await?;
        match answered {
            None => return Err(Error::not_found(NOT_FOUND)),
            Some(Some(_)) => return Err(Error::conflict(ALREADY_ANSWERED)),
            Some(None) => {}
        }
        let message = sqlx::query_as!(
            InboxMessage,
            r#"UPDATE contact_messages SET answered_at = now(), answered_by = $2 WHERE id = $1
               RETURNING id, user_id, name, email, subject, category AS "category: ContactCategory", message, created_at, answered_at"#,
            id,
            admin_id,
        )
        .fetch_one(&mut *tx)
        .await?;
        audit::record(
            &mut tx,
            audit::AuditEntry {
                admin_id,
                action: "contact_message.answered",
                object_type: "contact_message",
                object_id: id.to_string(),
                before: Some(json!({"status": Status::Open})),
                after: Some(json!({"status": Status::Answered})),
            },
        )
        .await?;
        tx.commit().await?;
        Ok(message)
    }
}
