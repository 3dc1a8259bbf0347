//! Reading the busy times of a mentor's own calendar (`domain::calendars::sync`), one task per
//! connection and cause (`domain::calendars::connection::SyncCalendar`).
//!
//! When: queued by the api when a calendar is connected, a calendar's switches change and on
//! 'Sync now'; every five minutes (`SweepCalendars`) the sweep queues one for every connection.
//! Safe to run twice: a sync replaces the connection's busy times with what the server holds now;
//! a failing server leaves the last ones in place and marks the connection failing (the mentor is
//! notified once per failure streak), so the task itself succeeds.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::{
    calendars::{
        connection::{self, SweepCalendars, SyncCalendar},
        sync::{self, Outcome},
    },
    job_queue::Job,
};

use crate::{context::JobContext, handler::Handler};

impl Handler for SyncCalendar {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        handle(self, ctx).await
    }
}

impl Handler for SweepCalendars {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        sweep(self, ctx).await
    }
}

async fn handle(job: SyncCalendar, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let connection = job.connection_id;
    match sync::run(&ctx.pool, &ctx.config, connection, Utc::now()).await? {
        Outcome::Synced(busy) => tracing::info!(%connection, busy, "calendar synced"),
        Outcome::Failed(error) => tracing::warn!(%connection, %error, "calendar sync failed"),
        Outcome::Gone => tracing::info!(%connection, "calendar connection gone: nothing to sync"),
    }
    Ok(())
}

async fn sweep(job: SweepCalendars, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let ids = connection::all_ids(&ctx.pool).await?;
    let mut conn = ctx.pool.acquire().await?;
    for connection_id in &ids {
        SyncCalendar {
            connection_id: *connection_id,
        }
        .enqueue(&mut conn)
        .await?;
    }
    tracing::info!(tick = job.tick, connections = ids.len(), "calendar syncs queued");
    Ok(())
}
