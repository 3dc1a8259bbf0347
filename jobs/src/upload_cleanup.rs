//! Deleting an uploaded image that a user or mentor replaced or cleared
//! (`domain::uploads::DeleteUpload`, queued in the transaction of that change).
//! Safe to run twice: it deletes the file only when no user or mentor refers to it any longer,
//! only our own uploads directly inside `UPLOAD_DIR`, and a file already gone is fine.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::uploads::{self, DeleteUpload};

use crate::{context::JobContext, handler::Handler};

impl Handler for DeleteUpload {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let deleted = uploads::delete_if_unused(&ctx.pool, &ctx.config.upload_dir, &self.url).await?;
        tracing::info!(url = %self.url, deleted, "replaced upload checked");
        Ok(())
    }
}
