//! Which e-mails a user wants. Every e-mail the product sends checks these first.

use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

use crate::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq, FromRow)]
pub struct EmailPreferences {
    pub booking_confirmations: bool,
    pub booking_reminders: bool,
    pub marketing_emails: bool,
    pub review_requests: bool,
}

/// Everything on until the user says otherwise.
pub const DEFAULTS: EmailPreferences = EmailPreferences {
    booking_confirmations: true,
    booking_reminders: true,
    marketing_emails: true,
    review_requests: true,
};

#[derive(Default)]
pub struct Changes {
    pub booking_confirmations: Option<bool>,
    pub booking_reminders: Option<bool>,
    pub marketing_emails: Option<bool>,
    pub review_requests: Option<bool>,
}

pub async fn get(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<EmailPreferences> {
    let row: Option<EmailPreferences> = sqlx::query_as(
        "SELECT booking_confirmations, booking_reminders, marketing_emails, review_requests FROM email_preferences WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await?;
    Ok(row.unwrap_or(DEFAULTS))
}

pub async fn update(db: &sqlx::PgPool, user_id: Uuid, c: Changes) -> Result<EmailPreferences> {
    if c.booking_confirmations.is_none()
        && c.booking_reminders.is_none()
        && c.marketing_emails.is_none()
        && c.review_requests.is_none()
    {
        return Err(Error::validation("Send at least one preference to change"));
    }
    Ok(sqlx::query_as(
        "INSERT INTO email_preferences (user_id, booking_confirmations, booking_reminders, marketing_emails, review_requests) \
         VALUES ($1, coalesce($2, true), coalesce($3, true), coalesce($4, true), coalesce($5, true)) \
         ON CONFLICT (user_id) DO UPDATE SET \
           booking_confirmations = coalesce($2, email_preferences.booking_confirmations), \
           booking_reminders = coalesce($3, email_preferences.booking_reminders), \
           marketing_emails = coalesce($4, email_preferences.marketing_emails), \
           review_requests = coalesce($5, email_preferences.review_requests), updated_at = now() \
         RETURNING booking_confirmations, booking_reminders, marketing_emails, review_requests",
    )
    .bind(user_id)
    .bind(c.booking_confirmations)
    .bind(c.booking_reminders)
    .bind(c.marketing_emails)
    .bind(c.review_requests)
    .fetch_one(db)
    .await?)
}
