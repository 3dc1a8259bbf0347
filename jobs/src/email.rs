//! Sending e-mails: verification, password reset, booking confirmations, changes and reminders,
//! review requests, contact-form messages.
//!
//! When: enqueued by the api or another job in the same transaction as the change that causes
//! the mail, and run as soon as a worker is free (after a worker was down, the task waits in
//! Postgres). A failed send retries with exponential backoff; after [`MAX_ATTEMPTS`] the task stays
//! visible as `Failed` in `apalis.jobs`.
//! Safe to run twice: the recipient's state and e-mail preferences are read at run time (an
//! address verified meanwhile gets no second verification mail; a link is fresh and single use).

use apalis::prelude::{BoxDynError, Data};
use chrono::Utc;
use domain::{
    accounts::{
        email_links,
        email_links::Purpose,
        email_preferences, unsubscribe,
        unsubscribe::Preference::{self, BookingConfirmations, BookingReminders, MarketingEmails, ReviewRequests},
        users,
    },
    booking::BookingStatus,
    booking::bookings::{self, Booking},
    mail::{Email, templates},
};
use uuid::Uuid;

use crate::{context::JobContext, job::Job};

/// The payload is defined once, in `domain` (business rules there queue it too).
pub use domain::job_queue::email::{EmailJob, MAX_ATTEMPTS, QUEUE, enqueue};

impl Job for EmailJob {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;
}

pub async fn handle(job: EmailJob, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let emails = render(&ctx, &job).await?;
    if emails.is_empty() {
        tracing::info!(?job, "nothing to send");
    }
    for email in &emails {
        ctx.mailer.send(email).await?;
        tracing::info!(?job, subject = %email.subject, "mail sent");
    }
    Ok(())
}

/// Whether `user_id` wants the mail that `what` governs.
async fn allows(ctx: &JobContext, user_id: Uuid, what: Preference) -> domain::Result<bool> {
    let p = email_preferences::get(&ctx.pool, user_id).await?;
    Ok(match what {
        BookingConfirmations => p.booking_confirmations,
        BookingReminders => p.booking_reminders,
        MarketingEmails => p.marketing_emails,
        ReviewRequests => p.review_requests,
    })
}

/// `email` to `user_id`, carrying the one-click link that turns `what` off (RFC 8058).
async fn governed(ctx: &JobContext, user_id: Uuid, what: Preference, email: Email) -> domain::Result<Email> {
    let link = unsubscribe::link(&ctx.pool, &ctx.config, user_id, what).await?;
    Ok(Email {
        unsubscribe: Some(link),
        ..email
    })
}

/// The seeker's and the mentor's copies, each only where its recipient allows it.
async fn both_sides(
    ctx: &JobContext,
    b: &Booking,
    what: Preference,
    make: impl Fn(bool) -> Email,
) -> domain::Result<Vec<Email>> {
    let mut out = Vec::new();
    if allows(ctx, b.user_id, what).await? {
        out.push(governed(ctx, b.user_id, what, make(false)).await?);
    }
    if allows(ctx, b.mentor_user_id, what).await? {
        out.push(governed(ctx, b.mentor_user_id, what, make(true)).await?);
    }
    Ok(out)
}

