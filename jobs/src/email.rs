//! Sending e-mails: verification, password reset, booking confirmations, contact-form messages.
//!
//! When: enqueued by the api in the same transaction as the change that needs the mail, and
//! run as soon as a worker is free (also after a worker was down: the task waits in Postgres).
//! A failed send retries with exponential backoff; after [`MAX_ATTEMPTS`] the task stays
//! visible as `Failed` in `apalis.jobs`.
//! Safe to run twice: each run issues a fresh single-use link and the recipient's state is read
//! at run time (an address verified in the meantime gets no second verification mail).

use apalis::prelude::{BoxDynError, Data};
use domain::{
    accounts::{email_links, email_links::Purpose, users},
    mail::templates,
};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    JobContext,
    queue::{self, PushOptions},
};

pub const QUEUE: &str = "emails";
/// Sends tried in-process (first try plus retries with backoff) before the task is marked failed.
pub const MAX_ATTEMPTS: usize = 5;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EmailJob {
    VerifyEmail { user_id: Uuid },
    ResetPassword { user_id: Uuid },
    /// A contact-form message to the support address.
    Contact { message_id: Uuid },
    /// The seeker's booking confirmation with a calendar invitation.
    BookingConfirmed { booking_id: Uuid },
}

pub async fn enqueue(conn: &mut PgConnection, job: &EmailJob) -> domain::Result<()> {
    queue::push(conn, QUEUE, job, PushOptions { max_attempts: Some(MAX_ATTEMPTS), ..Default::default() }).await?;
    Ok(())
}

pub async fn handle(job: EmailJob, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let Some(email) = render(&ctx, &job).await? else {
        tracing::info!(?job, "nothing to send any more");
        return Ok(());
    };
    ctx.mailer.send(&email).await?;
    tracing::info!(?job, subject = %email.subject, "mail sent");
    Ok(())
}

async fn render(ctx: &JobContext, job: &EmailJob) -> domain::Result<Option<domain::mail::Email>> {
    let pool = &ctx.pool;
    Ok(match *job {
        EmailJob::VerifyEmail { user_id } => match users::find(pool, user_id).await? {
            Some(user) if !user.email_verified && user.is_active => {
                let token = email_links::issue(pool, user.id, &user.email, Purpose::VerifyEmail).await?;
                Some(templates::verification(&ctx.config, &user.email, &user.first_name, &token))
            }
            _ => None,
        },
        EmailJob::ResetPassword { user_id } => match users::find(pool, user_id).await? {
            Some(user) if user.is_active => {
                let token = email_links::issue(pool, user.id, &user.email, Purpose::ResetPassword).await?;
                Some(templates::password_reset(&ctx.config, &user.email, &user.first_name, &token))
            }
            _ => None,
        },
        EmailJob::BookingConfirmed { booking_id } => domain::booking::bookings::find(pool, booking_id)
            .await?
            .filter(|b| b.status == "confirmed")
            .map(|b| templates::booking_confirmed(&ctx.config, &b, chrono::Utc::now())),
        EmailJob::Contact { message_id } => {
            domain::contact::find(pool, message_id).await?.map(|m| templates::contact(&ctx.config, &m))
        }
    })
}
