//! The outbox relay of the NATS bus: one in every api process, one of them working at a time
//! (issue 37 §2).
//!
//! The relay that holds the outbox's relay lock ([`outbox::try_to_relay`], a session-level advisory
//! lock on a connection of its own) works; the others try to take it every [`STANDBY_POLL_EVERY`],
//! and one of them does once the holder's session ends (its process stopped or died, its database
//! connection broke) or it steps down because it lost NATS for [`STEP_DOWN_AFTER`]. One relay at a
//! time keeps the cost of relaying (a transaction per round, a round at most every [`POLL_EVERY`])
//! the same however many api processes run; with a relay in each, every process polled and the
//! rounds shrank as processes were added. `realtime_relay_leading` is 1 on the process that relays.
//!
//! The relay runs on a thread of its own, with its own small pool and NATS connection: a busy
//! process's hundreds of socket tasks would otherwise queue ahead of each step of its rounds and of
//! its NATS connection's writes, and one relay carries the whole cluster's events.
//!
//! Each round claims up to [`BATCH`] unsent events (`FOR UPDATE SKIP LOCKED`, so two relays never
//! publish a row at once, even in the moment of a hand-over), publishes each to its recipients'
//! subjects, waits until NATS has them ([`ConfirmingClient::confirm`]) and marks them sent in the
//! same transaction. If this process dies or NATS does not confirm, the transaction rolls back and
//! the rows wait for the next round: an event is published at least once, and consumers drop the
//! repeats. A round that found less than a full batch is followed by the next [`POLL_EVERY`] after
//! it started (at once after a full one); old sent events are pruned every [`PRUNE_EVERY`].
//!
//! No NOTIFY wakes it: NOTIFY serialises every committing transaction that sends one, which is what
//! the bus is here to avoid (issue 37).

use std::{sync::Arc, time::Duration};

use async_nats::HeaderMap;
use domain::realtime::outbox;
use sqlx::{Connection, PgConnection, PgPool, postgres::PgPoolOptions};
use tokio::time::Instant;
use uuid::Uuid;

use super::{
    confirming::ConfirmingClient,
    nats::{EVENT_ID_HEADER, room_subject, user_subject},
};

/// Events one round claims at most.
pub const BATCH: i64 = 500;
/// The wait between rounds that found less than a full batch. The relay's p99 is at most this plus
/// a round's time: the target is 50 ms (issue 37).
pub const POLL_EVERY: Duration = Duration::from_millis(20);
pub const RELAY_LAG_TARGET: Duration = Duration::from_millis(50);
const _: () = assert!(POLL_EVERY.as_millis() * 2 <= RELAY_LAG_TARGET.as_millis());
/// The wait after a failed round (database or NATS down), while NATS is not connected, and before
/// waiting for the relay lock again.
pub const RETRY_AFTER: Duration = Duration::from_millis(250);
/// How often this relay deletes events sent more than `outbox::KEEP_SENT` ago.
pub const PRUNE_EVERY: Duration = Duration::from_secs(60);
/// The relay steps down when its process has not been connected to NATS for this long, so that a
/// process that is can relay.
pub const STEP_DOWN_AFTER: Duration = Duration::from_secs(1);
/// How often a relay standing by tries to take the relay lock: a hand-over takes at most this.
pub const STANDBY_POLL_EVERY: Duration = Duration::from_millis(250);
/// How often the working relay checks that the connection holding its lock still answers (when it
/// broke, the lock is gone and another relay may be working).
pub const CHECK_LOCK_EVERY: Duration = Duration::from_secs(1);
/// The relay's own pool: a round's transaction, and a prune or a backlog look beside it.
pub const POOL_SIZE: u32 = 2;

