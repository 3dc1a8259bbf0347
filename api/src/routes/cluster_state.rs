//! How the parts that join api processes into a cluster stand (issue 37 §5), as any process reads
//! them: the real-time bus (its outbox lives in the database, so every process sees the same
//! backlog) and the catalogue's read replica. In `/api/health` and the admin job console.

use poem_openapi::{Enum, Object};

use crate::{replica::ReplicaState, state::AppState};
use domain::realtime::{self, Bus, outbox};

/// The window of `eventsLastMinute`.
pub(super) const TRAFFIC_WINDOW: chrono::Duration = chrono::Duration::minutes(1);

#[derive(Enum, Clone, Copy, Debug, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum RealtimeBusKind {
    /// PostgreSQL LISTEN/NOTIFY (`REALTIME_BUS=postgres`, the default)
    Postgres,
    /// NATS, fed from the transactional outbox (`REALTIME_BUS=nats`)
    Nats,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct RealtimeBusView {
    pub kind: RealtimeBusKind,
    /// Whether this process is connected to NATS (null on the PostgreSQL bus)
    #[oai(nullable)]
    pub nats_connected: Option<bool>,
    /// Events written to the outbox and not relayed yet (0 on the PostgreSQL bus)
    pub unsent_events: i64,
    /// Age of the oldest event not relayed yet, in seconds: the relay's lag (0 when none)
    pub oldest_unsent_seconds: f64,
}

/// The bus with its traffic, for the job console (health leaves the count out: load balancers ask
/// for health every few seconds, and counting a minute's events is the one costly figure).
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct RealtimeBusTrafficView {
    #[oai(flatten)]
    pub bus: RealtimeBusView,
    /// Events written to the outbox in the last minute (0 on the PostgreSQL bus)
    pub events_last_minute: i64,
}

#[derive(Enum)]
#[oai(rename_all = "snake_case")]
pub enum ReplicaStateView {
    /// Answering and at most 5 s behind: catalogue reads go there
    Ok,
    /// More than 5 s behind (or its lag not known yet): skipped, its reads go to the primary
    Lagging,
    /// Not answering: skipped, its reads go to the primary
    Down,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReplicaHealthView {
    pub state: ReplicaStateView,
    /// Seconds the replica has been behind the primary (0: caught up); null while not known
    #[oai(nullable)]
    pub lag_seconds: Option<f64>,
}

/// The replica as this process sees it; none without `DATABASE_READ_URL`.
pub(super) fn replica_view(state: &AppState) -> Option<ReplicaHealthView> {
    let (replica, lag) = state.reads.health()?;
    Some(ReplicaHealthView {
        state: match replica {
            ReplicaState::Ok => ReplicaStateView::Ok,
            ReplicaState::Lagging => ReplicaStateView::Lagging,
            ReplicaState::Down => ReplicaStateView::Down,
        },
        lag_seconds: lag.map(|l| l.as_secs_f64()),
    })
}

/// The bus now: its kind, this process's NATS connection and the outbox's backlog.
pub(super) async fn bus_view(state: &AppState) -> domain::Result<RealtimeBusView> {
    if realtime::bus() != Bus::Nats {
        return Ok(RealtimeBusView {
            kind: RealtimeBusKind::Postgres,
            nats_connected: None,
            unsent_events: 0,
            oldest_unsent_seconds: 0.0,
        });
    }
    let (unsent_events, oldest_unsent_seconds) = outbox::backlog(&state.pool).await?;
    Ok(RealtimeBusView {
        kind: RealtimeBusKind::Nats,
        nats_connected: Some(state.nats.as_ref().is_some_and(|n| n.connected())),
        unsent_events,
        oldest_unsent_seconds,
    })
}

/// [`bus_view`] and the last minute's events.
pub(super) async fn bus_traffic_view(state: &AppState) -> domain::Result<RealtimeBusTrafficView> {
    let bus = bus_view(state).await?;
    let events_last_minute = match bus.kind {
        RealtimeBusKind::Postgres => 0,
        RealtimeBusKind::Nats => outbox::written_within(&state.pool, TRAFFIC_WINDOW).await?,
    };
    Ok(RealtimeBusTrafficView {
        bus,
        events_last_minute,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn traffic_is_counted_over_a_minute() {
        assert_eq!(super::TRAFFIC_WINDOW, chrono::Duration::seconds(60));
    }
}
