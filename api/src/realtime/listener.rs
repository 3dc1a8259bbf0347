//! Receives every process's events from PostgreSQL (`LISTEN realtime`) and hands them to this
//! process's sockets, and keeps this process's sockets marked alive. A lost connection is
//! re-established; events sent meanwhile are lost to this process, so its sockets are closed
//! then and their clients reconnect and catch up over REST.

use std::{sync::Arc, time::Duration};

use domain::{
    calls::sockets,
    realtime::{self, CHANNEL, Wire},
};
use sqlx::{PgPool, postgres::PgListener};

use super::{Hub, hub::PING_EVERY};

/// Wait between attempts to listen again after the connection failed.
pub const RECONNECT_EVERY: Duration = Duration::from_secs(1);

async fn listen(pool: &PgPool) -> sqlx::Result<PgListener> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// Starts listening (so nothing published after this returns is missed) and keeps at it, and
/// refreshes this process's sockets every [`PING_EVERY`].
pub async fn start(pool: PgPool, hub: Arc<Hub>) -> anyhow::Result<()> {
    let listener = listen(&pool).await?;
    tokio::spawn(run(pool.clone(), hub.clone(), listener));
    tokio::spawn(heartbeat(pool, hub));
    Ok(())
}

async fn heartbeat(pool: PgPool, hub: Arc<Hub>) {
    let mut every = tokio::time::interval(PING_EVERY);
    loop {
        every.tick().await;
        let ids = hub.socket_ids();
        let refreshed = match pool.acquire().await {
            Ok(mut conn) => sockets::refresh(&mut conn, &ids).await,
            Err(err) => Err(err.into()),
        };
        if let Err(err) = refreshed {
            tracing::warn!(error = %err, sockets = ids.len(), "cannot mark this process's sockets alive");
        }
    }
}

async fn run(pool: PgPool, hub: Arc<Hub>, mut listener: PgListener) {
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) => dispatch(&pool, &hub, notification.payload()).await,
            Ok(None) => {
                tracing::warn!(
                    "real-time listener lost its connection; closing this process's sockets so clients reload"
                );
                hub.close_all();
            }
            Err(err) => {
                tracing::warn!(error = %err, "real-time listener failed; closing this process's sockets and listening again");
                hub.close_all();
                loop {
                    tokio::time::sleep(RECONNECT_EVERY).await;
                    match listen(&pool).await {
                        Ok(l) => {
                            listener = l;
                            break;
                        }
                        Err(err) => tracing::warn!(error = %err, "cannot listen for real-time events yet"),
                    }
                }
            }
        }
    }
}

/// Every event this process reads from `LISTEN`: with NOTIFY every process reads every process's
/// events, so this grows with the whole cluster's traffic, not with this process's own.
pub const RECEIVED_METRIC: &str = "realtime_notify_received_total";

async fn dispatch(pool: &PgPool, hub: &Hub, payload: &str) {
    match serde_json::from_str::<Wire>(payload) {
        Ok(Wire::Event(envelope)) => {
            metrics::counter!(RECEIVED_METRIC).increment(1);
            hub.deliver(&envelope);
        }
        Ok(Wire::Events { events }) => {
            metrics::counter!(RECEIVED_METRIC).increment(events.len() as u64);
            for envelope in &events {
                hub.deliver(envelope);
            }
        }
        Ok(Wire::Reference { reference }) => match realtime::load_reference(pool, reference).await {
            Ok(Some(envelope)) => {
                metrics::counter!(RECEIVED_METRIC).increment(1);
                hub.deliver(&envelope);
            }
            Ok(None) => tracing::warn!(%reference, "stored real-time event is gone"),
            Err(err) => tracing::warn!(%reference, error = %err, "cannot load a stored real-time event"),
        },
        Ok(Wire::SessionsEnded { sessions_ended }) => {
            hub.end_sessions(&sessions_ended);
        }
        Err(err) => tracing::warn!(error = %err, "unreadable real-time notification"),
    }
}
