//! Sending Web Push: one task per push and browser (`domain::push::PushTask`, queue
//! [`QUEUE`]), encrypted, VAPID-signed and POSTed to the browser's push service by
//! `domain::push::send::deliver`.
//!
//! When: queued in the transaction of the push's cause: the notification fan-out for the
//! notifications it writes (booking changes, messages, reminders, a group session going live),
//! a call when it starts ringing and when it stops. A push service that answers 429, 5xx or
//! cannot be reached is tried again by a new task of the same push, due after its `Retry-After`
//! or a doubling backoff, up to `send::MAX_SENDS` sends.
//! Safe to run twice: a push the push service accepted is recorded under the id chosen when it
//! was queued (`push_deliveries`), and a task that finds it sends nothing; the retry task is keyed
//! by push and try, so it is queued once.

use apalis::prelude::{Attempt, BoxDynError, Data};
use chrono::Utc;
use domain::push::{
    PushTask,
    send::{self, Outcome},
};

use domain::job_queue::Job;

use crate::{context::JobContext, handler::Handler};

pub use domain::push::{MAX_ATTEMPTS, QUEUE};

impl Handler for PushTask {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        send_one(self, ctx).await
    }
}

async fn send_one(task: PushTask, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let now = Utc::now();
    let outcome = send::deliver(&ctx.pool, &ctx.push, &task, now).await?;
    let (push, kind, attempt) = (task.id, task.content.kind.as_str(), task.attempt);
    match outcome {
        Outcome::Sent => tracing::info!(%push, kind, attempt, "push sent"),
        Outcome::AlreadySent => tracing::info!(%push, kind, "push was sent before"),
        Outcome::NoSubscription => tracing::info!(%push, kind, "push dropped: the browser unsubscribed"),
        Outcome::Gone(status) => {
            tracing::info!(%push, kind, status, "push service says the subscription is gone: deleted")
        }
        Outcome::Dropped(reason) => tracing::warn!(%push, kind, reason, "push dropped"),
        Outcome::Retry { after, reason } => {
            let next = attempt + 1;
            if next >= send::MAX_SENDS {
                tracing::warn!(%push, kind, reason, sends = next, "push given up after its last try");
            } else {
                let due = now + chrono::Duration::from_std(after)?;
                let retry = PushTask { attempt: next, ..task };
                let mut conn = ctx.pool.acquire().await?;
                retry.enqueue_at(&mut conn, due).await?;
                tracing::info!(%push, kind, reason, attempt = next, after_ms = after.as_millis() as u64, "push to be tried again");
            }
        }
    }
    Ok(())
}
