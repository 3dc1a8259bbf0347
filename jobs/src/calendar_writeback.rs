//! Writing sessions back into the mentor's own calendar (`domain::calendars::writeback`): one
//! task per change of a booking or group session (`domain::job_queue::calendar_writeback::WriteBack`).
//!
//! When: queued in the transaction of the change (confirmation, reschedule, cancellation of a
//! one-to-one booking; a group session scheduled or cancelled), and for every upcoming session
//! when a calendar is connected or another calendar receives bookings. A server that fails is
//! tried again with backoff up to its `MAX_ATTEMPTS` times.
//! Safe to run twice: a task writes the session as it is when it runs, to one fixed address per
//! session, under a per-session lock, so there is never a second event for one session.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::calendars::writeback::{self, Applied, WriteBack};

use crate::{context::JobContext, handler::Handler};

impl Handler for WriteBack {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        handle(self, ctx).await
    }
}

async fn handle(job: WriteBack, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let uid = writeback::uid_of(&job).unwrap_or_default();
    match writeback::apply(&ctx.pool, &ctx.config, &job, Utc::now()).await {
        Ok(Applied::Written(href)) => tracing::info!(%uid, %href, "session written to the mentor's calendar"),
        Ok(Applied::Deleted(href)) => tracing::info!(%uid, %href, "session deleted from the mentor's calendar"),
        Ok(Applied::Nothing) => tracing::info!(%uid, "nothing to write to the mentor's calendar"),
        Err(err) => {
            tracing::warn!(%uid, error = %err, "writing to the mentor's calendar failed: tried again");
            return Err(err.into());
        }
    }
    Ok(())
}
