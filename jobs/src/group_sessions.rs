//! A group session's time-driven steps (`domain::group_sessions::lifecycle`): at the start a
//! scheduled session becomes active and its participants are told it is starting now; at start +
//! duration a scheduled or active session is completed. (Reminders, the seats' completion and
//! refunds are the bookings' own jobs: every seat is a booking.)
//!
//! When: both steps are scheduled when the session is created ([`schedule`]); a sweep every
//! fifteen seconds ([`SWEEP_SCHEDULE`]) runs any step that is due and whose task was lost.
//! Safe to run twice: a step names the start it was scheduled for; a session moved, cancelled or
//! already past that step is left alone.

use apalis::prelude::{BoxDynError, Data};
use chrono::{DateTime, Utc};
use domain::group_sessions::{GroupSession, GroupStatus, lifecycle, sessions};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{context::JobContext, job::Job};

pub const QUEUE: &str = "group_session_state";
pub const SWEEP_QUEUE: &str = "group_session_state_sweep";
/// Every fifteen seconds: a session's start should not wait long for a lost task.
pub const SWEEP_SCHEDULE: &str = "*/15 * * * * *";
pub const MAX_ATTEMPTS: usize = 5;

pub const GO_LIVE: &str = "start";
pub const FINISH: &str = "end";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GroupSessionStep {
    pub group_session_id: Uuid,
    /// "start" or "end".
    pub step: String,
    /// The start this step is for (unix seconds); a moved session ignores it.
    pub start: i64,
}

impl Job for GroupSessionStep {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!(
            "group-session:{}:{}:{}",
            self.group_session_id, self.step, self.start
        ))
    }
}

crate::sweep!(SweepGroupSessions, queue: SWEEP_QUEUE, schedule: SWEEP_SCHEDULE);

/// Queues both steps of the session's current start, in the caller's transaction.
pub async fn schedule(conn: &mut PgConnection, g: &GroupSession) -> domain::Result<()> {
    let (start, end) = sessions::start_and_end(g);
    let at = g.scheduled_at.timestamp();
    GroupSessionStep {
        group_session_id: g.id,
        step: GO_LIVE.into(),
        start: at,
    }
    .enqueue_at(conn, start)
    .await?;
    GroupSessionStep {
        group_session_id: g.id,
        step: FINISH.into(),
        start: at,
    }
    .enqueue_at(conn, end)
    .await
}

async fn run_step(ctx: &JobContext, id: Uuid, step: &str, start: i64) -> domain::Result<bool> {
    let mut tx = ctx.pool.begin().await?;
    let now = Utc::now();
    let (changed, status) = match step {
        GO_LIVE => (
            lifecycle::go_live(&mut tx, id, start, now).await?.is_some(),
            GroupStatus::Active,
        ),
        FINISH => (
            lifecycle::finish(&mut tx, id, start, now).await?,
            GroupStatus::Completed,
        ),
        _ => (false, GroupStatus::Scheduled),
    };
    if changed {
        // Anyone on the call page hears of it; a finished session's room goes.
        let janus = ctx
            .config
            .janus
            .clone()
            .map(domain::group_calls::JanusClient::new)
            .transpose()?;
        domain::group_calls::room::announce(&mut tx, janus.as_ref(), id, status, now).await?;
    }
    tx.commit().await?;
    Ok(changed)
}

pub async fn handle(job: GroupSessionStep, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let changed = run_step(&ctx, job.group_session_id, &job.step, job.start).await?;
    tracing::info!(group_session = %job.group_session_id, step = job.step, changed, "group session step checked");
    Ok(())
}

pub async fn sweep(job: SweepGroupSessions, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut changed = 0;
    for (id, start) in lifecycle::due_to_go_live(&ctx.pool).await? {
        changed += run_step(&ctx, id, GO_LIVE, start).await? as usize;
    }
    for (id, start) in lifecycle::due_to_finish(&ctx.pool).await? {
        changed += run_step(&ctx, id, FINISH, start).await? as usize;
    }
    if changed > 0 {
        tracing::warn!(
            tick = job.tick,
            changed,
            "sweep moved group sessions whose tasks had not run"
        );
    }
    Ok(())
}
