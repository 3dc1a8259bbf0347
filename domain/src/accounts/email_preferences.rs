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

/// What a user without a stored choice gets: the mails about their own bookings and reviews, and no
/// marketing (that one is opt-in: an unticked box at registration, or the preferences tab).
pub const DEFAULTS: EmailPreferences = EmailPreferences {
    booking_confirmations: true,
    booking_reminders: true,
    marketing_emails: false,
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
    let row: Option<EmailPreferences> = sqlx::query_as!(
        EmailPreferences,
        "SELECT booking_confirmations, booking_reminders, marketing_emails, review_requests FROM email_preferences WHERE user_id = $1",
        user_id,
    )
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
    Ok(sqlx::query_as!(
        EmailPreferences,
        "INSERT INTO email_preferences (user_id, booking_confirmations, booking_reminders, marketing_emails, review_requests) \
         VALUES ($1, coalesce($2::boolean, $6::boolean), coalesce($3::boolean, $7::boolean), coalesce($4::boolean, $8::boolean), coalesce($5::boolean, $9::boolean)) \
         ON CONFLICT (user_id) DO UPDATE SET \
           booking_confirmations = coalesce($2, email_preferences.booking_confirmations), \
           booking_reminders = coalesce($3, email_preferences.booking_reminders), \
           marketing_emails = coalesce($4, email_preferences.marketing_emails), \
           review_requests = coalesce($5, email_preferences.review_requests), updated_at = now() \
         RETURNING booking_confirmations, booking_reminders, marketing_emails, review_requests",
        user_id,
        c.booking_confirmations,
        c.booking_reminders,
        c.marketing_emails,
        c.review_requests,
        DEFAULTS.booking_confirmations,
        DEFAULTS.booking_reminders,
        DEFAULTS.marketing_emails,
        DEFAULTS.review_requests,
    )
    .fetch_one(db)
    .await?)
}

/// A new account's choices: the defaults, with marketing as ticked (or not) at registration.
pub async fn start(db: impl PgExecutor<'_>, user_id: Uuid, marketing_emails: bool) -> Result<()> {
    sqlx::query!(
        "INSERT INTO email_preferences (user_id, booking_confirmations, booking_reminders, marketing_emails, review_requests) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING",
        user_id,
        DEFAULTS.booking_confirmations,
        DEFAULTS.booking_reminders,
        marketing_emails,
        DEFAULTS.review_requests,
    )
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marketing_is_opt_in() {
        assert_eq!(
            DEFAULTS,
            EmailPreferences {
                booking_confirmations: true,
                booking_reminders: true,
                marketing_emails: false,
                review_requests: true,
            }
        );
    }
}