/// Starts the relay on its own thread for as long as the process lives: it connects to NATS at
/// `nats_url` and to the database as `pool` does, waits for its turn, relays, and waits again when
/// it stepped down.
pub fn start(pool: &PgPool, nats_url: &str) -> anyhow::Result<()> {
    let options = pool.connect_options().as_ref().clone();
    let nats_url = nats_url.to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    std::thread::Builder::new()
        .name("realtime-relay".into())
        .spawn(move || {
            runtime.block_on(async move {
                let pool = PgPoolOptions::new()
                    .max_connections(POOL_SIZE)
                    .connect_lazy_with(options);
                let nats = async_nats::ConnectOptions::new()
                    .name("mystic-mentors-relay")
                    .retry_on_initial_connect();
                match ConfirmingClient::connect(nats, &nats_url).await {
                    Ok(nats) => take_turns(pool, nats).await,
                    Err(err) => tracing::error!(error = %format!("{err:#}"), "the real-time relay cannot start"),
                }
            })
        })?;
    Ok(())
}

async fn take_turns(pool: PgPool, nats: Arc<ConfirmingClient>) {
    let leading = metrics::gauge!("realtime_relay_leading");
    leading.set(0.0);
    loop {
        let lock = match take_turn(&pool, &nats).await {
            Ok(lock) => lock,
            Err(err) => {
                tracing::warn!(error = %format!("{err:#}"), "real-time relay cannot wait for its turn");
                tokio::time::sleep(RETRY_AFTER).await;
                continue;
            }
        };
        leading.set(1.0);
        tracing::info!("this process relays the real-time outbox");
        let why = relay(&pool, &nats, lock).await;
        leading.set(0.0);
        tracing::info!(reason = why, "this process stops relaying the real-time outbox");
        tokio::time::sleep(RETRY_AFTER).await;
    }
}

/// A connection of its own that holds the relay lock once this returns: tried every
/// [`STANDBY_POLL_EVERY`] while another relay holds it or this process is away from NATS.
async fn take_turn(pool: &PgPool, nats: &ConfirmingClient) -> anyhow::Result<PgConnection> {
    let mut lock = PgConnection::connect_with(&pool.connect_options()).await?;
    loop {
        if nats.connected() && outbox::try_to_relay(&mut lock).await? {
            return Ok(lock);
        }
        tokio::time::sleep(STANDBY_POLL_EVERY).await;
    }
}

/// Relays until this process should step down; closing `lock` (dropping it) hands over.
async fn relay(pool: &PgPool, nats: &ConfirmingClient, mut lock: PgConnection) -> &'static str {
    let mut pruned_at = Instant::now();
    let mut checked_at = Instant::now();
    let mut disconnected_at: Option<Instant> = None;
    let mut quiet = false;
    loop {
        if !nats.connected() {
            if disconnected_at.get_or_insert_with(Instant::now).elapsed() >= STEP_DOWN_AFTER {
                return "not connected to NATS";
            }
            tokio::time::sleep(RETRY_AFTER).await;
            continue;
        }
        disconnected_at = None;
        let round_started = Instant::now();
        let result = round(pool, nats, quiet).await;
        quiet = matches!(result, Ok(0));
        match result {
            Ok(claimed) if claimed as i64 >= BATCH => {}
            Ok(_) => tokio::time::sleep(POLL_EVERY.saturating_sub(round_started.elapsed())).await,
            Err(err) => {
                tracing::warn!(error = %format!("{err:#}"), "real-time relay round failed; the events wait for the next");
                tokio::time::sleep(RETRY_AFTER).await;
            }
        }
        if checked_at.elapsed() >= CHECK_LOCK_EVERY {
            checked_at = Instant::now();
            if lock.ping().await.is_err() {
                return "the connection holding the relay lock broke";
            }
        }
        if pruned_at.elapsed() >= PRUNE_EVERY {
            pruned_at = Instant::now();
            match outbox::prune(pool).await {
                Ok(n) if n > 0 => tracing::debug!(deleted = n, "pruned sent real-time events"),
                Ok(_) => {}
                Err(err) => tracing::warn!(error = %err, "cannot prune sent real-time events"),
            }
        }
    }
}

