//! Publishing real-time events to the sockets of users on every api process.
//!
//! A publisher calls `pg_notify` on [`CHANNEL`] inside its own transaction, so an event is
//! delivered only once what it announces has committed. Every api process `LISTEN`s on the
//! channel and hands each event to the local sockets it is addressed to. A payload that would
//! not fit a NOTIFY is stored in `realtime_events` and the notification carries its id.
//!
//! With `REALTIME_BUS=nats` ([`Bus::Nats`], issue 37 §2) the same calls write each event to the
//! transactional outbox instead ([`outbox`]); the api processes relay it to NATS per recipient.
//!
//! The wire format on the channel is an [`Envelope`] (or `{"sessionsEnded": [hex digests]}`,
//! sent by a trigger when sessions are deleted). What an event is and says is [`ServerEvent`]
//! ([`protocol`]); an envelope is only ever made from one.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::Result;

pub mod outbox;
pub mod protocol;
pub use protocol::{ClientEvent, ServerEvent};

/// How events travel between processes (`REALTIME_BUS`): every process that publishes (api and
/// worker) must use the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bus {
    /// `postgres` (the default): `pg_notify` in the causing transaction, `LISTEN` in every api process.
    #[default]
    Postgres,
    /// `nats`: written to the outbox in the causing transaction, relayed to NATS (`NATS_URL`).
    Nats,
}

static BUS: std::sync::OnceLock<Bus> = std::sync::OnceLock::new();

/// Sets this process's bus once, at start-up (from `Config::realtime_bus`); later calls are ignored.
pub fn use_bus(bus: Bus) {
    let _ = BUS.set(bus);
}

/// This process's bus: [`Bus::Postgres`] unless [`use_bus`] said otherwise.
pub fn bus() -> Bus {
    BUS.get().copied().unwrap_or_default()
}

/// The LISTEN/NOTIFY channel every api process listens on.
pub const CHANNEL: &str = "realtime";
/// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; larger events travel by reference.
pub const NOTIFY_LIMIT_BYTES: usize = 7000;
const POSTGRES_NOTIFY_MAX: usize = 8000;
const _: () = assert!(
    NOTIFY_LIMIT_BYTES < POSTGRES_NOTIFY_MAX,
    "the limit leaves room below PostgreSQL's own"
);

/// One event for some users' sockets, as it travels between processes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// The users whose sockets receive the event (all of their sockets unless `socket` is set).
    pub to: Vec<Uuid>,
    /// Only this socket (call signalling goes to the socket that took the call).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub socket: Option<Uuid>,
    /// Never to this socket (the sender's own socket already has what it sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub except_socket: Option<Uuid>,
    /// The group session whose members `to` are: on the NATS bus the event travels once, on the
    /// session's room subject, rather than once per member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<Uuid>,
    pub event: String,
    pub data: Value,
}

/// What arrives on the channel.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Wire {
    /// An event too large for NOTIFY: load `realtime_events` row `id`.
    Reference {
        reference: Uuid,
    },
    /// Several events in one notification (a batch of chat messages committed together), in order.
    Events {
        events: Vec<Envelope>,
    },
    /// Sessions that ended: hex SHA-256 digests of their tokens. Their sockets close.
    SessionsEnded {
        #[serde(rename = "sessionsEnded")]
        sessions_ended: Vec<String>,
    },
    Event(Envelope),
}

impl Envelope {
    /// `event` for every socket of `to`.
    pub fn to_users(to: Vec<Uuid>, event: ServerEvent) -> Self {
        let (event, data) = event.into_parts();
        Self {
            to,
            socket: None,
            except_socket: None,
            room: None,
            event,
            data,
        }
    }

    /// `event` for every socket of `members`, the members of group session `room`.
    pub fn to_room(room: Uuid, members: Vec<Uuid>, event: ServerEvent) -> Self {
        Self {
            room: Some(room),
            ..Self::to_users(members, event)
        }
    }

    /// `event` for one socket of `user` only.
    pub fn to_socket(user: Uuid, socket: Uuid, event: ServerEvent) -> Self {
        Self {
            socket: Some(socket),
            ..Self::to_users(vec![user], event)
        }
    }

    /// The frame's JSON text, `{"event": NAME, "data": {...}}`.
    pub fn frame(&self) -> String {
        serde_json::json!({ "event": self.event, "data": self.data }).to_string()
    }
}

