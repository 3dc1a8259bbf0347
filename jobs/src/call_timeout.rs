//! Ending a call nobody answered: 'missed' for both sides (`domain::calls::jobs::MissCall`, queued
//! with the call for its start plus the ring timeout); and ending an answered call whose party
//! dropped and did not come back within the reconnect grace: 'disconnected' (`EndDroppedCall`).
//! Safe to run twice: only a call that is still ringing, or still bound to the closed socket,
//! changes, and only once.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::calls::{
    self,
    jobs::{EndDroppedCall, MissCall},
};

use crate::{context::JobContext, handler::Handler};

impl Handler for MissCall {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let mut tx = ctx.pool.begin().await?;
        let missed = calls::time_out(&mut tx, self.call_id).await?;
        tx.commit().await?;
        tracing::info!(call = %self.call_id, missed, "call ring timeout checked");
        Ok(())
    }
}

impl Handler for EndDroppedCall {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let mut tx = ctx.pool.begin().await?;
        let ended = calls::drop_grace_over(&mut tx, self.call_id, self.socket).await?;
        tx.commit().await?;
        tracing::info!(call = %self.call_id, ended, "call reconnect grace checked");
        Ok(())
    }
}
