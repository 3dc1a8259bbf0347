//! The transactional outbox of the NATS bus (`REALTIME_BUS=nats`, issue 37 §2).
//!
//! A publisher writes each event here inside the transaction that causes it, so an event exists
//! only once its cause has committed and stays until a relay has handed it to NATS: a process that
//! dies before relaying leaves the row for another. A relay ([`claim`], `FOR UPDATE SKIP LOCKED`, so
//! two relays never publish a row at once) publishes the rows and marks them sent ([`mark_sent`]) in
//! the same transaction. Every api process has a relay and one works at a time, the one holding
//! [`try_to_relay`]'s lock, so the cost of polling does not grow with the number of processes (the
//! others stand by and one takes over when its session ends). Sent rows
//! stay [`KEEP_SENT`] so that a consumer that lost its NATS connection can catch up ([`recent_for`]),
//! then [`prune`] removes them.

use sqlx::PgConnection;
use uuid::Uuid;

use super::Envelope;
use crate::Result;

/// Sent rows stay this long: consumers that lost NATS for less catch up from them.
pub const KEEP_SENT: chrono::Duration = chrono::Duration::minutes(10);
/// Rows one prune deletes at most (it runs again soon after).
pub const PRUNE_BATCH: i64 = 10_000;

/// One claimed event: its id (the event id consumers deduplicate by), the envelope as JSON text,
/// and how long it waited since it was written.
#[derive(Clone, Debug)]
pub struct Row {
    pub id: i64,
    pub payload: String,
    pub waited_seconds: f64,
}

/// Writes `envelopes` (those with recipients) in order, in the caller's transaction.
pub async fn write(conn: &mut PgConnection, envelopes: &[&Envelope]) -> Result<()> {
    let payloads = envelopes
        .iter()
        .filter(|e| !e.to.is_empty())
        .map(serde_json::to_string)
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(anyhow::Error::from)?;
    if payloads.is_empty() {
        return Ok(());
    }
    sqlx::query!(
        "INSERT INTO realtime_outbox (payload)
         SELECT p::jsonb FROM unnest($1::text[]) WITH ORDINALITY AS t (p, n) ORDER BY n",
        &payloads,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Claims up to `limit` unsent events, oldest first, skipping those another relay holds; they stay
/// claimed until the caller's transaction ends.
pub async fn claim(conn: &mut PgConnection, limit: i64) -> Result<Vec<Row>> {
    Ok(sqlx::query_as!(
        Row,
        r#"SELECT id, payload::text AS "payload!",
                  EXTRACT(EPOCH FROM clock_timestamp() - created_at)::float8 AS "waited_seconds!"
           FROM realtime_outbox WHERE sent_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED"#,
        limit,
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// Takes the relay's lock for this session if no other session holds it; whether this session
/// holds it now. Session-level, so it is released when the connection closes: a relay whose process
/// dies hands over. Run it on a connection of its own, outside any pool, kept open while relaying.
/// Relays standing by try again and again rather than wait on `pg_advisory_lock`: a statement waiting
/// for a lock holds its snapshot, and that would keep every row the working relay marks sent from
/// being cleaned up, each claim walking past all of them.
pub async fn try_to_relay(conn: &mut PgConnection) -> Result<bool> {
    Ok(
        sqlx::query_scalar!(r#"SELECT pg_try_advisory_lock(hashtext('realtime_outbox_relay')) AS "locked!""#)
            .fetch_one(&mut *conn)
            .await?,
    )
}

pub async fn mark_sent(conn: &mut PgConnection, ids: &[i64]) -> Result<()> {
    sqlx::query!(
        "UPDATE realtime_outbox SET sent_at = clock_timestamp() WHERE id = ANY($1)",
        ids
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// An event read back for a consumer's catch-up.
#[derive(Clone, Debug)]
pub struct Recent {
    pub id: i64,
    pub envelope: Envelope,
    /// When a relay marked it sent (after NATS had it); none while it waits for a relay.
    pub sent_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// Events written within `window` for any of `users`, sent or not, oldest first.
pub async fn recent_for(
    db: impl sqlx::PgExecutor<'_>,
    window: chrono::Duration,
    users: &[Uuid],
) -> Result<Vec<Recent>> {
    let users: Vec<String> = users.iter().map(Uuid::to_string).collect();
    let rows = sqlx::query!(
        r#"SELECT id, payload AS "payload: sqlx::types::Json<Envelope>", sent_at FROM realtime_outbox
           WHERE created_at >= clock_timestamp() - $1::interval AND payload -> 'to' ?| $2::text[]
           ORDER BY id"#,
        crate::sql::interval(window),
        &users,
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Recent {
            id: r.id,
            envelope: r.payload.0,
            sent_at: r.sent_at,
        })
        .collect())
}

/// Unsent events now, and the age in seconds of the oldest (0 without any).
pub async fn backlog(db: impl sqlx::PgExecutor<'_>) -> Result<(i64, f64)> {
    let row = sqlx::query!(
        r#"SELECT count(*) AS "count!",
                  COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - min(created_at)), 0)::float8 AS "oldest!"
           FROM realtime_outbox WHERE sent_at IS NULL"#
    )
    .fetch_one(db)
    .await?;
    Ok((row.count, row.oldest))
}

/// Events written in the last `window`, sent or not: the bus's traffic.
pub async fn written_within(db: impl sqlx::PgExecutor<'_>, window: chrono::Duration) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT count(*) AS "count!" FROM realtime_outbox WHERE created_at >= clock_timestamp() - $1::interval"#,
        crate::sql::interval(window),
    )
    .fetch_one(db)
    .await?)
}

/// Deletes up to [`PRUNE_BATCH`] events sent more than [`KEEP_SENT`] ago; the number deleted.
pub async fn prune(db: impl sqlx::PgExecutor<'_>) -> Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM realtime_outbox WHERE id IN (
             SELECT id FROM realtime_outbox
             WHERE created_at < clock_timestamp() - $1::interval AND sent_at IS NOT NULL
             LIMIT $2)",
        crate::sql::interval(KEEP_SENT),
        PRUNE_BATCH,
    )
    .execute(db)
    .await?
    .rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sent_events_stay_ten_minutes_for_catching_up() {
        assert_eq!(KEEP_SENT, chrono::Duration::minutes(10));
        assert_eq!(PRUNE_BATCH, 10_000);
    }
}
