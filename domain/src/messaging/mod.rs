//! Conversations between a mentor and a client: messages, read receipts, typing, who is viewing
//! a thread. One-to-one calls are in [`crate::calls`]. Every event goes out through [`crate::realtime::publish`] in
//! the transaction that stores its cause.

/// Messaging statements checked at compile time: in `[...]`, the SQL as literals joined by `+`,
/// where `FIELDS` stands for `SELECT <Message columns>` from `x` (a message) and `u` (its sender),
/// and `VIEWING("conversation", "user", "stale_after")` for SQL true when the user has the
/// conversation open on a live socket (the arguments are SQL expressions, `stale_after` an interval).
macro_rules! messaging_sql {
    (@go $out:tt [$($done:tt)*] [FIELDS $($rest:tt)*] $args:tt) => {
        messaging_sql!(@go $out [$($done)*
            r#"SELECT x.id AS "id!", x.conversation_id AS "conversation_id!", x.sender_id AS "sender_id!",
                u.first_name AS "sender_first_name!", u.last_name AS "sender_last_name!",
                u.profile_image_url AS sender_profile_image_url, x.content AS "content!",
                x.message_type AS "message_type!: crate::messaging::messages::MessageType", x.client_id,
                x.is_read AS "is_read!", x.created_at AS "created_at!", x.instant_session_id"#] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [VIEWING($conversation:literal, $user:literal, $stale:literal) $($rest:tt)*] $args:tt) => {
        messaging_sql!(@go $out [$($done)*
            "EXISTS (SELECT 1 FROM conversation_viewers WHERE conversation_id = " + $conversation + " AND user_id = "
            + $user + " AND seen_at > now() - " + $stale + "::interval)"] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [$t:tt $($rest:tt)*] $args:tt) => {
        messaging_sql!(@go $out [$($done)* $t] [$($rest)*] $args)
    };
    (@go query [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query!($($done)* $($args)*) };
    (@go scalar [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_scalar!($($done)* $($args)*) };
    (@go (as $ty:path) [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_as!($ty, $($done)* $($args)*) };
    ($out:tt [$($sql:tt)*] $($args:tt)*) => { messaging_sql!(@go $out [] [$($sql)*] [$($args)*]) };
}

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