async fn render(ctx: &JobContext, job: &EmailJob) -> domain::Result<Vec<Email>> {
    let pool = &ctx.pool;
    let config = &ctx.config;
    let booking = |id: Uuid| async move { bookings::find(pool, id).await };
    Ok(match job {
        EmailJob::VerifyEmail { user_id } => match users::find(pool, *user_id).await? {
            Some(user) if !user.email_verified && user.is_active => {
                let token = email_links::issue(pool, user.id, &user.email, Purpose::VerifyEmail).await?;
                vec![templates::verification(config, &user.email, &user.first_name, &token)]
            }
            _ => vec![],
        },
        EmailJob::ResetPassword { user_id } => match users::find(pool, *user_id).await? {
            Some(user) if user.is_active => {
                let token = email_links::issue(pool, user.id, &user.email, Purpose::ResetPassword).await?;
                vec![templates::password_reset(config, &user.email, &user.first_name, &token)]
            }
            _ => vec![],
        },
        EmailJob::AccountExists { user_id } => match users::find(pool, *user_id).await? {
            Some(user) if user.is_active && user.email_verified => {
                vec![templates::account_exists(config, &user.email, &user.first_name)]
            }
            Some(user) if user.is_active => {
                let token = email_links::issue(pool, user.id, &user.email, Purpose::VerifyEmail).await?;
                vec![templates::verification(config, &user.email, &user.first_name, &token)]
            }
            _ => vec![],
        },
        EmailJob::Contact { message_id } => domain::contact::find(pool, *message_id)
            .await?
            .map(|m| templates::contact(config, &m))
            .into_iter()
            .collect(),
        EmailJob::BookingConfirmed { booking_id } => match booking(*booking_id)
            .await?
            .filter(|b| b.status == BookingStatus::Confirmed)
        {
            Some(b) => {
                both_sides(ctx, &b, BookingConfirmations, |to_mentor| {
                    if to_mentor {
                        templates::new_booking(config, &b, Utc::now())
                    } else {
                        templates::booking_confirmed(config, &b, Utc::now())
                    }
                })
                .await?
            }
            None => vec![],
        },
        EmailJob::BookingRescheduled { booking_id } => match booking(*booking_id).await?.filter(|b| b.status.is_live())
        {
            Some(b) => {
                both_sides(ctx, &b, BookingConfirmations, |to_mentor| {
                    templates::booking_rescheduled(config, &b, to_mentor, Utc::now())
                })
                .await?
            }
            None => vec![],
        },
        EmailJob::BookingCancelled {
            booking_id,
            refund_cents,
            by_mentor,
        } => match booking(*booking_id)
            .await?
            .filter(|b| b.status == BookingStatus::Cancelled)
        {
            Some(b) => {
                both_sides(ctx, &b, BookingConfirmations, |to_mentor| {
                    templates::booking_cancelled(config, &b, to_mentor, *by_mentor, *refund_cents, Utc::now())
                })
                .await?
            }
            None => vec![],
        },
        EmailJob::BookingReminder { booking_id, lead } => {
            match booking(*booking_id).await?.filter(|b| b.status.is_live()) {
                // A group seat reminds its seeker only: the mentor is not reminded once per seat.
                Some(b) if b.group_session_id.is_some() => match allows(ctx, b.user_id, BookingReminders).await? {
                    true => vec![
                        governed(
                            ctx,
                            b.user_id,
                            BookingReminders,
                            templates::booking_reminder(config, &b, false, lead),
                        )
                        .await?,
                    ],
                    false => vec![],
                },
                Some(b) => {
                    both_sides(ctx, &b, BookingReminders, |to_mentor| {
                        templates::booking_reminder(config, &b, to_mentor, lead)
                    })
                    .await?
                }
                None => vec![],
            }
        }
        EmailJob::ReviewRequest { booking_id } => match booking(*booking_id)
            .await?
            .filter(|b| b.status == BookingStatus::Completed)
        {
            Some(b) if allows(ctx, b.user_id, ReviewRequests).await? => {
                vec![governed(ctx, b.user_id, ReviewRequests, templates::review_request(config, &b)).await?]
            }
            _ => vec![],
        },
        // Payout mails are transactional, like booking confirmations: that preference governs them.
        EmailJob::PayoutCreated { payout_id } => match domain::payouts::find_for_mail(pool, *payout_id).await? {
            Some(p) if allows(ctx, p.mentor_user_id, BookingConfirmations).await? => {
                let user_id = p.mentor_user_id;
                vec![
                    governed(
                        ctx,
                        user_id,
                        BookingConfirmations,
                        templates::payout_created(config, &p),
                    )
                    .await?,
                ]
            }
            _ => vec![],
        },
        EmailJob::PayoutDestinationChanged { mentor_id, old, new } => {
            match domain::payouts::mentor_for_mail(pool, *mentor_id).await? {
                Some((email, first_name)) => vec![templates::payout_destination_changed(
                    config,
                    &email,
                    &first_name,
                    old,
                    new,
                )],
                None => vec![],
            }
        }
        // A decision on the mentor's own profile: sent whatever the preferences say.
        EmailJob::MentorApproved { mentor_id } => match domain::payouts::mentor_for_mail(pool, *mentor_id).await? {
            Some((email, first_name)) => vec![templates::mentor_approved(config, &email, &first_name)],
            None => vec![],
        },
        EmailJob::MentorRejected { mentor_id, reason } => {
            match domain::payouts::mentor_for_mail(pool, *mentor_id).await? {
                Some((email, first_name)) => vec![templates::mentor_rejected(config, &email, &first_name, reason)],
                None => vec![],
            }
        }
        EmailJob::PayoutPaid { payout_id } => match domain::payouts::find_for_mail(pool, *payout_id).await? {
            Some(p)
                if p.status == domain::payouts::PayoutStatus::Paid
                    && allows(ctx, p.mentor_user_id, BookingConfirmations).await? =>
            {
                let user_id = p.mentor_user_id;
                vec![governed(ctx, user_id, BookingConfirmations, templates::payout_paid(config, &p)).await?]
            }
            _ => vec![],
        },
        EmailJob::Announcement {
            announcement_id,
            user_id,
        } => match (
            users::find(pool, *user_id).await?,
            domain::announcements::find(pool, *announcement_id).await?,
        ) {
            (Some(user), Some(a)) if user.is_active && allows(ctx, user.id, MarketingEmails).await? => {
                let email = templates::announcement(config, &user.email, &user.first_name, &a.title, &a.message);
                vec![governed(ctx, user.id, MarketingEmails, email).await?]
            }
            _ => vec![],
        },
    })
}
