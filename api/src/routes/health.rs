use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi, payload::Json};

use super::{
    Tag,
    cluster_state::{RealtimeBusKind, RealtimeBusView, ReplicaHealthView, bus_view, replica_view},
};
use crate::{
    error::{self, ErrorBody, ErrorCode},
    state::AppState,
};
use domain::{
    job_queue::{
        health::{self, QueueState},
        storage,
    },
    jobs::QUEUES,
};

pub struct HealthApi;

#[derive(Object)]
pub struct HealthStatus {
    /// "ok"
    pub status: String,
    /// For operators, present only when a job queue is failing or not polled
    #[oai(skip_serializing_if_is_none)]
    pub details: Option<HealthDetails>,
    /// The catalogue's read replica, present only when `DATABASE_READ_URL` names one; the api stays
    /// healthy when it lags or is down (its reads go to the primary)
    #[oai(skip_serializing_if_is_none)]
    pub replica: Option<ReplicaHealthView>,
    /// The real-time bus, present only with `REALTIME_BUS=nats`: this process's NATS connection and
    /// the outbox's backlog; the api stays healthy while NATS is away (events wait in the outbox)
    #[oai(skip_serializing_if_is_none, rename = "realtimeBus")]
    pub realtime_bus: Option<RealtimeBusView>,
}

#[derive(Object)]
pub struct HealthDetails {
    /// The queues that are not ok
    pub queues: Vec<QueueHealthView>,
}

#[derive(Enum)]
#[oai(rename_all = "snake_case")]
pub enum QueueStateView {
    /// A worker polls it and nothing failed recently
    Ok,
    /// Its worker failed within the last 5 minutes (and was restarted)
    Failing,
    /// No worker has polled it within 3 heartbeats: no worker runs, or it is stuck
    NotPolling,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct QueueHealthView {
    pub name: String,
    pub state: QueueStateView,
    /// The last heartbeat of a worker of this queue
    #[oai(nullable)]
    pub last_seen_at: Option<DateTime<Utc>>,
    /// How often its worker was restarted after failing
    pub restarts: i32,
    /// Tasks set aside because no worker could decode them
    pub set_aside: i32,
}

#[derive(ApiResponse)]
pub enum HealthResponse {
    /// The database answers
    #[oai(status = 200)]
    Ok(Json<HealthStatus>),
    /// The database does not answer
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

impl HealthResponse {
    fn unavailable() -> Self {
        Self::Unavailable(error::body(ErrorCode::Unavailable, DATABASE_UNAVAILABLE))
    }
}

const DATABASE_UNAVAILABLE: &str = "Database unavailable";

#[OpenApi(prefix_path = "/api", tag = "Tag::Health")]
impl HealthApi {
    /// Whether the api and its database answer, with the state of each job queue and of the read replica.
    #[oai(path = "/health", method = "get", operation_id = "getHealth")]
    async fn health(&self, state: Data<&AppState>) -> HealthResponse {
        let silent_after = storage::default_silent_after();
        let queues = tokio::time::timeout(
            std::time::Duration::from_secs(3),
            health::queue_health(&state.pool, QUEUES, silent_after),
        )
        .await;
        match queues {
            Ok(Ok(queues)) => {
                let troubled: Vec<QueueHealthView> = queues
                    .into_iter()
                    .filter(|q| q.state != QueueState::Ok)
                    .map(|q| QueueHealthView {
                        name: q.queue.into(),
                        state: match q.state {
                            QueueState::Ok => QueueStateView::Ok,
                            QueueState::Failing => QueueStateView::Failing,
                            QueueState::NotPolling => QueueStateView::NotPolling,
                        },
                        last_seen_at: q.last_seen,
                        restarts: q.restarts,
                        set_aside: q.set_aside,
                    })
                    .collect();
                let details = (!troubled.is_empty()).then_some(HealthDetails { queues: troubled });
                let realtime_bus = match bus_view(&state).await {
                    Ok(bus) if bus.kind == RealtimeBusKind::Nats => Some(bus),
                    Ok(_) => None,
                    Err(_) => return HealthResponse::unavailable(),
                };
                HealthResponse::Ok(Json(HealthStatus {
                    status: "ok".into(),
                    details,
                    replica: replica_view(&state),
                    realtime_bus,
                }))
            }
            _ => HealthResponse::unavailable(),
        }
    }
}
