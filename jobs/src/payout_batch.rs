//! The weekly payout batch (`domain::payouts::batch`): each mentor's completed, paid bookings that
//! no payout holds yet become one pending payout per mentor, and the mentor is told.
//!
//! When: `domain::payouts::jobs::RunPayouts`, every Monday at 06:00 UTC (`PAYOUT_SCHEDULE`
//! overrides it) and on an admin's "run now".
//! Safe to run twice, or twice at once: a booking is in at most one payout (a database key), and
//! each mentor's payout is made under a per-mentor lock.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::payouts::jobs::RunPayouts;

use crate::{context::JobContext, handler::Handler};

impl Handler for RunPayouts {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let s = domain::payouts::batch::run(&ctx.pool).await?;
        tracing::info!(
            tick = self.tick,
            payouts = s.payouts,
            bookings = s.bookings,
            below_minimum = s.below_minimum,
            taken_by_another_run = s.taken_by_another_run,
            "payout batch done"
        );
        Ok(())
    }
}
