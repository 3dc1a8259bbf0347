//! A mentor's own CalDAV calendar (issue 33 §1): connecting it (discovery within 10 s, the
//! password sealed at rest), its calendars and their two switches (`blocksSlots`,
//! `receivesBookings`: exactly one writable calendar receives bookings), its state, and removing
//! it with every busy time read from it. Every change queues a sync (`sync`), and a change of the
//! receiving calendar moves the upcoming sessions (`writeback`).

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

pub use super::store::{CalendarRow, ConnectionRow, ConnectionState, calendars, client, row, row_of_mentor};
use super::{
    caldav::{CalDavError, Client},
    writeback,
};
use crate::{Config, Error, Result, catalogue::mentors, job_queue::Job};

pub const NOT_CONNECTED: &str = "No calendar is connected";
pub const CALENDAR_NOT_FOUND: &str = "Calendar not found";
pub const ONLY_MENTORS: &str = "Only mentors can connect a calendar";
pub const FIELDS_REQUIRED: &str = "Please enter the calendar address, user name and password";
pub const NOT_WRITABLE: &str = "This calendar cannot be written to: choose a writable one to receive bookings";
pub const ONE_RECEIVES: &str = "One calendar always receives bookings: switch it on for another calendar instead";
/// A calendar name is kept to this many characters.
pub const MAX_NAME_CHARS: usize = 200;
/// Longest user name or password accepted.
pub const MAX_CREDENTIAL_CHARS: usize = 1_000;
/// A connection failing this long is flagged on the mentor's dashboard.
pub const FLAG_FAILING_AFTER: Duration = Duration::hours(24);

#[derive(Clone, Debug)]
pub struct ConnectInput {
    pub url: String,
    pub username: String,
    pub password: String,
}

#[derive(Clone, Debug)]
pub struct ConnectionView {
    pub url: String,
    pub username: String,
    pub state: ConnectionState,
    pub error: Option<String>,
    pub last_synced_at: Option<DateTime<Utc>>,
    pub failing_since: Option<DateTime<Utc>>,
    /// Failing for [`FLAG_FAILING_AFTER`] or longer: the dashboard flags it.
    pub needs_attention: bool,
    pub calendars: Vec<CalendarRow>,
}

/// The sync of one connection: its busy times read again (queue `calendar_sync`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyncCalendar {
    pub connection_id: Uuid,
}

impl Job for SyncCalendar {
    const QUEUE: &'static str = "calendar_sync";
    const MAX_ATTEMPTS: usize = 3;
}

crate::sweep!(
    /// Every five minutes: every connection is read again.
    SweepCalendars, queue: "calendar_sync_sweep", schedule: "0 */5 * * * *"
);

async fn mentor_id_of(db: impl sqlx::PgExecutor<'_>, user_id: Uuid) -> Result<Uuid> {
    Ok(mentors::find_by_user(db, user_id)
        .await?
        .ok_or_else(|| Error::forbidden(ONLY_MENTORS))?
        .id)
}

fn view(c: ConnectionRow, calendars: Vec<CalendarRow>, now: DateTime<Utc>) -> ConnectionView {
    ConnectionView {
        needs_attention: c.state == ConnectionState::Failing
            && c.failing_since.is_some_and(|since| now - since >= FLAG_FAILING_AFTER),
        url: c.url,
        username: c.username,
        state: c.state,
        error: c.error,
        last_synced_at: c.last_synced_at,
        failing_since: c.failing_since,
        calendars,
    }
}

/// The mentor's connection as the Calendar tab shows it; 404 when none.
pub async fn get(db: &PgPool, user_id: Uuid, now: DateTime<Utc>) -> Result<ConnectionView> {
    let mut conn = db.acquire().await?;
    view_of(&mut conn, user_id, now).await
}

/// The view as `conn` sees it: a change reads its own answer inside its transaction, before the
/// worker can pick up the sync it queued and finish it (which would make a 'Sync now' answer `ok`).
async fn view_of(conn: &mut PgConnection, user_id: Uuid, now: DateTime<Utc>) -> Result<ConnectionView> {
    let mentor_id = mentor_id_of(&mut *conn, user_id).await?;
    let c = row_of_mentor(&mut *conn, mentor_id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_CONNECTED))?;
    let cals = calendars(&mut *conn, c.id).await?;
    Ok(view(c, cals, now))
}

