//! Delivering an admin's announcement: one `system_announcement` notification for every active
//! user of its audience, pushed live to open sockets, and one e-mail (a durable e-mail task each)
//! for those of them whose "Marketing emails" preference is on.
//!
//! When: `domain::announcements::Announce`, queued by `POST /api/admin/announcements` in the
//! transaction that stores it.
//! Writes: `domain::announcements::BATCH_SIZE` users per statement, each batch in its own
//! transaction (with its live events and its share of `delivered_count`), so memory stays flat
//! however many users there are, and progress shows on the admin page as it goes.
//! Safe to run twice: a unique index on (announcement, user) makes a retried batch write nothing
//! twice; a retry starts from the first user and skips those already written. A user's e-mail is
//! queued in the transaction that writes their notification, so it is queued once too.

use apalis::prelude::{Attempt, BoxDynError, Data};
use domain::{
    announcements::{self, Announce},
    job_queue::{self, email::EmailJob},
};
use sqlx::PgPool;
use uuid::Uuid;

use crate::{context::JobContext, handler::Handler};

/// Writes every missing notification of the announcement; returns how many this run wrote.
pub async fn deliver(pool: &PgPool, announcement_id: Uuid) -> domain::Result<usize> {
    let (mut after, mut written, mut batches) = (None, 0, 0usize);
    loop {
        let mut tx = pool.begin().await?;
        let batch = announcements::deliver_batch(&mut tx, announcement_id, after).await?;
        let mails: Vec<EmailJob> = batch
            .to_email
            .iter()
            .map(|&user_id| EmailJob::Announcement {
                announcement_id,
                user_id,
            })
            .collect();
        job_queue::push_all(&mut tx, job_queue::email::QUEUE, &mails, job_queue::email::MAX_ATTEMPTS).await?;
        tx.commit().await?;
        written += batch.written;
        batches += 1;
        if batches % 20 == 0 {
            tracing::info!(%announcement_id, written, batches, "announcement delivery in progress");
        }
        match batch.last_user {
            Some(last) => after = Some(last),
            None => break,
        }
    }
    let mut conn = pool.acquire().await?;
    announcements::complete(&mut conn, announcement_id).await?;
    Ok(written)
}

impl Handler for Announce {
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        let written = deliver(&ctx.pool, self.announcement_id).await?;
        tracing::info!(announcement_id = %self.announcement_id, written, "announcement delivered");
        Ok(())
    }
}
