//! Which sockets are viewing which conversation. A recipient viewing the conversation gets no
//! new_message notification. Rows are refreshed while their socket lives; a row not refreshed
//! for [`STALE_AFTER`] (its api process died) no longer counts and is cleaned up.

use chrono::Duration;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::conversations;
use crate::Result;

/// A viewer row not refreshed for this long no longer counts.
pub const STALE_AFTER: Duration = Duration::seconds(90);

/// `me`'s socket joins a conversation of theirs (anyone else's is not found).
pub async fn join(conn: &mut PgConnection, me: Uuid, socket: Uuid, conversation: Uuid) -> Result<()> {
    conversations::parties(&mut *conn, me, conversation).await?;
    sqlx::query!(
        "INSERT INTO conversation_viewers (socket_id, conversation_id, user_id) VALUES ($1, $2, $3) \
         ON CONFLICT (socket_id, conversation_id) DO UPDATE SET seen_at = now()",
        socket,
        conversation,
        me,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn leave(db: impl PgExecutor<'_>, socket: Uuid, conversation: Uuid) -> Result<()> {
    sqlx::query!(
        "DELETE FROM conversation_viewers WHERE socket_id = $1 AND conversation_id = $2",
        socket,
        conversation,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Keeps live sockets' rows fresh.
pub async fn refresh(db: impl PgExecutor<'_>, sockets: &[Uuid]) -> Result<()> {
    sqlx::query!(
        "UPDATE conversation_viewers SET seen_at = now() WHERE socket_id = ANY($1)",
        sockets,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A closed socket views nothing.
pub async fn forget_socket(db: impl PgExecutor<'_>, socket: Uuid) -> Result<()> {
    sqlx::query!("DELETE FROM conversation_viewers WHERE socket_id = $1", socket,)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn is_viewing(db: impl PgExecutor<'_>, conversation: Uuid, user: Uuid) -> Result<bool> {
    Ok(messaging_sql!(
        scalar[r#"SELECT "# + VIEWING("$1", "$2", "$3") + r#" AS "viewing!""#],
        conversation,
        user,
        crate::sql::interval(STALE_AFTER),
    )
    .fetch_one(db)
    .await?)
}

pub async fn delete_stale(db: impl PgExecutor<'_>) -> Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM conversation_viewers WHERE seen_at <= now() - $1::interval",
        crate::sql::interval(STALE_AFTER),
    )
    .execute(db)
    .await?
    .rows_affected())
}