/// Queues `envelope` for delivery when the caller's transaction commits (at once outside one).
pub async fn publish(conn: &mut PgConnection, envelope: &Envelope) -> Result<()> {
    if envelope.to.is_empty() {
        return Ok(());
    }
    if bus() == Bus::Nats {
        return outbox::write(conn, &[envelope]).await;
    }
    let payload = serde_json::to_string(envelope).map_err(anyhow::Error::from)?;
    let payload = if payload.len() <= NOTIFY_LIMIT_BYTES {
        payload
    } else {
        by_reference(conn, &payload).await?
    };
    sqlx::query!("SELECT pg_notify($1, $2)", CHANNEL, payload,)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Queues `envelopes` for delivery when the caller's transaction commits, in order, packing as
/// many as fit into each notification (`{"events": [...]}`) and sending every notification in
/// one statement; an envelope too large for a notification on its own travels by reference.
pub async fn publish_many(conn: &mut PgConnection, envelopes: &[Envelope]) -> Result<()> {
    if bus() == Bus::Nats {
        return outbox::write(conn, &envelopes.iter().collect::<Vec<_>>()).await;
    }
    let mut payloads = Vec::new();
    let mut packed = String::new();
    for envelope in envelopes.iter().filter(|e| !e.to.is_empty()) {
        let one = serde_json::to_string(envelope).map_err(anyhow::Error::from)?;
        if one.len() + EVENTS_WRAPPING_BYTES > NOTIFY_LIMIT_BYTES {
            if !packed.is_empty() {
                payloads.push(close_events(&mut packed));
            }
            payloads.push(by_reference(conn, &one).await?);
            continue;
        }
        if !packed.is_empty() && packed.len() + 1 + one.len() + EVENTS_WRAPPING_BYTES > NOTIFY_LIMIT_BYTES {
            payloads.push(close_events(&mut packed));
        }
        packed.push(if packed.is_empty() { '[' } else { ',' });
        packed.push_str(&one);
    }
    if !packed.is_empty() {
        payloads.push(close_events(&mut packed));
    }
    if payloads.is_empty() {
        return Ok(());
    }
    sqlx::query!(
        "SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t (p, n) ORDER BY n",
        CHANNEL,
        &payloads,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// `{"events":` and `}` around a packed list.
const EVENTS_WRAPPING_BYTES: usize = r#"{"events":]}"#.len();

fn close_events(packed: &mut String) -> String {
    packed.push(']');
    let payload = format!(r#"{{"events":{packed}}}"#);
    packed.clear();
    payload
}

async fn by_reference(conn: &mut PgConnection, payload: &str) -> Result<String> {
    let id: Uuid = sqlx::query_scalar!(
        "INSERT INTO realtime_events (payload) VALUES ($1::text::jsonb) RETURNING id",
        payload,
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok(serde_json::json!({ "reference": id }).to_string())
}

/// Loads an event that travelled by reference.
pub async fn load_reference(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> Result<Option<Envelope>> {
    let payload: Option<sqlx::types::Json<Envelope>> = sqlx::query_scalar!(
        r#"SELECT payload AS "payload: sqlx::types::Json<Envelope>" FROM realtime_events WHERE id = $1"#,
        id
    )
    .fetch_optional(db)
    .await?;
    Ok(payload.map(|p| p.0))
}

/// Stored large events are read within moments; the clean-up job removes them after this.
pub const STORED_EVENT_TTL: chrono::Duration = chrono::Duration::hours(1);

pub async fn delete_old_events(db: impl sqlx::PgExecutor<'_>) -> Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM realtime_events WHERE created_at < now() - $1::interval",
        crate::sql::interval(STORED_EVENT_TTL),
    )
    .execute(db)
    .await?
    .rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_tells_events_references_and_ended_sessions_apart() {
        let user = Uuid::new_v4();
        let event = Envelope::to_users(vec![user], ServerEvent::Pong(protocol::Empty {}));
        let wire: Wire = serde_json::from_str(&serde_json::to_string(&event).unwrap()).unwrap();
        assert_eq!(wire, Wire::Event(event.clone()));

        let id = Uuid::new_v4();
        let wire: Wire = serde_json::from_str(&format!(r#"{{"reference":"{id}"}}"#)).unwrap();
        assert_eq!(wire, Wire::Reference { reference: id });

        let two = vec![
            event.clone(),
            Envelope::to_users(vec![id], ServerEvent::Pong(protocol::Empty {})),
        ];
        let mut packed = String::new();
        for e in &two {
            packed.push(if packed.is_empty() { '[' } else { ',' });
            packed.push_str(&serde_json::to_string(e).unwrap());
        }
        let wire: Wire = serde_json::from_str(&close_events(&mut packed)).unwrap();
        assert_eq!(wire, Wire::Events { events: two });
        assert!(packed.is_empty());

        let wire: Wire = serde_json::from_str(r#"{"sessionsEnded":["ab","cd"]}"#).unwrap();
        assert_eq!(
            wire,
            Wire::SessionsEnded {
                sessions_ended: vec!["ab".into(), "cd".into()]
            }
        );
    }
}
