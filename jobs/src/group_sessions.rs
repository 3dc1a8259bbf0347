//! A group session's time-driven steps (`domain::group_sessions::lifecycle`): at the start a
//! scheduled session becomes active and its participants are told it is starting now; at start +
//! duration a scheduled or active session is completed. (Reminders, the seats' completion and
//! refunds are the bookings' own jobs: every seat is a booking.)
//!
//! At the end, a session whose mentor never joined its call while it was live is cancelled instead,
//! every paid seat refunded in full (`domain::complaints::group_no_show`), in the same transaction.
//!
//! When: `domain::group_sessions::jobs::schedule` queues both steps when the session is created;
//! a sweep every fifteen seconds runs any step that is due and whose task was lost.
//! Safe to run twice: a step names the start it was scheduled for; a session moved, cancelled or
//! already past that step is left alone.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::group_sessions::{
    GroupStatus,
    jobs::{FINISH, GO_LIVE, GroupSessionStep, SweepGroupSessions},
    lifecycle,
};
use uuid::Uuid;

use crate::{context::JobContext, handler::Handler};

async fn run_step(ctx: &JobContext, id: Uuid, step: &str, start: i64) -> domain::Result<bool> {
    let mut tx = ctx.pool.begin().await?;
    let now = Utc::now();
    let (changed, status) = match step {
        GO_LIVE => (
            lifecycle::go_live(&mut tx, id, start, now).await?.is_some(),
            GroupStatus::Active,
        ),
        FINISH => {
            let finished = lifecycle::finish(&mut tx, id, start, now).await?;
            // A session whose mentor never joined its call ends cancelled, every paid seat refunded.
            let no_show = finished
                && domain::complaints::group_no_show::settle(&mut tx, id, now)
                    .await?
                    .is_some();
            let status = if no_show {
                GroupStatus::Cancelled
            } else {
                GroupStatus::Completed
            };
            (finished, status)
        }
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
        if status == GroupStatus::Cancelled {
            // The mentor's own calendar loses the session that did not take place.
            domain::job_queue::calendar_writeback::enqueue_group_session(&mut tx, id).await?;
        }
    }
    tx.commit().await?;
    Ok(changed)
}

impl Handler for GroupSessionStep {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let changed = run_step(&ctx, self.group_session_id, &self.step, self.start).await?;
        tracing::info!(group_session = %self.group_session_id, step = self.step, changed, "group session step checked");
        Ok(())
    }
}

/// Every fifteen seconds: runs any step that is due and whose task was lost.
impl Handler for SweepGroupSessions {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let mut changed = 0;
        for (id, start) in lifecycle::due_to_go_live(&ctx.pool).await? {
            changed += run_step(&ctx, id, GO_LIVE, start).await? as usize;
        }
        for (id, start) in lifecycle::due_to_finish(&ctx.pool).await? {
            changed += run_step(&ctx, id, FINISH, start).await? as usize;
        }
        if changed > 0 {
            tracing::warn!(
                tick = self.tick,
                changed,
                "sweep moved group sessions whose tasks had not run"
            );
        }
        Ok(())
    }
}
