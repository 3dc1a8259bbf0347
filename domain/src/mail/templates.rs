//! The texts of every e-mail. Links come from `APP_BASE_URL`.

use super::{Email, PRODUCT_NAME};
use crate::{
    config::Config,
    time_format::{self, Format},
};

/// How a session's time reads in a mail body, on the recipient's clock and followed by the zone's
/// abbreviation: 'Monday, Jan 05, 2026 10:00 AM EST'.
pub const SESSION_TIME: Format = Format::WeekdayDateTime;
/// The same without the weekday: 'Jan 05, 2026 10:00 AM EST'.
pub const SESSION_TIME_SHORT: Format = Format::DateTime;
/// The date in a subject line, on the recipient's calendar: 'Jan 05'.
pub const SUBJECT_DATE: Format = Format::ShortDate;

/// The session's start as one side reads it.
fn start(b: &crate::booking::bookings::Booking, to_mentor: bool, format: Format) -> String {
    time_format::in_zone(b.scheduled_at, b.zone_of(to_mentor), format)
}

/// The session's date for a subject line, on one side's calendar.
fn subject_date(b: &crate::booking::bookings::Booking, to_mentor: bool) -> String {
    time_format::in_zone(b.scheduled_at, b.zone_of(to_mentor), SUBJECT_DATE)
}

/// The verification link; `next` (a path of this app) brings the new user back there after signing in.
pub fn verification(config: &Config, to: &str, first_name: &str, token: &str, next: Option<&str>) -> Email {
    let mut query = vec![("token", token)];
    if let Some(next) = next {
        query.push(("next", next));
    }
    let link = config.link("/verify-email", &query);
    action_email(
        to,
        "Verify your email address",
        first_name,
        &format!("Welcome to {PRODUCT_NAME}! Please confirm your email address to activate your account."),
        "Verify email",
        &link,
        "This link expires in 24 hours and can be used once. If you did not create an account, you can ignore this email.",
    )
}

pub fn password_reset(config: &Config, to: &str, first_name: &str, token: &str) -> Email {
    let link = config.link("/reset-password", &[("token", token)]);
    action_email(
        to,
        "Reset your password",
        first_name,
        "We received a request to reset the password of your account.",
        "Reset password",
        &link,
        "This link expires in 1 hour and can be used once. If you did not ask for a reset, you can ignore this email; your password stays the same.",
    )
}

pub const NEW_SIGN_IN_SUBJECT: &str = "New sign-in to your account";
/// The page listing where the account is signed in, linked from the new sign-in mail, and its section.
pub const SESSIONS_PAGE: &str = "/profile";
pub const SESSIONS_SECTION: &str = "privacy-and-security";
/// How the moment of a sign-in reads in its mail: 'Nov 28, 2026 at 08:30 UTC'.
pub const SIGN_IN_TIME: &str = "%b %d, %Y at %H:%M UTC";

/// A short name for a browser from its `User-Agent`: 'Firefox on Linux', or the header itself when
/// it names nothing known, or 'an unknown browser' without one.
pub fn browser_name(user_agent: &str) -> String {
    let ua = user_agent;
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Chromium/", "Chromium"),
        ("Safari/", "Safari"),
    ]
    .iter()
    .find(|(mark, _)| ua.contains(mark))
    .map(|(_, name)| *name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(mark, _)| ua.contains(mark))
    .map(|(_, name)| *name);
    match (browser, system) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.to_string(),
        (None, _) if ua.trim().is_empty() => "an unknown browser".to_string(),
        (None, _) => ua.trim().to_string(),
    }
}

