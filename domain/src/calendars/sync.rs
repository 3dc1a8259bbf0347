//! Reading a connection's busy times (issue 33 §2): every event of its calendars marked
//! `blocksSlots` from the start of yesterday to [`READ_AHEAD_DAYS`] ahead, expanded into busy
//! intervals (`busy_events`) and stored in place of the ones read before, all in one transaction.
//!
//! A failing server never stops booking: the busy times of the last success stay, the connection
//! becomes `failing` with the server's error (its `lastSyncedAt` is the last success), and the
//! mentor is notified once per failure streak (`calendar_failing`).

use chrono::{DateTime, Duration, Utc};
use jiff::tz::TimeZone;
use sqlx::PgPool;
use uuid::Uuid;

use super::{
    busy_events::{self, Interval},
    caldav::CalDavError,
    store::{self as connection, ConnectionState},
};
use crate::{Config, Result, notifications};

/// How far ahead busy times are read.
pub const READ_AHEAD_DAYS: i64 = 90;
/// How far back (today's all-day events and sessions running now).
pub const READ_BEHIND: Duration = Duration::days(1);
/// Longest error text kept from a server.
pub const MAX_ERROR_CHARS: usize = 500;

pub const FAILING_TITLE: &str = "Your calendar cannot be read";
pub const CALENDAR_LINK: &str = "/mentor-dashboard?tab=calendar";

pub fn failing_message(error: &str) -> String {
    format!(
        "We could not read your calendar: {error} The busy times read before still block your slots. \
         Check the connection on your dashboard's Calendar tab."
    )
}

#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Busy intervals stored.
    Synced(usize),
    Failed(String),
    /// The connection is gone.
    Gone,
}

/// Syncs one connection now.
pub async fn run(db: &PgPool, config: &Config, connection_id: Uuid, now: DateTime<Utc>) -> Result<Outcome> {
    let Some(c) = connection::row(db, connection_id).await? else {
        return Ok(Outcome::Gone);
    };
    let time_zone: String = sqlx::query_scalar!("SELECT time_zone FROM mentors WHERE id = $1", c.mentor_id,)
        .fetch_one(db)
        .await?;
    let zone = TimeZone::get(&time_zone).unwrap_or(TimeZone::UTC);
    let calendars: Vec<connection::CalendarRow> = connection::calendars(db, c.id)
        .await?
        .into_iter()
        .filter(|c| c.blocks_slots)
        .collect();
    let read = read_busy(config, &c, &calendars, &zone, now).await;
    let mut tx = db.begin().await?;
    // The connection may have been replaced or removed meanwhile: then nothing is stored.
    let notified: Option<bool> = sqlx::query_scalar!(
        "SELECT failure_notified FROM calendar_connections WHERE id = $1 FOR UPDATE",
        c.id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(notified) = notified else {
        return Ok(Outcome::Gone);
    };
    let outcome = match read {
        Ok(busy) => {
            sqlx::query!(
                "DELETE FROM calendar_busy_times WHERE calendar_id IN \
                   (SELECT id FROM calendar_connection_calendars WHERE connection_id = $1)",
                c.id,
            )
            .execute(&mut *tx)
            .await?;
            let ids: Vec<Uuid> = busy.iter().map(|(cal, _)| *cal).collect();
            let starts: Vec<DateTime<Utc>> = busy.iter().map(|(_, (s, _))| *s).collect();
            let ends: Vec<DateTime<Utc>> = busy.iter().map(|(_, (_, e))| *e).collect();
            // Only calendars that still block slots (a switch may have changed during the read).
            sqlx::query!(
        "INSERT INTO calendar_busy_times (calendar_id, mentor_id, starts_at, ends_at) \
                 SELECT t.calendar_id, $2, t.starts_at, t.ends_at \
                 FROM UNNEST($3::uuid[], $4::timestamptz[], $5::timestamptz[]) AS t(calendar_id, starts_at, ends_at) \
                 JOIN calendar_connection_calendars c ON c.id = t.calendar_id AND c.connection_id = $1 AND c.blocks_slots",
        c.id,
        c.mentor_id,
        &ids,
        &starts,
        &ends,
    )
            .execute(&mut *tx)
            .await?;
            sqlx::query!(
                "UPDATE calendar_connections SET state = $2, error = NULL, last_synced_at = $3, failing_since = NULL, \
                   failure_notified = false WHERE id = $1",
                c.id,
                ConnectionState::Ok.as_str(),
                now,
            )
            .execute(&mut *tx)
            .await?;
            Outcome::Synced(busy.len())
        }
        Err(error) => {
            let error: String = error.chars().take(MAX_ERROR_CHARS).collect();
            sqlx::query!(
                "UPDATE calendar_connections SET state = $2, error = $3, failing_since = COALESCE(failing_since, $4), \
                   failure_notified = true WHERE id = $1",
                c.id,
                ConnectionState::Failing.as_str(),
                &error,
                now,
            )
            .execute(&mut *tx)
            .await?;
            if !notified {
                let user_id: Uuid = sqlx::query_scalar!("SELECT user_id FROM mentors WHERE id = $1", c.mentor_id,)
                    .fetch_one(&mut *tx)
                    .await?;
                notifications::notify(
                    &mut tx,
                    user_id,
                    notifications::Kind::CalendarFailing,
                    FAILING_TITLE,
                    &failing_message(&error),
                    Some(CALENDAR_LINK),
                )
                .await?;
            }
            Outcome::Failed(error)
        }
    };
    tx.commit().await?;
    Ok(outcome)
}

/// Every busy interval of the blocking calendars, by calendar; the first failure ends the read.
async fn read_busy(
    config: &Config,
    c: &connection::ConnectionRow,
    calendars: &[connection::CalendarRow],
    zone: &TimeZone,
    now: DateTime<Utc>,
) -> std::result::Result<Vec<(Uuid, Interval)>, String> {
    let client = connection::client(config, c).map_err(|e| {
        tracing::error!(error = %e, connection = %c.id, "calendar client");
        "The stored password cannot be read: connect the calendar again.".to_string()
    })?;
    let (from, to) = (now - READ_BEHIND, now + Duration::days(READ_AHEAD_DAYS));
    let mut out = Vec::new();
    for cal in calendars {
        let objects = client.events(&cal.href, from, to).await.map_err(|e| match e {
            CalDavError::Credentials => super::caldav::WRONG_CREDENTIALS.to_string(),
            CalDavError::Failed(msg) => msg,
        })?;
        for ics in objects {
            match busy_events::busy_intervals(&ics, zone, from, to) {
                Ok(found) => out.extend(found.into_iter().map(|i| (cal.id, i))),
                // One event we cannot read does not hide the others.
                Err(error) => tracing::warn!(calendar = %cal.id, %error, "an unreadable calendar object was skipped"),
            }
        }
    }
    Ok(out)
}
