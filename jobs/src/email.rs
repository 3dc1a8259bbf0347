//! Sending e-mails: verification, password reset, booking confirmations, changes and reminders,
//! review requests, contact-form messages.
//!
//! When: enqueued by the api or another job in the same transaction as the change that causes
//! the mail, and run as soon as a worker is free (after a worker was down, the task waits in
//! Postgres). A failed send retries with exponential backoff; after [`MAX_ATTEMPTS`] the task stays
//! visible as `Failed` in `apalis.jobs`.
//! Safe to run twice: each mail goes out once per task (`domain::mail::sends`, issue 37). A run
//! claims each of its mails before sending it and marks it sent once the SMTP server accepted it;
//! a task run again (its worker killed, or cut off from the database before it marked the task
//! done) skips the mails marked sent ("already sent") and sends the others. A second request (a new
//! verification link, another password reset) is another task, and sends its own mail. The
//! recipient's state and e-mail preferences are read at run time (an address verified meanwhile
//! gets no second verification mail; a link is fresh and single use). Left: a mail the server
//! accepted that could not be marked sent within `sends::MARK_SENT_PATIENCE` goes again on the next
//! run, with the same Message-ID, which receivers that drop duplicates show once.

use std::time::Duration;

use apalis::prelude::{Attempt, BoxDynError, Data, TaskId};
use chrono::Utc;
use domain::{
    accounts::{
        email_links,
        email_links::Purpose,
        email_preferences, unsubscribe,
        unsubscribe::Preference::{self, BookingConfirmations, BookingReminders, MarketingEmails, ReviewRequests},
        users, validation,
    },
    booking::BookingStatus,
    booking::bookings::{self, Booking},
    complaints,
    mail::{
        Email,
        sends::{self, Claim, Key},
        templates,
    },
    payments::refund_payout,
    receipts,
};
use uuid::Uuid;

use crate::{context::JobContext, handler::Handler};

/// The payload is defined once, in `domain` (business rules there queue it too).
pub use domain::job_queue::email::{EmailJob, MAX_ATTEMPTS, QUEUE, enqueue};

impl Handler for EmailJob {
    /// A run with no task to key its mails by (a test calling it directly): a task of its own.
    async fn handle(self, ctx: Data<JobContext>, _: Attempt) -> Result<(), BoxDynError> {
        send(self, ctx, &Uuid::new_v4().to_string()).await
    }

    async fn run(self, ctx: Data<JobContext>, _: Attempt, task: TaskId) -> Result<(), BoxDynError> {
        send(self, ctx, &task.to_string()).await
    }
}

/// The pause between two tries to mark a mail sent starts here and doubles up to
/// [`MARK_SENT_PAUSE_MAX`], for [`sends::MARK_SENT_PATIENCE`] in all.
const MARK_SENT_PAUSE_MIN: Duration = Duration::from_millis(250);
const MARK_SENT_PAUSE_MAX: Duration = Duration::from_secs(4);
/// Waited beyond a busy claim's lease before asking again.
const BUSY_MARGIN: Duration = Duration::from_millis(500);

async fn send(job: EmailJob, ctx: Data<JobContext>, task_id: &str) -> Result<(), BoxDynError> {
    let emails = render(&ctx, &job).await?;
    if emails.is_empty() {
        tracing::info!(?job, "nothing to send");
    }
    let kind = job.kind();
    let keys = Key::of_task(task_id, emails.iter().map(|e| e.to.as_str()));
    for (email, key) in emails.iter().zip(&keys) {
        // A removed person's row keeps an address that cannot receive mail (issue 35): never try.
        if domain::ownership::deletion::is_removed_address(&email.to) {
            tracing::info!(?job, subject = %email.subject, "not sent: the recipient was removed");
            continue;
        }
        if !claim(&ctx, key, &kind).await? {
            tracing::info!(?job, subject = %email.subject, "already sent");
            continue;
        }
        if let Err(err) = ctx.mailer.send_as(email, &key.message_id()).await {
            // Let go, so the next try sends it without waiting for the claim's lease.
            if let Err(release) = sends::release(&ctx.pool, key).await {
                tracing::warn!(?job, error = %release, "could not let go of a mail whose send failed");
            }
            return Err(err.into());
        }
        mark_sent(&ctx, &job, key).await?;
        tracing::info!(?job, subject = %email.subject, "mail sent");
    }
    Ok(())
}

