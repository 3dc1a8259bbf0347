//! Deleting an uploaded image that a user or mentor replaced or cleared.
//!
//! When: enqueued in the same transaction as the change that stops showing the image (a new
//! upload, a profile edit), so it runs only once that change is committed.
//! Safe to run twice: it deletes the file only when no user or mentor refers to it any longer,
//! only our own uploads directly inside `UPLOAD_DIR`, and a file already gone is fine.

use apalis::prelude::{BoxDynError, Data};
use domain::uploads;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

use crate::{context::JobContext, job::Job};

pub const QUEUE: &str = "upload_cleanup";
pub const MAX_ATTEMPTS: usize = 5;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeleteUpload {
    /// The public URL the image had (`/uploads/<name>`).
    pub url: String,
}

impl Job for DeleteUpload {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;
}

/// Queues the deletion of `url` when it is one of our uploads; other values (seeded avatars,
/// addresses accepted before uploads were the only images) are left alone.
pub async fn enqueue(conn: &mut PgConnection, url: &str) -> domain::Result<()> {
    if uploads::own_upload_name(url).is_none() {
        return Ok(());
    }
    DeleteUpload { url: url.to_string() }.enqueue(conn).await
}

pub async fn handle(job: DeleteUpload, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let deleted = uploads::delete_if_unused(&ctx.pool, &ctx.config.upload_dir, &job.url).await?;
    tracing::info!(url = %job.url, deleted, "replaced upload checked");
    Ok(())
}
