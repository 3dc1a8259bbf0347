//! A mentor's stored calendar connection and its calendars, as the connection's rules, the sync
//! and the write-back read them.

use chrono::{DateTime, Utc};
use sqlx::FromRow;
use uuid::Uuid;

use super::caldav::Client;
use crate::{Config, Result};

closed_set! {
    /// `calendar_connections.state`.
    #[cfg_attr(feature = "openapi", oai(rename = "CalendarConnectionState"))]
    pub enum ConnectionState ("calendar connection state") {
        Ok = "ok",
        /// A sync is queued or running (after connecting, a change, or 'Sync now').
        Syncing = "syncing",
        /// The last sync failed; the busy times of the last success stay in force.
        Failing = "failing",
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct CalendarRow {
    pub id: Uuid,
    pub name: String,
    pub href: String,
    pub writable: bool,
    pub blocks_slots: bool,
    pub receives_bookings: bool,
}

#[derive(Clone, Debug, FromRow)]
pub struct ConnectionRow {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub url: String,
    pub username: String,
    pub password_sealed: Vec<u8>,
    pub state: ConnectionState,
    pub error: Option<String>,
    pub last_synced_at: Option<DateTime<Utc>>,
    pub failing_since: Option<DateTime<Utc>>,
    pub failure_notified: bool,
}

pub async fn row_of_mentor(db: impl sqlx::PgExecutor<'_>, mentor_id: Uuid) -> Result<Option<ConnectionRow>> {
    Ok(sqlx::query_as!(
        ConnectionRow,
        r#"SELECT id, mentor_id, url, username, password_sealed, state AS "state: ConnectionState", error, last_synced_at, failing_since, failure_notified FROM calendar_connections WHERE mentor_id = $1"#,
        mentor_id,
    )
    .fetch_optional(db)
    .await?)
}

pub async fn row(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> Result<Option<ConnectionRow>> {
    Ok(sqlx::query_as!(
        ConnectionRow,
        r#"SELECT id, mentor_id, url, username, password_sealed, state AS "state: ConnectionState", error, last_synced_at, failing_since, failure_notified FROM calendar_connections WHERE id = $1"#,
        id,
    )
    .fetch_optional(db)
    .await?)
}

pub async fn calendars(db: impl sqlx::PgExecutor<'_>, connection_id: Uuid) -> Result<Vec<CalendarRow>> {
    Ok(sqlx::query_as!(
        CalendarRow,
        "SELECT id, name, href, writable, blocks_slots, receives_bookings FROM calendar_connection_calendars \
         WHERE connection_id = $1 ORDER BY position",
        connection_id,
    )
    .fetch_all(db)
    .await?)
}

/// The client of a stored connection (its password opened with `SECRETS_KEY`).
pub fn client(config: &Config, c: &ConnectionRow) -> anyhow::Result<Client> {
    let password = config.secrets_key.open(&c.password_sealed)?;
    Client::new(config.caldav_policy(), &c.username, &password)
}
