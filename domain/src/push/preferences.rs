//! Which pushes a user wants (`GET/PUT /api/user/push-preferences`): one switch per family of
//! [`super::Preference`], all on until the user says otherwise.

use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushPreferences {
    pub calls: bool,
    pub messages: bool,
    pub bookings: bool,
    pub reminders: bool,
    pub group_sessions: bool,
}

pub const DEFAULTS: PushPreferences = PushPreferences {
    calls: true,
    messages: true,
    bookings: true,
    reminders: true,
    group_sessions: true,
};

pub const NOTHING_TO_CHANGE: &str = "Send at least one preference to change";

#[derive(Clone, Copy, Debug, Default)]
pub struct Changes {
    pub calls: Option<bool>,
    pub messages: Option<bool>,
    pub bookings: Option<bool>,
    pub reminders: Option<bool>,
    pub group_sessions: Option<bool>,
}

pub async fn get(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<PushPreferences> {
    let row = sqlx::query_as!(
        PushPreferences,
        "SELECT calls, messages, bookings, reminders, group_sessions FROM push_preferences WHERE user_id = $1",
        user_id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.unwrap_or(DEFAULTS))
}

/// Changes the switches sent, keeps the others; all five after the change.
pub async fn update(db: impl PgExecutor<'_>, user_id: Uuid, c: Changes) -> Result<PushPreferences> {
    if c.calls.is_none()
        && c.messages.is_none()
        && c.bookings.is_none()
        && c.reminders.is_none()
        && c.group_sessions.is_none()
    {
        return Err(Error::validation(NOTHING_TO_CHANGE));
    }
    Ok(sqlx::query_as!(
        PushPreferences,
        "INSERT INTO push_preferences (user_id, calls, messages, bookings, reminders, group_sessions) \
         VALUES ($1, coalesce($2, true), coalesce($3, true), coalesce($4, true), coalesce($5, true), coalesce($6, true)) \
         ON CONFLICT (user_id) DO UPDATE SET \
           calls = coalesce($2, push_preferences.calls), messages = coalesce($3, push_preferences.messages), \
           bookings = coalesce($4, push_preferences.bookings), reminders = coalesce($5, push_preferences.reminders), \
           group_sessions = coalesce($6, push_preferences.group_sessions), updated_at = now() \
         RETURNING calls, messages, bookings, reminders, group_sessions",
        user_id,
        c.calls,
        c.messages,
        c.bookings,
        c.reminders,
        c.group_sessions,
    )
    .fetch_one(db)
    .await?)
}
