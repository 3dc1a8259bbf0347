//! Removing a person whose account deletion came due (issue 35).
//!
//! When: queued for the deletion date (rounded up to the whole second, never early) in the
//! transaction that schedules it, as a hold's expiry is; a daily sweep (`SweepRemovals`)
//! removes anyone overdue whose task was lost, and deletes the payout details of removed mentors
//! once their last payout is marked paid.
//! Safe to run twice: the domain function does nothing for an account kept meanwhile, not yet due
//! or already removed; its steps are one transaction per user. Files (uploads, export archives)
//! are deleted after the commit; the upload cleanup deletes only files nothing refers to.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::{
    job_queue::account::{RemoveAccount, SweepRemovals},
    ownership::deletion,
};
use uuid::Uuid;

use crate::{context::JobContext, handler::Handler};

impl Handler for RemoveAccount {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        handle(self, ctx).await
    }
}

impl Handler for SweepRemovals {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        sweep(self, ctx).await
    }
}

async fn handle(job: RemoveAccount, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let removed = remove(&ctx, job.user_id).await?;
    tracing::info!(user = %job.user_id, removed, "account removal checked");
    Ok(())
}

/// Removes one user if due; whether this call removed them.
async fn remove(ctx: &JobContext, user_id: Uuid) -> domain::Result<bool> {
    let mut tx = ctx.pool.begin().await?;
    let Some(removed) = deletion::remove_if_due(&mut tx, user_id, Utc::now()).await? else {
        return Ok(false);
    };
    for url in &removed.upload_urls {
        domain::uploads::queue_deletion(&mut tx, url).await?;
    }
    tx.commit().await?;
    deletion::delete_export_files(&ctx.config.export_dir, &removed.export_files).await?;
    Ok(true)
}

async fn sweep(job: SweepRemovals, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let mut removed = 0;
    for user_id in deletion::overdue(&ctx.pool, Utc::now()).await? {
        if remove(&ctx, user_id).await? {
            removed += 1;
        }
    }
    let payout_details = deletion::release_payout_details(&mut *ctx.pool.acquire().await?, None).await?;
    tracing::info!(tick = job.tick, removed, payout_details, "account removals swept");
    Ok(())
}
