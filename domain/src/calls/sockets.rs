//! Which sockets are open on some api process. Each process refreshes its sockets' rows with
//! every ping; a row older than [`STALE_AFTER`] belongs to a process that died without closing
//! its sockets, and the calls on such a socket are over (no grace: the row went stale long after
//! [`super::CALL_RECONNECT_GRACE`]). The calls on a closed or stale socket are ended by
//! [`super::socket_closed`] and [`super::sweep_stale_sockets`]; this module knows nothing of calls.

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{Result, messaging::viewers};

/// The same limit as a conversation viewer's: three missed 30-second pings.
pub const STALE_AFTER: chrono::Duration = viewers::STALE_AFTER;

/// At most this many open sockets per user, across every api process: one browser tab holds one,
/// and a user who opens more is refused instead of taking the process's memory.
pub const MAX_SOCKETS_PER_USER: i64 = 20;

pub const TOO_MANY_SOCKETS: &str = "Too many open connections. Close some of your other tabs and try again.";

/// Holds a place for a new socket of `user` when they have fewer than `max` live ones (rows seen
/// within [`STALE_AFTER`]); false when they have that many. Users' upgrades take turns, so
/// parallel ones cannot all pass the count.
pub async fn reserve(pool: &sqlx::PgPool, socket: Uuid, user: Uuid, max: i64) -> Result<bool> {
    let mut tx = pool.begin().await?;
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtext('realtime_sockets'), hashtext($1::uuid::text))",
        user,
    )
    .execute(&mut *tx)
    .await?;
    let placed = sqlx::query!(
        "INSERT INTO realtime_sockets (socket_id, user_id) SELECT $1, $2 \
         WHERE (SELECT count(*) FROM realtime_sockets WHERE user_id = $2 AND seen_at > now() - $3::interval) < $4",
        socket,
        user,
        crate::sql::interval(STALE_AFTER),
        max,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(placed == 1)
}

pub async fn opened(db: impl PgExecutor<'_>, socket: Uuid, user: Uuid) -> Result<()> {
    sqlx::query!(
        "INSERT INTO realtime_sockets (socket_id, user_id) VALUES ($1, $2) ON CONFLICT (socket_id) DO UPDATE SET seen_at = now()",
        socket,
        user,
    )
        .execute(db)
        .await?;
    Ok(())
}

/// One process's live sockets stay fresh, their own rows and their conversation viewers', in
/// two statements however many sockets it holds.
pub async fn refresh(conn: &mut PgConnection, sockets: &[Uuid]) -> Result<()> {
    if sockets.is_empty() {
        return Ok(());
    }
    sqlx::query!(
        "UPDATE realtime_sockets SET seen_at = now() WHERE socket_id = ANY($1)",
        sockets,
    )
    .execute(&mut *conn)
    .await?;
    viewers::refresh(&mut *conn, sockets).await
}

/// A socket closed: its row goes and it views nothing any more.
pub async fn closed(conn: &mut PgConnection, socket: Uuid) -> Result<()> {
    sqlx::query!("DELETE FROM realtime_sockets WHERE socket_id = $1", socket,)
        .execute(&mut *conn)
        .await?;
    viewers::forget_socket(&mut *conn, socket).await
}

/// Forgets the sockets of processes that died; returns their ids.
pub async fn sweep_stale(conn: &mut PgConnection) -> Result<Vec<Uuid>> {
    Ok(sqlx::query_scalar!(
        "DELETE FROM realtime_sockets WHERE seen_at <= now() - $1::interval RETURNING socket_id",
        crate::sql::interval(STALE_AFTER),
    )
    .fetch_all(&mut *conn)
    .await?)
}

#[cfg(test)]
mod tests {
    #[test]
    fn sockets_go_stale_after_90_seconds() {
        assert_eq!(super::STALE_AFTER, chrono::Duration::seconds(90));
    }
}