/// The outbox's backlog, as gauges: at every scrape of `/metrics`, on the NATS bus only. A relay
/// that stalls shows as the oldest unsent event's age growing.
pub async fn record_backlog(pool: &PgPool) {
    if domain::realtime::bus() != domain::realtime::Bus::Nats {
        return;
    }
    match outbox::backlog(pool).await {
        Ok((unsent, oldest)) => {
            metrics::gauge!("realtime_outbox_unsent").set(unsent as f64);
            metrics::gauge!("realtime_outbox_oldest_unsent_seconds").set(oldest);
        }
        Err(err) => tracing::warn!(error = %err, "metrics: cannot read the real-time outbox"),
    }
}

/// One round: the number of events claimed (and relayed, when it returns `Ok`).
/// After a round that found nothing (`quiet`), one statement first looks whether there is anything
/// at all (most polls of a quiet system), rather than a transaction's three.
async fn round(pool: &PgPool, nats: &ConfirmingClient, quiet: bool) -> anyhow::Result<usize> {
    if quiet && outbox::backlog(pool).await?.0 == 0 {
        return Ok(0);
    }
    let started = Instant::now();
    let mut tx = pool.begin().await?;
    let rows = outbox::claim(&mut tx, BATCH).await?;
    if rows.is_empty() {
        return Ok(0);
    }
    let claimed = Instant::now();
    let mut published = 0;
    for row in &rows {
        metrics::histogram!("realtime_relay_lag_seconds").record(row.waited_seconds);
        published += publish(nats, row).await?;
    }
    let handed = Instant::now();
    nats.confirm().await?;
    let confirmed = Instant::now();
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    outbox::mark_sent(&mut tx, &ids).await?;
    tx.commit().await?;
    let phase = |name: &'static str, from: Instant, to: Instant| {
        metrics::histogram!("realtime_relay_round_seconds", "phase" => name).record((to - from).as_secs_f64())
    };
    phase("claim", started, claimed);
    phase("publish", claimed, handed);
    phase("confirm", handed, confirmed);
    phase("mark_sent", confirmed, Instant::now());
    metrics::counter!("realtime_bus_published_total").increment(published as u64);
    Ok(rows.len())
}

/// Publishes one outbox row to its room's subject, or else to each of its recipients'; the number of
/// messages.
async fn publish(nats: &ConfirmingClient, row: &outbox::Row) -> anyhow::Result<usize> {
    #[derive(serde::Deserialize)]
    struct Recipients {
        to: Vec<Uuid>,
        #[serde(default)]
        room: Option<Uuid>,
    }
    let recipients: Recipients = serde_json::from_str(&row.payload)?;
    let payload = bytes::Bytes::from(row.payload.clone());
    let subjects: Vec<String> = match recipients.room {
        Some(room) => vec![room_subject(room)],
        None => recipients.to.iter().map(|u| user_subject(*u)).collect(),
    };
    let mut headers = HeaderMap::new();
    headers.insert(EVENT_ID_HEADER, row.id.to_string().as_str());
    for subject in &subjects {
        nats.client()
            .publish_with_headers(subject.clone(), headers.clone(), payload.clone())
            .await?;
    }
    Ok(subjects.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relay_looks_often_enough_for_its_50_ms_target() {
        assert_eq!(POLL_EVERY, Duration::from_millis(20));
        assert_eq!(RELAY_LAG_TARGET, Duration::from_millis(50));
        assert_eq!(BATCH, 500);
        assert_eq!(PRUNE_EVERY, Duration::from_secs(60));
        assert_eq!(POOL_SIZE, 2);
    }

    #[test]
    fn a_relay_without_nats_hands_over_within_seconds() {
        assert_eq!(STEP_DOWN_AFTER, Duration::from_secs(1));
        assert_eq!(CHECK_LOCK_EVERY, Duration::from_secs(1));
        assert_eq!(RETRY_AFTER, Duration::from_millis(250));
        assert_eq!(STANDBY_POLL_EVERY, Duration::from_millis(250));
    }
}
