//! Building a user's data export (issue 35) and deleting archives past their 7 days.
//!
//! When: the build is queued by `POST /api/user/data-export` in its transaction and runs at once;
//! the cleanup sweep runs every hour (`CleanupExports`).
//! Safe to run twice: only a pending export is built (the archive is written under a temporary
//! name and renamed, then marked ready, notified and mailed in one transaction); the cleanup only
//! touches archives already past their expiry. After its last attempt the export is marked failed
//! and the user may ask again at once.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::{
    job_queue::{
        Job,
        account::{BuildDataExport, CleanupExports},
    },
    ownership::data_export,
};

use crate::{context::JobContext, handler::Handler};

impl Handler for BuildDataExport {
    async fn handle(self, ctx: Data<JobContext>, attempt: Attempt) -> Result<(), BoxDynError> {
        handle(self, attempt, ctx).await
    }
}

impl Handler for CleanupExports {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        sweep(self, ctx).await
    }
}

async fn handle(job: BuildDataExport, attempt: Attempt, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let last_try = attempt.current() + 1 >= BuildDataExport::MAX_ATTEMPTS;
    let started = std::time::Instant::now();
    match build(&ctx, &job).await {
        Ok(()) => {
            tracing::info!(export = %job.export_id, ms = started.elapsed().as_millis() as u64, "data export checked");
            Ok(())
        }
        Err(err) if last_try => {
            data_export::mark_failed(&ctx.pool, job.export_id).await?;
            tracing::error!(export = %job.export_id, error = %err, "data export failed for good");
            Ok(())
        }
        Err(err) => Err(err.into()),
    }
}

async fn build(ctx: &JobContext, job: &BuildDataExport) -> domain::Result<()> {
    let mut tx = ctx.pool.begin().await?;
    let built = data_export::build(
        &mut tx,
        &ctx.config.export_dir,
        &ctx.config.upload_dir,
        job.export_id,
        Utc::now(),
    )
    .await?;
    tx.commit().await?;
    if let Some(b) = built {
        tracing::info!(export = %job.export_id, user = %b.user_id, bytes = b.size_bytes, entries = b.entries, "data export built");
    }
    Ok(())
}

async fn sweep(job: CleanupExports, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let expired = data_export::expire(&ctx.pool, &ctx.config.export_dir).await?;
    tracing::info!(tick = job.tick, expired, "expired data exports deleted");
    Ok(())
}
