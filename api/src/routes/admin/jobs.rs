//! The admin job console: every queue's figures, its tasks by state, running a failed task again
//! or discarding one (both audited), and the cron schedules with their last and next runs.
//! Admin only: 401 signed out, 403 to anyone else.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};

use crate::{
    auth::SessionAuth,
    error::ApiResult,
    routes::{
        Tag,
        cluster_state::{RealtimeBusTrafficView, ReplicaHealthView, bus_traffic_view, replica_view},
    },
    state::AppState,
};
use domain::{
    admin::jobs::{self as console, JobState, QueueFigures, Task, TaskQuery},
    choice::Choice,
    job_queue::storage,
    jobs::{QUEUES, next_run, schedules},
};

pub struct AdminJobsApi;

/// One queue's figures.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct JobQueueView {
    pub queue: String,
    /// Due, waiting for a worker
    pub pending: i64,
    /// Due later, including tasks waiting for their next attempt
    pub scheduled: i64,
    pub running: i64,
    /// Used all their attempts
    pub failed: i64,
    /// Rows no worker could decode
    pub set_aside: i64,
    pub discarded: i64,
    /// How long the oldest due task has waited, in seconds (0 when none)
    pub oldest_due_seconds: f64,
    pub succeeded_last_hour: i64,
    pub failed_last_hour: i64,
    /// Worker processes serving the queue now
    pub workers: i64,
}

impl From<QueueFigures> for JobQueueView {
    fn from(q: QueueFigures) -> Self {
        Self {
            queue: q.queue,
            pending: q.pending,
            scheduled: q.scheduled,
            running: q.running,
            failed: q.failed,
            set_aside: q.set_aside,
            discarded: q.discarded,
            oldest_due_seconds: q.oldest_due_seconds,
            succeeded_last_hour: q.succeeded_last_hour,
            failed_last_hour: q.failed_last_hour,
            workers: q.workers,
        }
    }
}

/// One task.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct JobView {
    pub id: String,
    pub queue: String,
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    /// When it is (or was) due
    pub run_at: DateTime<Utc>,
    /// The last attempt's error, if it failed
    #[oai(nullable)]
    pub last_error: Option<String>,
    #[oai(nullable)]
    pub done_at: Option<DateTime<Utc>>,
    /// The task's payload as JSON, secrets masked
    pub payload: serde_json::Value,
}

impl From<Task> for JobView {
    fn from(t: Task) -> Self {
        Self {
            id: t.id,
            queue: t.queue,
            state: t.state,
            attempts: t.attempts,
            max_attempts: t.max_attempts,
            run_at: t.run_at,
            last_error: t.last_error,
            done_at: t.done_at,
            payload: t.payload,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct JobsPage {
    /// Latest due first
    pub items: Vec<JobView>,
    /// Tasks matching the filters, on every page
    pub total: i64,
}

/// A cron schedule, named by its queue.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct JobScheduleView {
    pub name: String,
    /// Seconds, minutes, hours, day of month, month, day of week
    pub expression: String,
    /// The newest task of its queue
    #[oai(nullable)]
    pub last_run_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub next_run_at: Option<DateTime<Utc>>,
}

/// How the parts between the processes stand, as the answering process reads them.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct ClusterStateView {
    pub realtime_bus: RealtimeBusTrafficView,
    /// Null without `DATABASE_READ_URL`
    #[oai(nullable)]
    pub replica: Option<ReplicaHealthView>,
}

#[OpenApi(prefix_path = "/api/admin", tag = "Tag::Admin")]
impl AdminJobsApi {
    /// The real-time bus (its outbox's backlog: the same from every process) and the read replica.
    #[oai(path = "/jobs/cluster", method = "get", operation_id = "getClusterState")]
    async fn cluster(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<ClusterStateView>> {
        auth.admin()?;
        Ok(Json(ClusterStateView {
            realtime_bus: bus_traffic_view(&state).await?,
            replica: replica_view(&state),
        }))
    }

    /// Every queue with its tasks by state, its oldest due task's wait and its live workers.
    #[oai(path = "/jobs/queues", method = "get", operation_id = "listJobQueues")]
    async fn queues(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<JobQueueView>>> {
        auth.admin()?;
        let silent_after = storage::default_silent_after();
        let queues = console::queues(&state.pool, QUEUES, silent_after).await?;
        Ok(Json(queues.into_iter().map(Into::into).collect()))
    }

    /// Tasks, optionally of one queue and one state, a page at a time.
    #[oai(path = "/jobs", method = "get", operation_id = "listJobs")]
    async fn list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        queue: Query<Option<String>>,
        #[oai(name = "state")] job_state: Query<Option<Choice<JobState>>>,
        page: Query<Option<i64>>,
        #[oai(name = "pageSize")] page_size: Query<Option<i64>>,
    ) -> ApiResult<Json<JobsPage>> {
        auth.admin()?;
        let q = TaskQuery::parse(
            queue.0.as_deref(),
            job_state.0.as_ref().map(Choice::sent),
            page.0,
            page_size.0,
        )?;
        let (items, total) = console::tasks(&state.pool, &q).await?;
        Ok(Json(JobsPage {
            items: items.into_iter().map(Into::into).collect(),
            total,
        }))
    }

    /// Runs a failed or set-aside task again at once, its attempts reset (409 in any other state).
    #[oai(path = "/jobs/:id/retry", method = "post", operation_id = "retryJob")]
    async fn retry(&self, state: Data<&AppState>, auth: SessionAuth, id: Path<String>) -> ApiResult<Json<JobView>> {
        let admin = auth.admin()?;
        Ok(Json(console::retry(&state.pool, admin.user.id, &id.0).await?.into()))
    }

    /// Removes a pending, scheduled, failed or set-aside task from work, kept as discarded (409 for
    /// a running one).
    #[oai(path = "/jobs/:id/discard", method = "post", operation_id = "discardJob")]
    async fn discard(&self, state: Data<&AppState>, auth: SessionAuth, id: Path<String>) -> ApiResult<Json<JobView>> {
        let admin = auth.admin()?;
        Ok(Json(console::discard(&state.pool, admin.user.id, &id.0).await?.into()))
    }

    /// Every cron schedule, named by its queue, with its last and next run.
    #[oai(path = "/jobs/schedules", method = "get", operation_id = "listJobSchedules")]
    async fn schedules(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<JobScheduleView>>> {
        auth.admin()?;
        let schedules = schedules();
        let names: Vec<&str> = schedules.iter().map(|(q, _)| *q).collect();
        let last = console::last_runs(&state.pool, &names).await?;
        let now = Utc::now();
        Ok(Json(
            schedules
                .into_iter()
                .zip(last)
                .map(|((name, expression), (_, last_run_at))| JobScheduleView {
                    name: name.to_string(),
                    next_run_at: next_run(&expression, now),
                    expression: expression.into_owned(),
                    last_run_at,
                })
                .collect(),
        ))
    }
}
