//! The outbox relay of the NATS bus: one in every api process (issue 37 §2).
//!
//! Each round claims up to [`BATCH`] unsent events (`FOR UPDATE SKIP LOCKED`, so the relays of
//! several processes share the work), publishes each to its recipients' subjects, waits until NATS
//! has them ([`NatsBus::confirm`]) and marks them sent in the same transaction. If this process dies
//! or NATS does not confirm, the transaction rolls back and the rows wait for the next round of any
//! relay: an event is published at least once, and consumers drop the repeats. The relay looks
//! again every [`POLL_EVERY`] when a round found less than a full batch (at once otherwise), and
//! prunes old sent events every [`PRUNE_EVERY`].
//!
//! No NOTIFY wakes it: NOTIFY serialises every committing transaction that sends one, which is what
//! the bus is here to avoid (issue 37).

use std::{sync::Arc, time::Duration};

use domain::realtime::outbox;
use sqlx::PgPool;

use super::nats::NatsBus;

/// Events one round claims at most.
pub const BATCH: i64 = 500;
/// The wait between rounds that found less than a full batch. The relay's p99 is at most this plus
/// a round's time: the target is 50 ms (issue 37).
pub const POLL_EVERY: Duration = Duration::from_millis(20);
pub const RELAY_LAG_TARGET: Duration = Duration::from_millis(50);
const _: () = assert!(POLL_EVERY.as_millis() * 2 <= RELAY_LAG_TARGET.as_millis());
/// The wait after a failed round (database or NATS down) or while NATS is not connected.
pub const RETRY_AFTER: Duration = Duration::from_millis(250);
/// How often this relay deletes events sent more than `outbox::KEEP_SENT` ago.
pub const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// Runs the relay for as long as the process lives.
pub fn start(pool: PgPool, bus: Arc<NatsBus>) {
    tokio::spawn(async move {
        let mut pruned_at = tokio::time::Instant::now();
        let mut quiet = false;
        loop {
            if !bus.connected() {
                tokio::time::sleep(RETRY_AFTER).await;
                continue;
            }
            let result = round(&pool, &bus, quiet).await;
            quiet = matches!(result, Ok(0));
            match result {
                Ok(claimed) if claimed as i64 >= BATCH => {}
                Ok(_) => tokio::time::sleep(POLL_EVERY).await,
                Err(err) => {
                    tracing::warn!(error = %format!("{err:#}"), "real-time relay round failed; the events wait for the next");
                    tokio::time::sleep(RETRY_AFTER).await;
                }
            }
            if pruned_at.elapsed() >= PRUNE_EVERY {
                pruned_at = tokio::time::Instant::now();
                match outbox::prune(&pool).await {
                    Ok(n) if n > 0 => tracing::debug!(deleted = n, "pruned sent real-time events"),
                    Ok(_) => {}
                    Err(err) => tracing::warn!(error = %err, "cannot prune sent real-time events"),
                }
            }
        }
    });
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
async fn round(pool: &PgPool, bus: &NatsBus, quiet: bool) -> anyhow::Result<usize> {
    if quiet && outbox::backlog(pool).await?.0 == 0 {
        return Ok(0);
    }
    let mut tx = pool.begin().await?;
    let rows = outbox::claim(&mut tx, BATCH).await?;
    if rows.is_empty() {
        return Ok(0);
    }
    let mut published = 0;
    for row in &rows {
        metrics::histogram!("realtime_relay_lag_seconds").record(row.waited_seconds);
        published += bus.publish(row).await?;
    }
    bus.confirm().await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    outbox::mark_sent(&mut tx, &ids).await?;
    tx.commit().await?;
    metrics::counter!("realtime_bus_published_total").increment(published as u64);
    Ok(rows.len())
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
    }
}
