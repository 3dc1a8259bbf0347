//! The contact form: messages are stored, then e-mailed to support by a job.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{Error, Result, accounts::validation};

pub const MISSING_FIELDS: &str = "Please fill in all required fields.";
pub const INVALID_CATEGORY: &str = "Please choose a valid category";
pub const SENT: &str = "Thank you for contacting us. We'll get back to you within 24 hours.";
/// Support promises a reply within this many hours.
pub const REPLY_WITHIN_HOURS: u32 = 24;

/// The seven categories and their labels.
pub const CATEGORIES: [(&str, &str); 7] = [
    ("general", "General Inquiry"),
    ("technical", "Technical Support"),
    ("billing", "Billing & Payments"),
    ("mentor", "Mentor Application"),
    ("report", "Report an Issue"),
    ("partnership", "Partnership Opportunity"),
    ("feedback", "Feedback & Suggestions"),
];

pub struct NewMessage<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    pub category: &'a str,
    pub message: &'a str,
    pub user_id: Option<Uuid>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ContactMessage {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub category: String,
    pub message: String,
}

pub fn category_label(category: &str) -> &'static str {
    CATEGORIES
        .iter()
        .find(|(k, _)| *k == category)
        .map(|(_, l)| *l)
        .unwrap_or("General Inquiry")
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
    let category = match input.category.trim() {
        "" => "general",
        c if CATEGORIES.iter().any(|(k, _)| *k == c) => c,
        _ => return Err(Error::validation(INVALID_CATEGORY)),
    };
    Ok(sqlx::query_scalar(
        "INSERT INTO contact_messages (user_id, name, email, subject, category, message) \
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(input.user_id)
    .bind(name)
    .bind(email)
    .bind(input.subject.trim())
    .bind(category)
    .bind(message)
    .fetch_one(&mut *tx)
    .await?)
}

pub async fn find(db: &sqlx::PgPool, id: Uuid) -> Result<Option<ContactMessage>> {
    Ok(
        sqlx::query_as("SELECT id, name, email, subject, category, message FROM contact_messages WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?,
    )
}