/// Connects (or replaces) the mentor's calendar: discovers its calendars with these credentials,
/// stores them with the password sealed, and queues the first sync and the write-back of the
/// upcoming sessions. Refusals (400) say what the server answered.
pub async fn connect(
    db: &PgPool,
    config: &Config,
    user_id: Uuid,
    input: ConnectInput,
    now: DateTime<Utc>,
) -> Result<ConnectionView> {
    let mentor_id = mentor_id_of(db, user_id).await?;
    let (url, username) = (input.url.trim().to_string(), input.username.trim().to_string());
    if url.is_empty() || username.is_empty() || input.password.is_empty() {
        return Err(Error::validation(FIELDS_REQUIRED));
    }
    if username.chars().count() > MAX_CREDENTIAL_CHARS || input.password.chars().count() > MAX_CREDENTIAL_CHARS {
        return Err(Error::validation(
            "The user name and password must be at most 1000 characters",
        ));
    }
    let client = Client::new(config.caldav_policy(), &username, &input.password)?;
    let found = client.discover(&url).await.map_err(|e| match e {
        CalDavError::Credentials => Error::validation(super::caldav::WRONG_CREDENTIALS),
        CalDavError::Failed(msg) => Error::validation(msg),
    })?;
    let sealed = config.secrets_key.seal(&input.password);
    let mut tx = db.begin().await?;
    sqlx::query!("DELETE FROM calendar_connections WHERE mentor_id = $1", mentor_id,)
        .execute(&mut *tx)
        .await?;
    let id: Uuid = sqlx::query_scalar!(
        "INSERT INTO calendar_connections (mentor_id, url, username, password_sealed, state) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
        mentor_id,
        &url,
        &username,
        &sealed,
        ConnectionState::Syncing.as_str(),
    )
    .fetch_one(&mut *tx)
    .await?;
    let receiving = found.iter().position(|c| c.writable);
    for (i, cal) in found.iter().enumerate() {
        sqlx::query!(
        "INSERT INTO calendar_connection_calendars (connection_id, href, name, writable, receives_bookings, position) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (connection_id, href) DO NOTHING",
        id,
        &cal.href,
        cal.name.chars().take(MAX_NAME_CHARS).collect::<String>(),
        cal.writable,
        Some(i) == receiving,
        i as i32,
    )
        .execute(&mut *tx)
        .await?;
    }
    SyncCalendar { connection_id: id }.enqueue(&mut tx).await?;
    writeback::enqueue_upcoming(&mut tx, mentor_id, now).await?;
    let answer = view_of(&mut tx, user_id, now).await?;
    tx.commit().await?;
    tracing::info!(%mentor_id, calendars = found.len(), "calendar connected");
    Ok(answer)
}