/// Whether this run is to send the mail `key` (false: a run of its task sent it already). A claim
/// held by another run (one still sending, or one that died) is waited out once.
async fn claim(ctx: &JobContext, key: &Key, kind: &str) -> Result<bool, BoxDynError> {
    let mut waited = false;
    loop {
        match sends::claim(&ctx.pool, key, kind).await? {
            Claim::Send => return Ok(true),
            Claim::AlreadySent => return Ok(false),
            Claim::Busy(_) if waited => {
                return Err("another run of this task is sending this mail; trying again later".into());
            }
            Claim::Busy(wait) => {
                tracing::info!(
                    kind,
                    wait_secs = wait.as_secs_f64(),
                    "another run of this task claimed this mail; waiting"
                );
                tokio::time::sleep(wait.min(sends::CLAIM_LEASE) + BUSY_MARGIN).await;
                waited = true;
            }
        }
    }
}

/// Marks `key` sent, trying again for [`sends::MARK_SENT_PATIENCE`] while the database does not
/// answer: a mail the server accepted and that stays unmarked goes again on the task's next run.
async fn mark_sent(ctx: &JobContext, job: &EmailJob, key: &Key) -> Result<(), BoxDynError> {
    let deadline = tokio::time::Instant::now() + sends::MARK_SENT_PATIENCE;
    let mut pause = MARK_SENT_PAUSE_MIN;
    loop {
        match sends::mark_sent(&ctx.pool, key).await {
            Ok(()) => return Ok(()),
            Err(err) if tokio::time::Instant::now() + pause < deadline => {
                tracing::warn!(?job, error = %err, "could not mark a sent mail sent; trying again");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(MARK_SENT_PAUSE_MAX);
            }
            Err(err) => {
                tracing::error!(?job, error = %err, "could not mark a sent mail sent: the next run sends it again");
                return Err(err.into());
            }
        }
    }
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

/// `email` to `user_id`, carrying the one-click link that turns `what` off (RFC 8058) in its
/// header and, with a link to the e-mail preferences, in a footer the reader sees.
async fn governed(ctx: &JobContext, user_id: Uuid, what: Preference, email: Email) -> domain::Result<Email> {
    let link = unsubscribe::link(&ctx.pool, &ctx.config, user_id, what).await?;
    let preferences = ctx
        .config
        .link(domain::mail::PREFERENCES_PATH, &[domain::mail::PREFERENCES_TAB]);
    Ok(email.governed_by(what.label(), &link, &preferences))
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
        EmailJob::VerifyEmail { user_id, next } => match users::find(pool, *user_id).await? {
            Some(user) if !user.email_verified && user.is_active => {
                let token = email_links::issue(pool, user.id, &user.email, Purpose::VerifyEmail).await?;
                // Checked again here: a queued job is data, and only a path of this app may ride along.
                let next = next.as_deref().and_then(|n| validation::return_path(n).ok());
                vec![templates::verification(
                    config,
                    &user.email,
                    &user.first_name,
                    &token,
                    next.as_deref(),
                )]
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
                vec![templates::verification(
                    config,
                    &user.email,
                    &user.first_name,
                    &token,
                    None,
                )]
            }
            _ => vec![],
        },
        EmailJob::NewSignIn {
            user_id,
            user_agent,
            address,
            at,
        } => match users::find(pool, *user_id).await? {
            Some(user) if user.is_active => vec![templates::new_sign_in(
                config,
                &user.email,
                &user.first_name,
                user_agent,
                address,
                *at,
            )],
            _ => vec![],
        },
        EmailJob::DataExportReady { export_id } => {
            match domain::ownership::data_export::owner_for_mail(pool, *export_id).await? {
                Some((email, first_name, expires_at)) => {
                    vec![templates::data_export_ready(config, &email, &first_name, expires_at)]
                }
                None => vec![],
            }
        }
        EmailJob::AccountDeletionScheduled { user_id, at } => match users::find(pool, *user_id).await? {
            // Only while the deletion is still scheduled for that date (not kept meanwhile).
            Some(user) if user.is_active && user.deletion_scheduled_at == Some(*at) => {
                vec![templates::account_deletion_scheduled(
                    config,
                    &user.email,
                    &user.first_name,
                    *at,
                )]
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
                // The seeker's confirmation carries the payment's receipt; without confirmations the
                // receipt goes alone (receipts are transactional).
                let receipt = receipts::of_booking_payment(pool, b.id).await?;
                let mut out = Vec::new();
                if allows(ctx, b.user_id, BookingConfirmations).await? {
                    let mut email = templates::booking_confirmed(config, &b, Utc::now());
                    if let Some(r) = &receipt {
                        email.attachments.push(templates::receipt_attachment(config, r)?);
                    }
                    out.push(governed(ctx, b.user_id, BookingConfirmations, email).await?);
                } else if let Some(r) = &receipt {
                    out.push(templates::payment_receipt(config, r, &b.user_first_name)?);
                }
                if allows(ctx, b.mentor_user_id, BookingConfirmations).await? {
                    let email = templates::new_booking(config, &b, Utc::now());
                    out.push(governed(ctx, b.mentor_user_id, BookingConfirmations, email).await?);
                }
                out
            }
            None => vec![],
        },
        // Sent whatever the preferences: the money's receipt is transactional.
        EmailJob::RefundIssued { refund_id } => {
            let mut out = Vec::new();
            if let Some(r) = receipts::of_refund(pool, *refund_id).await? {
                let first_name = users::find(pool, r.user_id)
                    .await?
                    .map(|u| u.first_name)
                    .unwrap_or_default();
                out.push(templates::refund_issued(config, &r, &first_name)?);
            }
            if let Some(f) = domain::refunds::mail_facts(pool, *refund_id).await?
                && refund_payout::mentor_hears_of(f.reason)
            {
                let client = format!("{} {}", f.seeker_first_name, f.seeker_last_name);
                out.push(templates::refund_to_client(
                    config,
                    &f.mentor_email,
                    &f.mentor_first_name,
                    &client,
                    &f.title,
                    f.amount_cents,
                ));
            }
            out
        }
        EmailJob::ComplaintOpened { complaint_id } => match complaints::mail_facts(pool, *complaint_id).await? {
            Some(c) => vec![templates::complaint_opened(
                config,
                &c.mentor_email,
                &c.mentor_first_name,
                &format!("{} {}", c.seeker_first_name, c.seeker_last_name),
                &c.title,
                complaints::reason_label(c.reason),
            )],
            None => vec![],
        },
        EmailJob::ComplaintDecided { complaint_id } => match complaints::mail_facts(pool, *complaint_id).await? {
            Some(c) => match c.outcome {
                Some(outcome) => {
                    let what = complaints::outcome_label(outcome, c.outcome_cents.unwrap_or(0));
                    let note = c.note.clone().unwrap_or_default();
                    vec![
                        templates::complaint_decided(
                            config,
                            &c.seeker_email,
                            &c.seeker_first_name,
                            false,
                            &c.title,
                            &what,
                            &note,
                        ),
                        templates::complaint_decided(
                            config,
                            &c.mentor_email,
                            &c.mentor_first_name,
                            true,
                            &c.title,
                            &what,
                            &note,
                        ),
                    ]
                }
                None => vec![],
            },
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
        // The seeker alone: the mentor removed them and knows.
        EmailJob::RemovedFromSession {
            booking_id,
            reason,
            refund_cents,
        } => match booking(*booking_id).await? {
            Some(b) if allows(ctx, b.user_id, BookingConfirmations).await? => {
                let email = templates::removed_from_session(config, &b, *reason, *refund_cents, Utc::now());
                vec![governed(ctx, b.user_id, BookingConfirmations, email).await?]
            }
            _ => vec![],
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
