//! Instant readings' jobs (`domain::readings::jobs`): a request expiring unanswered after 60 s, and
//! the charge of each minute as it starts. Safe to run twice: expiry touches only a reading still
//! requested; each minute's charge is a ledger entry unique by (reading, minute index), and the
//! task charges every due minute not charged yet, so a worker killed mid-reading catches up once.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::readings::{
    self,
    jobs::{ChargeMinute, ExpireReading},
};

use crate::{context::JobContext, handler::Handler};

impl Handler for ExpireReading {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let mut tx = ctx.pool.begin().await?;
        let expired = readings::expire(&mut tx, self.instant_session_id).await?;
        tx.commit().await?;
        if expired.is_some() {
            tracing::info!(reading = %self.instant_session_id, "reading request expired unanswered");
        }
        Ok(())
    }
}

impl Handler for ChargeMinute {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let mut tx = ctx.pool.begin().await?;
        let metered = readings::charge_due(&mut tx, self.instant_session_id, Utc::now()).await?;
        tx.commit().await?;
        tracing::debug!(reading = %self.instant_session_id, minute = self.minute, ?metered, "reading metered");
        Ok(())
    }
}