/// Changes one calendar's switches and queues a sync (and, when the receiving calendar changed,
/// the move of the upcoming sessions to it).
pub async fn update_calendar(
    db: &PgPool,
    user_id: Uuid,
    calendar_id: Uuid,
    blocks_slots: Option<bool>,
    receives_bookings: Option<bool>,
    now: DateTime<Utc>,
) -> Result<ConnectionView> {
    let mentor_id = mentor_id_of(db, user_id).await?;
    let mut tx = db.begin().await?;
    let found = sqlx::query!(
        "SELECT c.connection_id, c.writable, c.receives_bookings FROM calendar_connection_calendars c \
         JOIN calendar_connections k ON k.id = c.connection_id WHERE c.id = $1 AND k.mentor_id = $2 FOR UPDATE OF k",
        calendar_id,
        mentor_id,
    )
    .fetch_optional(&mut *tx)
    .await?
    .map(|r| (r.connection_id, r.writable, r.receives_bookings));
    let (connection_id, writable, receiving) = found.ok_or_else(|| Error::not_found(CALENDAR_NOT_FOUND))?;
    if let Some(blocks) = blocks_slots {
        sqlx::query!(
            "UPDATE calendar_connection_calendars SET blocks_slots = $2 WHERE id = $1",
            calendar_id,
            blocks,
        )
        .execute(&mut *tx)
        .await?;
        if !blocks {
            // Its busy times stop blocking at once, not at the next sync.
            sqlx::query!("DELETE FROM calendar_busy_times WHERE calendar_id = $1", calendar_id)
                .execute(&mut *tx)
                .await?;
        }
    }
    let mut moved = false;
    match receives_bookings {
        Some(true) if !receiving => {
            if !writable {
                return Err(Error::validation(NOT_WRITABLE));
            }
            sqlx::query!(
        "UPDATE calendar_connection_calendars SET receives_bookings = false WHERE connection_id = $1 AND receives_bookings",
        connection_id,
    )
            .execute(&mut *tx)
            .await?;
            sqlx::query!(
                "UPDATE calendar_connection_calendars SET receives_bookings = true WHERE id = $1",
                calendar_id,
            )
            .execute(&mut *tx)
            .await?;
            moved = true;
        }
        Some(false) if receiving => return Err(Error::validation(ONE_RECEIVES)),
        _ => {}
    }
    sqlx::query!(
        "UPDATE calendar_connections SET state = $2 WHERE id = $1",
        connection_id,
        ConnectionState::Syncing.as_str(),
    )
    .execute(&mut *tx)
    .await?;
    SyncCalendar { connection_id }.enqueue(&mut tx).await?;
    if moved {
        writeback::enqueue_upcoming(&mut tx, mentor_id, now).await?;
    }
    let answer = view_of(&mut tx, user_id, now).await?;
    tx.commit().await?;
    Ok(answer)
}

/// 'Sync now': queues a sync of the mentor's connection.
pub async fn request_sync(db: &PgPool, user_id: Uuid, now: DateTime<Utc>) -> Result<ConnectionView> {
    let mentor_id = mentor_id_of(db, user_id).await?;
    let mut tx = db.begin().await?;
    let id: Uuid = sqlx::query_scalar!(
        "UPDATE calendar_connections SET state = $2 WHERE mentor_id = $1 RETURNING id",
        mentor_id,
        ConnectionState::Syncing.as_str(),
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found(NOT_CONNECTED))?;
    SyncCalendar { connection_id: id }.enqueue(&mut tx).await?;
    let answer = view_of(&mut tx, user_id, now).await?;
    tx.commit().await?;
    Ok(answer)
}

/// Removes the connection, its calendars and every busy time read from them.
pub async fn disconnect(db: &PgPool, user_id: Uuid) -> Result<()> {
    let mentor_id = mentor_id_of(db, user_id).await?;
    sqlx::query!("DELETE FROM calendar_connections WHERE mentor_id = $1", mentor_id,)
        .execute(db)
        .await?;
    Ok(())
}

/// Every connection (the five-minute sweep queues a sync of each).
pub async fn all_ids(db: &PgPool) -> Result<Vec<Uuid>> {
    Ok(sqlx::query_scalar!("SELECT id FROM calendar_connections ORDER BY id",)
        .fetch_all(db)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(state: ConnectionState, failing_for: Option<Duration>, now: DateTime<Utc>) -> ConnectionRow {
        ConnectionRow {
            id: Uuid::nil(),
            mentor_id: Uuid::nil(),
            url: "https://cal.example/".into(),
            username: "me".into(),
            password_sealed: vec![],
            state,
            error: None,
            last_synced_at: None,
            failing_since: failing_for.map(|d| now - d),
            failure_notified: false,
        }
    }

    #[test]
    fn a_connection_failing_a_day_needs_attention() {
        let now = Utc::now();
        assert_eq!(FLAG_FAILING_AFTER, Duration::hours(24));
        let v = |s, d| view(row(s, d, now), vec![], now).needs_attention;
        assert!(!v(ConnectionState::Failing, Some(Duration::hours(23))));
        assert!(v(ConnectionState::Failing, Some(Duration::hours(24))));
        assert!(!v(ConnectionState::Ok, None));
    }
}
