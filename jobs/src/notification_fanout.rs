//! Writing in-app notifications and pushing them live to their recipients' sockets.
//!
//! When: queued by `domain::notifications::notify` / `notify_many` in the transaction of the
//! notification's cause (a booking, a payment, a review, a reminder, a message).
//! Writes: [`BATCH_SIZE`] recipients per statement, each batch in its own transaction with the
//! live events it announces (delivered when the batch commits).
//! Safe to run twice: every notification's id was chosen when the task was queued, so a retry
//! writes (and announces) only the ones still missing.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::notifications::{self, FanOut};
use sqlx::PgPool;

use crate::{context::JobContext, handler::Handler};

pub use domain::notifications::{FAN_OUT_MAX_ATTEMPTS as MAX_ATTEMPTS, FAN_OUT_QUEUE as QUEUE};

/// Recipients written by one INSERT (and one transaction).
pub const BATCH_SIZE: usize = 500;

/// What one run wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delivered {
    /// Notifications written (and announced) by this run.
    pub written: usize,
    /// Batches run, one statement and one transaction each.
    pub batches: usize,
}

/// Writes the fan-out's missing notifications, [`BATCH_SIZE`] recipients at a time.
pub async fn deliver(pool: &PgPool, fan_out: &FanOut) -> domain::Result<Delivered> {
    let mut delivered = Delivered::default();
    for batch in fan_out.recipients.chunks(BATCH_SIZE) {
        let mut tx = pool.begin().await?;
        delivered.written += notifications::write(&mut tx, fan_out, batch).await?.len();
        tx.commit().await?;
        delivered.batches += 1;
    }
    Ok(delivered)
}

impl Handler for FanOut {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let delivered = deliver(&ctx.pool, &self).await?;
        tracing::debug!(
            kind = self.kind.as_str(),
            recipients = self.recipients.len(),
            written = delivered.written,
            "notifications written"
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {}
