//! Conversations between a mentor and a client: messages, read receipts, typing, who is viewing
//! a thread. One-to-one calls are in [`crate::calls`]. Every event goes out through [`crate::realtime::publish`] in
//! the transaction that stores its cause.

pub mod conversations;
pub mod messages;
pub mod viewers;

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    Result,
    realtime::{self, Envelope, ServerEvent},
};

/// Publishes `event` to every socket of `to`.
pub(crate) async fn publish(conn: &mut PgConnection, to: Vec<Uuid>, event: ServerEvent) -> Result<()> {
    realtime::publish(conn, &Envelope::to_users(to, event)).await
}

/// Publishes `event` to one socket of `user` only.
pub(crate) async fn publish_to_socket(
    conn: &mut PgConnection,
    user: Uuid,
    socket: Uuid,
    event: ServerEvent,
) -> Result<()> {
    realtime::publish(conn, &Envelope::to_socket(user, socket, event)).await
}
