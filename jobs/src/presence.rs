//! Taking mentors offline by themselves (`domain::presence::jobs::CheckPresence`): 60 seconds after
//! their last socket closed, or 15 minutes before a booked session. Safe to run twice: the check
//! only takes an available mentor offline when a rule says so.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::presence::{
    self,
    jobs::{CheckPresence, SweepPresence},
};

use crate::{context::JobContext, handler::Handler};

impl Handler for CheckPresence {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let mut tx = ctx.pool.begin().await?;
        let offline = presence::check(&mut tx, self.mentor_id, Utc::now()).await?;
        tx.commit().await?;
        if offline {
            tracing::info!(mentor = %self.mentor_id, "mentor went offline by themselves");
        }
        Ok(())
    }
}

impl Handler for SweepPresence {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        for mentor_id in presence::available_ids(&ctx.pool).await? {
            let mut tx = ctx.pool.begin().await?;
            if presence::check(&mut tx, mentor_id, Utc::now()).await? {
                tracing::info!(tick = self.tick, mentor = %mentor_id, "the sweep took a mentor offline");
            }
            tx.commit().await?;
        }
        Ok(())
    }
}
