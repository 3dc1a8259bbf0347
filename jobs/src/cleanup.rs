//! Daily cleanup of what has expired: sessions, pending two-factor sign-ins, e-mail links, rate-limit events, finished tasks,
//! stale conversation viewers and sockets (ending their calls), stored real-time events, the
//! record of old pushes and of old e-mails (`domain::mail::sends`).
//!
//! When: every day at 03:30 UTC (`domain::job_queue::cleanup`), one task per tick whatever the
//! number of workers.
//! Safe to run twice: it only deletes rows that are already expired.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::{
    accounts::{email_links, sessions, two_factor},
    calls,
    job_queue::cleanup::Cleanup,
    messaging::viewers,
    rate_limit, realtime,
};

use crate::{context::JobContext, handler::Handler};
/// Finished tasks are kept this many days for inspection.
pub const KEEP_FINISHED_TASKS_DAYS: i32 = 14;
// A task can run again while its row exists (an admin retrying it): its mails must still be known.
const _: () = assert!(
    domain::mail::sends::KEEP_DAYS > KEEP_FINISHED_TASKS_DAYS,
    "sent mails are remembered longer than their tasks"
);

impl Handler for Cleanup {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        clean(self, ctx).await
    }
}

async fn clean(job: Cleanup, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let pool = &ctx.pool;
    let sessions = sessions::prune_expired(pool).await?;
    let pending_sign_ins = two_factor::prune_expired_challenges(pool).await?;
    let links = email_links::prune_expired(pool).await?;
    let events = rate_limit::prune(pool).await?;
    let viewers = viewers::delete_stale(pool).await?;
    let sockets = {
        let mut tx = pool.begin().await?;
        let n = calls::sweep_stale_sockets(&mut tx).await?;
        tx.commit().await?;
        n
    };
    let realtime_events = realtime::delete_old_events(pool).await?;
    let push_deliveries = domain::push::send::prune_deliveries(pool).await?;
    let tasks = domain::job_queue::tasks::delete_done_before(pool, KEEP_FINISHED_TASKS_DAYS).await?;
    let email_sends = domain::mail::sends::prune(pool, domain::mail::sends::KEEP_DAYS).await?;
    tracing::info!(
        tick = job.tick,
        sessions,
        pending_sign_ins,
        links,
        events,
        tasks,
        viewers,
        sockets,
        realtime_events,
        push_deliveries,
        email_sends,
        "cleanup done"
    );
    Ok(())
}
