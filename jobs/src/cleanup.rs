//! Daily cleanup of what has expired: sessions, e-mail links, rate-limit events, finished tasks,
//! stale conversation viewers and sockets (ending their calls), and stored real-time events.
//!
//! When: every day at 03:30 UTC ([`SCHEDULE`]), one task per tick whatever the number of workers.
//! Safe to run twice: it only deletes rows that are already expired.

use apalis::prelude::{BoxDynError, Data};
use domain::{
    accounts::{email_links, sessions},
    calls,
    messaging::viewers,
    rate_limit, realtime,
};

use crate::context::JobContext;

pub const QUEUE: &str = "cleanup";
/// Every day at 03:30 UTC.
pub const SCHEDULE: &str = "0 30 3 * * *";
/// Finished tasks are kept this many days for inspection.
pub const KEEP_FINISHED_TASKS_DAYS: i32 = 14;

crate::sweep!(Cleanup, queue: QUEUE, schedule: SCHEDULE);

pub async fn handle(job: Cleanup, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let pool = &ctx.pool;
    let sessions = sessions::prune_expired(pool).await?;
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
    let tasks =
        sqlx::query("DELETE FROM apalis.jobs WHERE status = 'Done' AND done_at < now() - make_interval(days => $1)")
            .bind(KEEP_FINISHED_TASKS_DAYS)
            .execute(pool)
            .await?
            .rows_affected();
    tracing::info!(
        tick = job.tick,
        sessions,
        links,
        events,
        tasks,
        viewers,
        sockets,
        realtime_events,
        "cleanup done"
    );
    Ok(())
}