/// A sign-in from a browser and address the account has not used lately: which, from where and when.
pub fn new_sign_in(
    config: &Config,
    to: &str,
    first_name: &str,
    user_agent: &str,
    address: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> Email {
    let link = format!("{}#{SESSIONS_SECTION}", config.link(SESSIONS_PAGE, &[]));
    let address = if address.trim().is_empty() {
        "an unknown address"
    } else {
        address
    };
    action_email(
        to,
        NEW_SIGN_IN_SUBJECT,
        first_name,
        &format!(
            "Your {PRODUCT_NAME} account was signed in to from {} at {address} on {}.",
            browser_name(user_agent),
            at.format(SIGN_IN_TIME)
        ),
        "See where you are signed in",
        &link,
        "If it was you, there is nothing to do. If it was not, sign out that device from the page above and change your password.",
    )
}

pub const DATA_EXPORT_READY_SUBJECT: &str = "Your data is ready to download";
pub const ACCOUNT_DELETION_SUBJECT: &str = "Your account will be deleted";
/// How a date reads in the account mails: 'Dec 12, 2026'.
pub const ACCOUNT_DATE: &str = "%b %d, %Y";

/// The user's copy of their data is built: where to download it, and until when.
pub fn data_export_ready(
    config: &Config,
    to: &str,
    first_name: &str,
    expires_at: chrono::DateTime<chrono::Utc>,
) -> Email {
    let link = format!("{}#{SESSIONS_SECTION}", config.link(SESSIONS_PAGE, &[]));
    action_email(
        to,
        DATA_EXPORT_READY_SUBJECT,
        first_name,
        &format!("The copy of your {PRODUCT_NAME} data you asked for is ready. Sign in to download it."),
        "Download your data",
        &link,
        &format!(
            "The download is available until {} UTC. If you did not ask for it, change your password.",
            expires_at.format(ACCOUNT_DATE)
        ),
    )
}

/// The user asked to delete their account: when it happens, and how to keep it meanwhile.
pub fn account_deletion_scheduled(
    config: &Config,
    to: &str,
    first_name: &str,
    at: chrono::DateTime<chrono::Utc>,
) -> Email {
    let link = format!("{}#{SESSIONS_SECTION}", config.link(SESSIONS_PAGE, &[]));
    action_email(
        to,
        ACCOUNT_DELETION_SUBJECT,
        first_name,
        &format!(
            "Your {PRODUCT_NAME} account will be deleted on {}. Until then you can sign in and choose 'Keep my account'.",
            at.format(ACCOUNT_DATE)
        ),
        "Keep my account",
        &link,
        "Your upcoming sessions were cancelled and you were signed out everywhere. After that date your name, \
         e-mail address, profile and files are removed; messages, reviews and payment records others need stay, without your name.",
    )
}

pub const ACCOUNT_EXISTS_SUBJECT: &str = "Someone tried to create an account with your address";

/// A sign-up with an address that already has a verified account: the owner hears about it, nobody else does.
pub fn account_exists(config: &Config, to: &str, first_name: &str) -> Email {
    let sign_in = config.link("/auth", &[]);
    let reset = config.link("/forgot-password", &[]);
    action_email(
        to,
        ACCOUNT_EXISTS_SUBJECT,
        first_name,
        &format!(
            "Someone tried to create a {PRODUCT_NAME} account with your address, which already has an account. \
             No new account was created and your password stays the same."
        ),
        "If it was you, sign in",
        &sign_in,
        &format!("Forgot your password? Reset it here: {reset}\nIf it was not you, you can ignore this email."),
    )
}

/// The seeker's confirmation, with the session as a calendar invitation.
pub fn booking_confirmed(
    config: &Config,
    b: &crate::booking::bookings::Booking,
    now: chrono::DateTime<chrono::Utc>,
) -> Email {
    let link = config.link("/dashboard", &[]);
    let when = start(b, false, SESSION_TIME);
    let mut email = action_email(
        &b.user_email,
        &format!("Booking confirmed: {} with {}", b.service_title, b.mentor_display_name),
        &b.user_first_name,
        &format!(
            "Your session \"{}\" with {} is confirmed for {when} ({} minutes, total ${}). The attached invitation adds it to your calendar.",
            b.service_title,
            b.mentor_display_name,
            b.duration_minutes,
            crate::money::format(b.total_cents)
        ),
        "Open your dashboard",
        &link,
        "The video session opens 15 minutes before the start. You can reschedule up to 2 hours before, and cancel with a refund by our policy.",
    );
    email.calendar = Some(super::calendar::invite(
        b,
        super::calendar::Method::Request,
        b.calendar_sequence,
        &link,
        &config.mail_from_address(),
        now,
    ));
    email
}

/// The mentor's news of a confirmed booking, with the session as a calendar invitation.
pub fn new_booking(
    config: &Config,
    b: &crate::booking::bookings::Booking,
    now: chrono::DateTime<chrono::Utc>,
) -> Email {
    let link = config.link("/mentor-dashboard", &[]);
    let seeker = format!("{} {}", b.user_first_name, b.user_last_name);
    let paid = if b.total_cents > 0 {
        format!(", paid ${}", crate::money::format(b.total_cents))
    } else {
        String::from(", free")
    };
    let mut email = action_email(
        &b.mentor_email,
        &format!(
            "New booking: {} with {seeker} on {}",
            b.service_title,
            subject_date(b, true)
        ),
        &b.mentor_display_name,
        &format!(
            "{seeker} booked \"{}\" for {} ({} minutes{paid}). The attached invitation adds it to your calendar.",
            b.service_title,
            start(b, true, SESSION_TIME),
            b.duration_minutes
        ),
        "Open your mentor dashboard",
        &link,
        "The video session opens 15 minutes before the start. You can message your client from the booking.",
    );
    email.calendar = Some(super::calendar::invite(
        b,
        super::calendar::Method::Request,
        b.calendar_sequence,
        &link,
        &config.mail_from_address(),
        now,
    ));
    email
}

/// A booking moved: both sides get the updated invitation (same UID, higher SEQUENCE).
pub fn booking_rescheduled(
    config: &Config,
    b: &crate::booking::bookings::Booking,
    to_mentor: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> Email {
    let (to, name, link) = recipient(config, b, to_mentor);
    let when = start(b, to_mentor, SESSION_TIME);
    let moved = if to_mentor {
        format!("{} {} moved", b.user_first_name, b.user_last_name)
    } else {
        String::from("You moved")
    };
    let mut email = action_email(
        &to,
        &format!(
            "Booking rescheduled: {} on {}",
            b.service_title,
            subject_date(b, to_mentor)
        ),
        &name,
        &format!(
            "{moved} \"{}\" to {when}. The attached invitation updates your calendar.",
            b.service_title
        ),
        "Open your dashboard",
        &link,
        "If the new time does not suit you, you can reschedule again up to 2 hours before the start.",
    );
    email.calendar = Some(super::calendar::invite(
        b,
        super::calendar::Method::Request,
        b.calendar_sequence,
        &link,
        &config.mail_from_address(),
        now,
    ));
    email
}

/// A booking was cancelled: both sides get a cancellation for their calendar.
pub fn booking_cancelled(
    config: &Config,
    b: &crate::booking::bookings::Booking,
    to_mentor: bool,
    by_mentor: bool,
    refund_cents: i64,
    now: chrono::DateTime<chrono::Utc>,
) -> Email {
    let (to, name, link) = recipient(config, b, to_mentor);
    let refund = if !to_mentor && refund_cents > 0 {
        format!(
            " A refund of ${} goes back to your card; banks usually show it within 5 to 10 business days.",
            crate::money::format(refund_cents)
        )
    } else {
        String::new()
    };
    let who = match (by_mentor, to_mentor) {
        (true, true) | (false, false) => String::from("You"),
        (true, false) => format!("Your mentor {}", b.mentor_display_name),
        (false, true) => format!("{} {}", b.user_first_name, b.user_last_name),
    };
    let why = b
        .cancellation_reason
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| format!(" Reason: {r}"))
        .unwrap_or_default();
    let mut email = action_email(
        &to,
        &format!(
            "Booking cancelled: {} on {}",
            b.service_title,
            subject_date(b, to_mentor)
        ),
        &name,
        &format!(
            "{who} cancelled \"{}\" on {}.{refund}{why}",
            b.service_title,
            start(b, to_mentor, SESSION_TIME_SHORT)
        ),
        "Open your dashboard",
        &link,
        "The attached update removes the session from your calendar.",
    );
    email.calendar = Some(super::calendar::invite(
        b,
        super::calendar::Method::Cancel,
        b.calendar_sequence,
        &link,
        &config.mail_from_address(),
        now,
    ));
    email
}

/// To the seeker the mentor removed from a group session's call: why, and what happens to the
/// seat's money (the same sentence as on their screen and in the notification), with a
/// cancellation for their calendar.
pub fn removed_from_session(
    config: &Config,
    b: &crate::booking::bookings::Booking,
    reason: crate::statuses::RemovalReason,
    refund_cents: i64,
    now: chrono::DateTime<chrono::Utc>,
) -> Email {
    let link = config.link("/dashboard", &[]);
    let mut email = action_email(
        &b.user_email,
        &format!("Removed from group session: {}", b.service_title),
        &b.user_first_name,
        &format!(
            "{} removed you from the group session \"{}\" on {}. {}",
            b.mentor_display_name,
            b.service_title,
            start(b, false, SESSION_TIME_SHORT),
            crate::group_calls::removals::money_sentence(reason, refund_cents)
        ),
        "Open your dashboard",
        &link,
        "The attached update removes the session from your calendar.",
    );
    // A seat cancelled for `other` raised its sequence; one kept for `conduct` did not, so its
    // cancellation takes the next.
    let sequence = match reason {
        crate::statuses::RemovalReason::Other => b.calendar_sequence,
        crate::statuses::RemovalReason::Conduct => b.calendar_sequence + 1,
    };
    email.calendar = Some(super::calendar::invite(
        b,
        super::calendar::Method::Cancel,
        sequence,
        &link,
        &config.mail_from_address(),
        now,
    ));
    email
}

/// A reminder 24 hours or 1 hour before the start.
pub fn booking_reminder(config: &Config, b: &crate::booking::bookings::Booking, to_mentor: bool, lead: &str) -> Email {
    let (to, name, link) = recipient(config, b, to_mentor);
    action_email(
        &to,
        &format!("Reminder: {} starts in {lead}", b.service_title),
        &name,
        &format!(
            "\"{}\" with {} starts {}.",
            b.service_title,
            if to_mentor {
                format!("{} {}", b.user_first_name, b.user_last_name)
            } else {
                b.mentor_display_name.clone()
            },
            start(b, to_mentor, SESSION_TIME)
        ),
        "Open your dashboard",
        &link,
        "The video session opens 15 minutes before the start.",
    )
}

/// After a completed session: an invitation to review it.
pub fn review_request(config: &Config, b: &crate::booking::bookings::Booking) -> Email {
    let link = config.link("/dashboard", &[]);
    action_email(
        &b.user_email,
        &format!("How was your session with {}?", b.mentor_display_name),
        &b.user_first_name,
        &format!(
            "Your session \"{}\" is complete. A short review helps other seekers find the right mentor.",
            b.service_title
        ),
        "Leave a review",
        &link,
        "You find the review form under Session History on your dashboard.",
    )
}

/// To a mentor: a payout was prepared by the weekly batch.
pub fn payout_created(config: &Config, p: &crate::payouts::PayoutMail) -> Email {
    let sessions = if p.booking_count == 1 {
        "1 session".to_string()
    } else {
        format!("{} sessions", p.booking_count)
    };
    action_email(
        &p.email,
        &format!(
            "Your payout of ${} is being prepared",
            crate::money::format(p.mentor_net_cents)
        ),
        &p.first_name,
        &format!(
            "A payout of ${} for {sessions} is being prepared: ${} earned, less the platform fee of ${}.",
            crate::money::format(p.mentor_net_cents),
            crate::money::format(p.pending_amount_cents),
            crate::money::format(p.platform_fee_cents)
        ),
        "See your earnings",
        &config.link("/mentor-dashboard", &[]),
        "It is sent to the payout method in your payout settings; check them on your dashboard's Payouts tab.",
    )
}

/// To a mentor: their payout destination changed (old and new already masked).
pub fn payout_destination_changed(config: &Config, to: &str, first_name: &str, old: &str, new: &str) -> Email {
    action_email(
        to,
        "Your payout method was changed",
        first_name,
        &format!(
            "Your payouts now go to {new} instead of {old}. A payout waits {} hours after such a change \
             before it uses the new method.",
            crate::payouts::DESTINATION_HOLD.num_hours()
        ),
        "Review your payout settings",
        &config.link("/mentor-dashboard", &[]),
        "If you did not make this change, change your password and contact support through the contact page at once.",
    )
}

/// To a mentor: an administrator approved their profile.
pub fn mentor_approved(config: &Config, to: &str, first_name: &str) -> Email {
    action_email(
        to,
        "Your mentor profile is approved",
        first_name,
        "An administrator reviewed and approved your mentor profile. It is now listed: seekers can find and book you.",
        "Open your dashboard",
        &config.link("/mentor-dashboard", &[]),
        "Keep your availability up to date so seekers can book you.",
    )
}

/// To a mentor: an administrator rejected their profile, with the reason.
pub fn mentor_rejected(config: &Config, to: &str, first_name: &str, reason: &str) -> Email {
    action_email(
        to,
        "Your mentor profile was not approved",
        first_name,
        &format!(
            "An administrator reviewed your mentor profile and did not approve it. Reason: {reason}\n\n\
             You can edit your profile and resubmit it for review from your dashboard."
        ),
        "Edit and resubmit",
        &config.link("/mentor-dashboard", &[]),
        "Until it is approved, your profile is not listed and cannot be booked.",
    )
}

/// To a mentor: an admin sent a payout.
pub fn payout_paid(config: &Config, p: &crate::payouts::PayoutMail) -> Email {
    let method = p.method.unwrap_or(crate::payouts::MANUAL_METHOD).label();
    action_email(
        &p.email,
        &format!("Your payout of ${} was sent", crate::money::format(p.mentor_net_cents)),
        &p.first_name,
        &format!(
            "Your payout of ${} for {} was sent ({method}).",
            crate::money::format(p.mentor_net_cents),
            if p.booking_count == 1 {
                "1 session".to_string()
            } else {
                format!("{} sessions", p.booking_count)
            }
        ),
        "See your earnings",
        &config.link("/mentor-dashboard", &[]),
        "If it has not arrived within a few days, reply to support through the contact page.",
    )
}

fn recipient(config: &Config, b: &crate::booking::bookings::Booking, to_mentor: bool) -> (String, String, String) {
    if to_mentor {
        (
            b.mentor_email.clone(),
            b.mentor_display_name.clone(),
            config.link("/mentor-dashboard", &[]),
        )
    } else {
        (
            b.user_email.clone(),
            b.user_first_name.clone(),
            config.link("/dashboard", &[]),
        )
    }
}

fn action_email(
    to: &str,
    subject: &str,
    first_name: &str,
    intro: &str,
    action: &str,
    link: &str,
    outro: &str,
) -> Email {
    let greeting = if first_name.trim().is_empty() {
        "Hello".to_string()
    } else {
        format!("Hello {first_name}")
    };
    let text = format!("{greeting},\n\n{intro}\n\n{action}:\n{link}\n\n{outro}\n\n{PRODUCT_NAME}\n");
    let html = format!(
        "<!doctype html>\n<html><body style=\"font-family:Helvetica,Arial,sans-serif;color:#1f1b2e;max-width:560px;margin:auto\">\n\
         <h2 style=\"color:#5b3fd1\">{PRODUCT_NAME}</h2>\n<p>{greeting},</p>\n<p>{intro}</p>\n\
         <p><a href=\"{link}\" style=\"display:inline-block;padding:12px 20px;background:#5b3fd1;color:#fff;border-radius:8px;text-decoration:none\">{action}</a></p>\n\
         <p style=\"font-size:13px;color:#555\">Or open this address:<br>\n{link}</p>\n<p style=\"font-size:13px;color:#555\">{outro}</p>\n</body></html>\n",
        greeting = escape(&greeting),
        intro = escape(intro),
        action = escape(action),
        link = escape(link),
        outro = escape(outro),
    );
    Email {
        to: to.to_string(),
        subject: subject.to_string(),
        text,
        html,
        reply_to: None,
        calendar: None,
        unsubscribe: None,
        attachments: Vec::new(),
    }
}

/// An administrator's announcement, to a user whose "Marketing emails" preference is on.
pub fn announcement(config: &Config, to: &str, first_name: &str, title: &str, message: &str) -> Email {
    action_email(
        to,
        title,
        first_name,
        message,
        "Open your notifications",
        &config.link("/notifications", &[]),
        "You also find it under Notifications when you sign in.",
    )
}

/// A contact-form message, to support, answerable by replying.
pub fn contact(config: &Config, message: &crate::contact::ContactMessage) -> Email {
    let category = message.category.label();
    let subject_line = if message.subject.trim().is_empty() {
        "(no subject)"
    } else {
        message.subject.trim()
    };
    let subject = format!("[Contact] {category}: {subject_line}");
    let text = format!(
        "New message from the contact form\n\nFrom: {} <{}>\nCategory: {category}\nSubject: {subject_line}\n\n{}\n\nReply to this e-mail to answer; support promises a reply within 24 hours.\n",
        message.name, message.email, message.message
    );
    let html = format!(
        "<!doctype html>\n<html><body style=\"font-family:Helvetica,Arial,sans-serif;color:#1f1b2e\">\n<h2>New message from the contact form</h2>\n\
         <p><b>From:</b> {} &lt;{}&gt;<br>\n<b>Category:</b> {}<br>\n<b>Subject:</b> {}</p>\n<p style=\"white-space:pre-wrap\">{}</p>\n</body></html>\n",
        escape(&message.name),
        escape(&message.email),
        escape(category),
        escape(subject_line),
        escape(&message.message),
    );
    Email {
        to: config.support_email.clone(),
        subject,
        text,
        html,
        reply_to: Some(message.email.clone()),
        calendar: None,
        unsubscribe: None,
        attachments: Vec::new(),
    }
}

/// A receipt's PDF as an attachment.
pub fn receipt_attachment(config: &Config, r: &crate::receipts::Receipt) -> anyhow::Result<super::Attachment> {
    Ok(super::Attachment {
        filename: crate::receipts::pdf::file_name(r),
        content_type: "application/pdf".into(),
        content: crate::receipts::pdf::render(r, &config.platform)?,
    })
}

/// The seeker's receipt for a payment on its own (their booking confirmations are off; receipts are
/// transactional).
pub fn payment_receipt(config: &Config, r: &crate::receipts::Receipt, first_name: &str) -> anyhow::Result<Email> {
    let mut email = action_email(
        &r.payer_email,
        &format!("Your receipt {}", r.number),
        first_name,
        &format!(
            "Thank you for your payment of ${} for {}. Your receipt {} is attached.",
            crate::money::format(r.amount_cents),
            r.description,
            r.number
        ),
        "See your receipts",
        &config.link("/receipts", &[]),
        "Receipts are sent for every payment and refund.",
    );
    email.attachments.push(receipt_attachment(config, r)?);
    Ok(email)
}

/// The seeker: a refund was paid back to their card, with its receipt attached.
pub fn refund_issued(config: &Config, r: &crate::receipts::Receipt, first_name: &str) -> anyhow::Result<Email> {
    let card = r
        .card_last4
        .as_deref()
        .map(|l| format!(" to your card ending in {l}"))
        .unwrap_or_default();
    let mut email = action_email(
        &r.payer_email,
        &format!("Refund of ${} issued", crate::money::format(r.amount_cents)),
        first_name,
        &format!(
            "A refund of ${} for {} was issued{card}. Banks usually show it within 5 to 10 business days. Your receipt {} is attached.",
            crate::money::format(r.amount_cents),
            r.description,
            r.number
        ),
        "See your receipts",
        &config.link("/receipts", &[]),
        "Receipts are sent for every payment and refund.",
    );
    email.attachments.push(receipt_attachment(config, r)?);
    Ok(email)
}

/// The mentor: a client of theirs was refunded.
pub fn refund_to_client(config: &Config, to: &str, first_name: &str, client: &str, title: &str, cents: i64) -> Email {
    action_email(
        to,
        &format!("A client was refunded ${}", crate::money::format(cents)),
        first_name,
        &format!(
            "{client} was refunded ${} for \"{title}\". A refund of a session already paid out to you comes off your next payout (your share of it).",
            crate::money::format(cents)
        ),
        "Open your dashboard",
        &config.link("/mentor-dashboard", &[]),
        "See your earnings on the Payouts tab.",
    )
}

/// The mentor: a seeker reported a problem with their session.
pub fn complaint_opened(config: &Config, to: &str, first_name: &str, client: &str, title: &str, reason: &str) -> Email {
    action_email(
        to,
        &format!("A client reported a problem with \"{title}\""),
        first_name,
        &format!(
            "{client} reported a problem with \"{title}\": {reason}. You can answer once, within 48 hours, before an administrator decides."
        ),
        "Answer the complaint",
        &config.link("/mentor-dashboard", &[]),
        "Payouts of this session wait until the complaint is decided.",
    )
}

/// Both parties: a complaint's outcome and the amount refunded.
pub fn complaint_decided(
    config: &Config,
    to: &str,
    first_name: &str,
    to_mentor: bool,
    title: &str,
    outcome: &str,
    note: &str,
) -> Email {
    let (intro, link) = if to_mentor {
        (
            format!("The complaint about \"{title}\" was decided: {outcome}. Note: {note}"),
            config.link("/mentor-dashboard", &[]),
        )
    } else {
        (
            format!("Your complaint about \"{title}\" was decided: {outcome}. Note: {note}"),
            config.link("/dashboard", &[]),
        )
    };
    action_email(
        to,
        &format!("Complaint decided: {outcome}"),
        first_name,
        &intro,
        "Open your dashboard",
        &link,
        "A refund reaches the card it was paid with; its receipt follows by e-mail.",
    )
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config::from_lookup(|k| match k {
            "APP_BASE_URL" => Some("https://mentors.example".to_string()),
            "PAYMENT_GATEWAY" => Some("test".to_string()),
            // https is the production profile, which needs a key for secrets at rest.
            "SECRETS_KEY" => Some("AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=".to_string()),
            _ => None,
        })
        .unwrap()
    }

    fn booking() -> crate::booking::bookings::Booking {
        let mut b = crate::mail::calendar::test_booking("Star reading", "Mira");
        b.scheduled_at = chrono::DateTime::parse_from_rfc3339("2027-03-05T14:30:00Z")
            .unwrap()
            .to_utc();
        b.user_time_zone = Some("Europe/Paris".into());
        b.mentor_time_zone = "America/New_York".into();
        b
    }

    #[test]
    fn the_mentor_hears_of_a_new_booking_on_their_own_clock_with_the_invitation() {
        let b = booking();
        let mail = new_booking(&config(), &b, b.scheduled_at);
        assert_eq!(mail.to, b.mentor_email);
        assert!(
            mail.subject.starts_with("New booking: Star reading with "),
            "{}",
            mail.subject
        );
        assert!(mail.text.contains("Friday, Mar 05, 2027 9:30 AM EST"), "{}", mail.text);
        assert!(mail.calendar.is_some());
        let seeker = booking_confirmed(&config(), &b, b.scheduled_at);
        assert!(
            seeker.text.contains("Friday, Mar 05, 2027 3:30 PM CET"),
            "{}",
            seeker.text
        );
    }

    #[test]
    fn a_cancellation_names_who_cancelled_from_the_readers_side() {
        let b = booking();
        let seeker = format!("{} {}", b.user_first_name, b.user_last_name);
        let to_seeker = booking_cancelled(&config(), &b, false, false, 2000, b.scheduled_at);
        assert!(
            to_seeker
                .text
                .contains("You cancelled \"Star reading\" on Mar 05, 2027 3:30 PM CET. A refund of $20.00"),
            "{}",
            to_seeker.text
        );
        let to_mentor = booking_cancelled(&config(), &b, true, false, 2000, b.scheduled_at);
        assert!(
            to_mentor.text.contains(&format!(
                "{seeker} cancelled \"Star reading\" on Mar 05, 2027 9:30 AM EST."
            )),
            "{}",
            to_mentor.text
        );
        let by_mentor = booking_cancelled(&config(), &b, false, true, 0, b.scheduled_at);
        assert!(
            by_mentor.text.contains("Your mentor Mira cancelled"),
            "{}",
            by_mentor.text
        );
        let b = crate::booking::bookings::Booking {
            cancellation_reason: Some(" I am ill ".into()),
            ..b
        };
        let with_reason = booking_cancelled(&config(), &b, false, true, 4000, b.scheduled_at);
        assert!(with_reason.text.contains("A refund of $40.00 goes back to your card; banks usually show it within 5 to 10 business days. Reason: I am ill"), "{}", with_reason.text);
    }

    #[test]
    fn vetting_mails_link_to_the_dashboard_and_give_the_reason_escaped() {
        let approved = mentor_approved(&config(), "nova@example.com", "Nova");
        assert_eq!(approved.subject, "Your mentor profile is approved");
        assert!(approved.text.contains("/mentor-dashboard"));
        let rejected = mentor_rejected(&config(), "nova@example.com", "Nova", "Add <b>your</b> photo.");
        assert_eq!(rejected.subject, "Your mentor profile was not approved");
        assert!(rejected.text.contains("Reason: Add <b>your</b> photo."));
        assert!(rejected.html.contains("Reason: Add &lt;b&gt;your&lt;/b&gt; photo."));
        assert!(!rejected.html.contains("<b>your</b>"));
    }

    #[test]
    fn verification_links_to_the_app() {
        let mail = verification(&config(), "ann@example.com", "Ann <3", "tok123", None);
        assert_eq!(mail.subject, "Verify your email address");
        assert!(
            mail.text
                .contains("https://mentors.example/verify-email?token=tok123\n")
        );
        assert!(
            mail.html
                .contains("href=\"https://mentors.example/verify-email?token=tok123\"")
        );
        assert!(mail.html.contains("Hello Ann &lt;3"), "names are escaped in HTML");
        let back = verification(&config(), "ann@example.com", "Ann", "tok123", Some("/become-mentor"));
        assert!(
            back.text
                .contains("https://mentors.example/verify-email?token=tok123&next=%2Fbecome-mentor\n")
        );
    }

    #[test]
    fn new_sign_in_names_browser_address_and_time_and_links_to_sessions() {
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-28T08:30:00Z")
            .unwrap()
            .to_utc();
        let ua = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";
        let mail = new_sign_in(&config(), "ann@example.com", "Ann", ua, "203.0.113.9", at);
        assert_eq!(mail.subject, "New sign-in to your account");
        assert!(mail.text.contains("Firefox on Linux"), "{}", mail.text);
        assert!(mail.text.contains("203.0.113.9"));
        assert!(mail.text.contains("Nov 28, 2026 at 08:30 UTC"));
        assert!(
            mail.text
                .contains("https://mentors.example/profile#privacy-and-security")
        );
    }

    #[test]
    fn browser_names_come_from_the_user_agent() {
        let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
        assert_eq!(browser_name(chrome), "Chrome on Windows");
        assert_eq!(browser_name(""), "an unknown browser");
        assert_eq!(browser_name("curl/8.0"), "curl/8.0");
    }

    #[test]
    fn account_exists_links_to_sign_in_and_reset() {
        let mail = account_exists(&config(), "ann@example.com", "Ann");
        assert_eq!(mail.subject, "Someone tried to create an account with your address");
        assert!(mail.text.contains("https://mentors.example/auth\n"));
        assert!(mail.text.contains("https://mentors.example/forgot-password"));
        assert!(mail.html.contains("href=\"https://mentors.example/auth\""));
    }

    #[test]
    fn reset_links_to_the_app() {
        let mail = password_reset(&config(), "ann@example.com", "Ann", "tok456");
        assert_eq!(mail.subject, "Reset your password");
        assert!(
            mail.text
                .contains("https://mentors.example/reset-password?token=tok456")
        );
        assert!(mail.text.contains("1 hour"));
    }
}
