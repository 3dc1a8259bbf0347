//! Complaints: a seeker reports a problem with a session from its start until 24 hours after its end,
//! once per booking. An open complaint holds the booking (no completion, no payout). A one-to-one
//! `mentor_no_show` filed 15 minutes or more after the start is settled at once with a full refund when
//! the call evidence shows it ([`evidence`]); otherwise an admin decides (full, partial or no refund).
//! The mentor may answer once within 48 hours. A group session whose mentor never joined its call is
//! settled by the state job that ends it ([`group_no_show`]).
//!
//! Each decision is one operation here, one transaction: the complaint's change, the refund (queued for
//! the refund job), the payouts that follow, the booking's new state, the audit row and the notices.

pub mod evidence;
pub mod group_no_show;
pub mod lists;

use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sqlx::{FromRow, PgConnection, PgPool};
use uuid::Uuid;

pub use crate::statuses::{ComplaintReason, ComplaintStatus, Outcome};
use crate::{
    Error, Result, audit,
    booking::{BookingStatus, bookings, completion, lifecycle, notices},
    choice::Choice,
    job_queue::email::{self, EmailJob},
    money::{self, RefundReason},
    notifications::{self, Kind},
    payouts::adjustments,
    refunds::{self, BookingMoney},
    text,
};

impl Outcome {
    /// No refund rejects a complaint; a refund, full or partial, resolves it.
    pub fn status(self) -> ComplaintStatus {
        match self {
            Outcome::NoRefund => ComplaintStatus::Rejected,
            Outcome::FullRefund | Outcome::PartialRefund => ComplaintStatus::Resolved,
        }
    }
}

/// Complaints are open until this long after the session's end (the help policy's 24 hours; the
/// completion job waits as long).
pub const REPORT_WINDOW: Duration = completion::COMPLAINT_WINDOW;
/// A no-show complaint waits this long after the start: the mentor may be late.
pub const NO_SHOW_WAIT: Duration = Duration::minutes(15);
/// The mentor may answer within this long of the complaint.
pub const RESPONSE_WINDOW: Duration = Duration::hours(48);
pub const MAX_DETAILS_CHARS: usize = 2000;
pub const MAX_RESPONSE_CHARS: usize = 2000;
pub const MAX_NOTE_CHARS: usize = refunds::MAX_NOTE_CHARS;

pub const NOT_FOUND: &str = "Complaint not found";
pub const NOT_STARTED: &str = "You can report a problem once the session has started.";
pub const WINDOW_CLOSED: &str = "The 24-hour window for reporting a problem with this session has closed.";
pub const WAIT_FOR_MENTOR: &str = "Please give the mentor 15 minutes.";
pub const ALREADY_REPORTED: &str = "You have already reported a problem with this session.";
pub const NOT_REPORTABLE: &str = "Only booked sessions can be reported: this one was cancelled or never paid for.";
pub const INVALID_REASON: &str = "Reason must be mentor_no_show, technical_problem, not_as_described or other";
pub const NO_DETAILS: &str = "Please describe what went wrong";
pub const DETAILS_TOO_LONG: &str = "Details must be at most 2000 characters";
pub const ALREADY_ANSWERED: &str = "You have already answered this complaint.";
pub const ANSWER_CLOSED: &str = "Complaints can be answered within 48 hours of being opened.";
pub const BAD_RESPONSE: &str = "Message must be 1 to 2000 characters";
pub const ALREADY_DECIDED: &str = "This complaint has already been decided.";
pub const INVALID_OUTCOME: &str = "Outcome must be full_refund, partial_refund or no_refund";
pub const NO_NOTE: &str = "Please add a note (1 to 1,000 characters)";
pub const PARTIAL_NOT_POSITIVE: &str = "A partial refund must be more than 0.00";
/// The note of a no-show settled by the evidence.
pub const AUTOMATIC_NOTE: &str = "Settled automatically: you called for this session and the mentor neither called nor answered within 15 minutes of the start.";

/// A complaint with the mentor's answer.
#[derive(Clone, Debug, FromRow, PartialEq, Eq)]
pub struct Complaint {
    pub id: Uuid,
    pub booking_id: Uuid,
    pub user_id: Uuid,
    pub mentor_id: Uuid,
    pub reason: ComplaintReason,
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    pub outcome: Option<Outcome>,
    pub outcome_cents: Option<i64>,
    pub note: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
    pub automatic: bool,
    pub response_message: Option<String>,
    pub response_created_at: Option<DateTime<Utc>>,
}

/// Reads one complaint with its answer.
pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<Complaint>> {
    Ok(sqlx::query_as!(
        Complaint,
        r#"SELECT c.id, c.booking_id, c.user_id, c.mentor_id, c.reason AS "reason: ComplaintReason", c.details,
                  c.status AS "status: ComplaintStatus", c.created_at, c.outcome AS "outcome: Outcome", c.outcome_cents,
                  c.note, c.decided_at, c.automatic, cr.message AS "response_message?", cr.created_at AS "response_created_at?"
           FROM complaints c LEFT JOIN complaint_responses cr ON cr.complaint_id = c.id WHERE c.id = $1"#,
        id
    )
    .fetch_optional(&mut *conn)
    .await?)
}

/// The seeker's details: required but for a no-show, at most 2,000 characters.
fn details(reason: ComplaintReason, raw: Option<&str>) -> Result<Option<String>> {
    let d = raw.map(str::trim).filter(|d| !d.is_empty());
    match d {
        None if reason == ComplaintReason::MentorNoShow => Ok(None),
        None => Err(Error::validation(NO_DETAILS)),
        Some(d) if d.chars().count() > MAX_DETAILS_CHARS => Err(Error::validation(DETAILS_TOO_LONG)),
        Some(d) => {
            text::multi_line(d, "Details")?;
            Ok(Some(d.to_string()))
        }
    }
}

/// When a complaint about a session from `start` to `end` may be filed at `now`, and why not.
pub fn check_window(
    reason: ComplaintReason,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<()> {
    if now < start {
        return Err(Error::conflict(NOT_STARTED));
    }
    if now > end + REPORT_WINDOW {
        return Err(Error::conflict(WINDOW_CLOSED));
    }
    if reason == ComplaintReason::MentorNoShow && now < start + NO_SHOW_WAIT {
        return Err(Error::conflict(WAIT_FOR_MENTOR));
    }
    Ok(())
}

/// The seeker of a booking (one-to-one or a group seat) reports a problem: one transaction that
/// records the complaint, takes the booking out of a pending payout, tells the mentor, and settles a
/// no-show at once when the call evidence shows it.
pub async fn file(
    pool: &PgPool,
    user_id: Uuid,
    booking_id: Uuid,
    reason: Option<&Choice<ComplaintReason>>,
    details_raw: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Complaint> {
    let reason = Choice::required(reason, INVALID_REASON)?;
    let details = details(reason, details_raw)?;
    let mut tx = pool.begin().await?;
    let money = refunds::locked_money(&mut tx, booking_id)
        .await?
        .filter(|m| m.user_id == user_id)
        .ok_or_else(|| Error::not_found(lifecycle::NOT_FOUND))?;
    let b = bookings::find(&mut *tx, booking_id)
        .await?
        .ok_or_else(|| Error::not_found(lifecycle::NOT_FOUND))?;
    if !BookingStatus::GOING_AHEAD.contains(&b.status) {
        return Err(Error::conflict(NOT_REPORTABLE));
    }
    let exists = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM complaints WHERE booking_id = $1) AS "exists!""#,
        booking_id
    )
    .fetch_one(&mut *tx)
    .await?;
    if exists {
        return Err(Error::conflict(ALREADY_REPORTED));
    }
    check_window(reason, b.scheduled_at, b.ends_at, now)?;
    let id = sqlx::query_scalar!(
        "INSERT INTO complaints (booking_id, user_id, mentor_id, reason, details, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        booking_id,
        user_id,
        b.mentor_id,
        reason as ComplaintReason,
        details,
        now,
    )
    .fetch_one(&mut *tx)
    .await?;
    // An open complaint holds the booking: out of a pending payout until it is decided.
    adjustments::release_booking(&mut tx, b.mentor_id, booking_id).await?;
    notifications::notify(
        &mut tx,
        b.mentor_user_id,
        Kind::ComplaintOpened,
        "A client reported a problem",
        &format!(
            "{} {} reported a problem with \"{}\" ({}). You can answer within 48 hours.",
            b.user_first_name,
            b.user_last_name,
            b.service_title,
            reason_label(reason)
        ),
        Some("/mentor-dashboard"),
    )
    .await?;
    email::enqueue(&mut tx, &EmailJob::ComplaintOpened { complaint_id: id }).await?;
    if reason == ComplaintReason::MentorNoShow && b.group_session_id.is_none() {
        let calls = evidence::calls_between(
            &mut tx,
            b.user_id,
            b.mentor_user_id,
            b.scheduled_at - evidence::BEFORE_START,
            now,
        )
        .await?;
        if evidence::is_no_show(&calls, b.user_id, b.mentor_user_id, b.scheduled_at, now) {
            settle(
                &mut tx,
                id,
                &money,
                Outcome::FullRefund,
                None,
                AUTOMATIC_NOTE,
                None,
                now,
            )
            .await?;
        }
    }
    let complaint = find(&mut tx, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    tx.commit().await?;
    Ok(complaint)
}

/// How a reason reads in notices.
pub fn reason_label(reason: ComplaintReason) -> &'static str {
    match reason {
        ComplaintReason::MentorNoShow => "the mentor did not show up",
        ComplaintReason::TechnicalProblem => "a technical problem",
        ComplaintReason::NotAsDescribed => "not as described",
        ComplaintReason::Other => "another problem",
    }
}

/// How an outcome reads in notices.
pub fn outcome_label(outcome: Outcome, cents: i64) -> String {
    match outcome {
        Outcome::FullRefund => format!("a full refund of ${}", money::format(cents)),
        Outcome::PartialRefund => format!("a partial refund of ${}", money::format(cents)),
        Outcome::NoRefund => "no refund".into(),
    }
}

/// Decides an open complaint (locked by the caller with its booking): the refund, the complaint's
/// outcome, the booking's new state (cancelled after a full refund, else completed once the session
/// has ended), and both parties' notices. `cents` is the partial amount.
#[allow(clippy::too_many_arguments)] // a decision is made of all of these
async fn settle(
    tx: &mut PgConnection,
    complaint_id: Uuid,
    money: &BookingMoney,
    outcome: Outcome,
    partial_cents: Option<i64>,
    note: &str,
    admin_id: Option<Uuid>,
    now: DateTime<Utc>,
) -> Result<i64> {
    let cents = match outcome {
        Outcome::FullRefund => money.left_cents(),
        Outcome::PartialRefund => partial_cents.unwrap_or(0),
        Outcome::NoRefund => 0,
    };
    let reason = if admin_id.is_none() {
        RefundReason::NoShow
    } else {
        RefundReason::Complaint
    };
    let refund_id = if cents > 0 {
        Some(
            refunds::record(tx, money, cents, reason, admin_id, Some(note))
                .await?
                .refund_id,
        )
    } else {
        None
    };
    sqlx::query!(
        "UPDATE complaints SET status = $2, outcome = $3, outcome_cents = $4, note = $5, decided_at = $6, decided_by = $7,
                automatic = $8, refund_id = $9 WHERE id = $1",
        complaint_id,
        outcome.status() as ComplaintStatus,
        outcome as Outcome,
        cents,
        note,
        now,
        admin_id,
        admin_id.is_none(),
        refund_id,
    )
    .execute(&mut *tx)
    .await?;
    let b = bookings::find(&mut *tx, money.booking_id)
        .await?
        .ok_or_else(|| Error::not_found(lifecycle::NOT_FOUND))?;
    if outcome == Outcome::FullRefund {
        if b.status != BookingStatus::Cancelled {
            lifecycle::mark_cancelled(tx, b.id, now, Some("Refunded in full after a complaint")).await?;
        }
    } else if b.status.is_live() && lifecycle::has_ended(&b, now) {
        sqlx::query!(
            "UPDATE bookings SET status = $2, completed_at = $3, updated_at = now() WHERE id = $1",
            b.id,
            BookingStatus::Completed as BookingStatus,
            now,
        )
        .execute(&mut *tx)
        .await?;
        let done = bookings::find(&mut *tx, b.id)
            .await?
            .ok_or_else(|| Error::not_found(lifecycle::NOT_FOUND))?;
        notices::review_request(&done).send(tx, done.user_id).await?;
        email::enqueue(tx, &EmailJob::ReviewRequest { booking_id: b.id }).await?;
    }
    notify_decided(
        &mut *tx,
        (b.user_id, b.mentor_user_id),
        &format!("{} {}", b.user_first_name, b.user_last_name),
        &format!("\"{}\"", b.service_title),
        &outcome_label(outcome, cents),
    )
    .await?;
    email::enqueue(tx, &EmailJob::ComplaintDecided { complaint_id }).await?;
    Ok(cents)
}

/// The mentor's answer: trimmed, 1 to 2,000 characters.
pub(crate) fn response_message(raw: Option<&str>) -> Result<&str> {
    let message = raw.map(str::trim).unwrap_or_default();
    if message.is_empty() || message.chars().count() > MAX_RESPONSE_CHARS {
        return Err(Error::validation(BAD_RESPONSE));
    }
    text::multi_line(message, "Message")?;
    Ok(message)
}

/// Whether a complaint opened at `opened` may still be answered at `now` (48 hours, the edge included).
pub fn answer_open(opened: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now <= opened + RESPONSE_WINDOW
}

/// Whether the mentor may answer now: once, within 48 hours of the complaint; else the conflict why.
pub fn may_answer(answered: bool, opened: DateTime<Utc>, now: DateTime<Utc>) -> Result<()> {
    if answered {
        return Err(Error::conflict(ALREADY_ANSWERED));
    }
    if !answer_open(opened, now) {
        return Err(Error::conflict(ANSWER_CLOSED));
    }
    Ok(())
}

/// Tells the seeker that `mentor_name` answered their complaint (a booking's or a reading's).
pub async fn notify_answered(conn: &mut sqlx::PgConnection, seeker: Uuid, mentor_name: &str) -> Result<()> {
    notifications::notify(
        conn,
        seeker,
        Kind::ComplaintAnswered,
        "The mentor answered your complaint",
        &format!("{mentor_name} answered the problem you reported."),
        Some("/dashboard"),
    )
    .await
}

/// Tells both parties how the complaint of `seeker_name` about `about` (`"Tarot reading"` in
/// quotes, or `a reading`) was decided: `what` ([`outcome_label`]).
pub async fn notify_decided(
    conn: &mut sqlx::PgConnection,
    (seeker, mentor_user): (Uuid, Uuid),
    seeker_name: &str,
    about: &str,
    what: &str,
) -> Result<()> {
    notifications::notify(
        &mut *conn,
        seeker,
        Kind::ComplaintDecided,
        "Your complaint was decided",
        &format!("Your complaint about {about} was decided: {what}."),
        Some("/dashboard"),
    )
    .await?;
    notifications::notify(
        conn,
        mentor_user,
        Kind::ComplaintDecided,
        "A complaint was decided",
        &format!("The complaint of {seeker_name} about {about} was decided: {what}."),
        Some("/mentor-dashboard"),
    )
    .await
}

/// The mentor answers a complaint about their session, once, within 48 hours of it; the seeker hears.
pub async fn respond(
    pool: &PgPool,
    mentor_user_id: Uuid,
    complaint_id: Uuid,
    message: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Complaint> {
    let message = response_message(message)?;
    let mut tx = pool.begin().await?;
    let row = sqlx::query!(
        r#"SELECT c.created_at, c.booking_id, c.user_id, m.user_id AS mentor_user_id, m.display_name
           FROM complaints c JOIN mentors m ON m.id = c.mentor_id WHERE c.id = $1 FOR UPDATE OF c"#,
        complaint_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .filter(|r| r.mentor_user_id == mentor_user_id)
    .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    let answered = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM complaint_responses WHERE complaint_id = $1) AS "answered!""#,
        complaint_id
    )
    .fetch_one(&mut *tx)
    .await?;
    may_answer(answered, row.created_at, now)?;
    sqlx::query!(
        "INSERT INTO complaint_responses (complaint_id, message, created_at) VALUES ($1, $2, $3)",
        complaint_id,
        message,
        now
    )
    .execute(&mut *tx)
    .await?;
    notify_answered(&mut tx, row.user_id, &row.display_name).await?;
    let complaint = find(&mut tx, complaint_id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    tx.commit().await?;
    Ok(complaint)
}

/// An admin decides an open complaint: full refund (what is left), partial (more than zero and less than
/// what is left) or none, with a note. One transaction with the refund, the booking's new state, the
/// audit row and the notices; a decided complaint is a conflict.
pub async fn decide(
    pool: &PgPool,
    admin_id: Uuid,
    complaint_id: Uuid,
    outcome: Option<&Choice<Outcome>>,
    amount: Option<&str>,
    note: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Complaint> {
    let outcome = Choice::required(outcome, INVALID_OUTCOME)?;
    let note = refunds::note(note, NO_NOTE)?;
    let partial = match outcome {
        Outcome::PartialRefund => Some(
            money::parse(amount.unwrap_or_default(), refunds::INVALID_AMOUNT).and_then(|c| {
                if c > 0 {
                    Ok(c)
                } else {
                    Err(Error::validation(PARTIAL_NOT_POSITIVE))
                }
            })?,
        ),
        _ => None,
    };
    let mut tx = pool.begin().await?;
    let booking_id = sqlx::query_scalar!("SELECT booking_id FROM complaints WHERE id = $1", complaint_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    // The booking first (as every refund locks it), then the complaint.
    let money = refunds::locked_money(&mut tx, booking_id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    let before = sqlx::query!(
        r#"SELECT status AS "status: ComplaintStatus" FROM complaints WHERE id = $1 FOR UPDATE"#,
        complaint_id
    )
    .fetch_one(&mut *tx)
    .await?;
    if before.status != ComplaintStatus::Open {
        return Err(Error::conflict(ALREADY_DECIDED));
    }
    if let Some(cents) = partial
        && cents >= money.left_cents()
    {
        return Err(if money.left_cents() == 0 {
            Error::conflict(refunds::NOTHING_LEFT)
        } else {
            Error::conflict(format!(
                "A partial refund must be less than what is left to refund (${})",
                money::format(money.left_cents())
            ))
        });
    }
    let cents = settle(
        &mut tx,
        complaint_id,
        &money,
        outcome,
        partial,
        &note,
        Some(admin_id),
        now,
    )
    .await?;
    audit::record(
        &mut tx,
        audit::AuditEntry {
            admin_id,
            action: "complaint.decide",
            object_type: "complaint",
            object_id: complaint_id.to_string(),
            before: Some(json!({"status": ComplaintStatus::Open, "paid": money::format(money.paid_cents), "refunded": money::format(money.refunded_cents)})),
            after: Some(json!({"status": outcome.status(), "outcome": outcome, "amount": money::format(cents), "note": note, "bookingId": booking_id})),
        },
    )
    .await?;
    let complaint = find(&mut tx, complaint_id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    tx.commit().await?;
    Ok(complaint)
}

/// What the e-mails of a complaint need.
#[derive(Clone, Debug)]
pub struct ComplaintMail {
    pub reason: ComplaintReason,
    pub status: ComplaintStatus,
    pub outcome: Option<Outcome>,
    pub outcome_cents: Option<i64>,
    pub note: Option<String>,
    pub title: String,
    pub seeker_email: String,
    pub seeker_first_name: String,
    pub seeker_last_name: String,
    pub mentor_email: String,
    pub mentor_first_name: String,
}

pub async fn mail_facts(pool: &PgPool, complaint_id: Uuid) -> Result<Option<ComplaintMail>> {
    Ok(sqlx::query_as!(
        ComplaintMail,
        r#"SELECT c.reason AS "reason: ComplaintReason", c.status AS "status: ComplaintStatus", c.outcome AS "outcome: Outcome",
                  c.outcome_cents, c.note, coalesce(gs.title, s.title) AS "title!",
                  u.email AS seeker_email, u.first_name AS seeker_first_name, u.last_name AS seeker_last_name,
                  mu.email AS mentor_email, mu.first_name AS mentor_first_name
           FROM complaints c JOIN bookings b ON b.id = c.booking_id JOIN services s ON s.id = b.service_id
           LEFT JOIN group_sessions gs ON gs.id = b.group_session_id JOIN users u ON u.id = c.user_id
           JOIN mentors m ON m.id = c.mentor_id JOIN users mu ON mu.id = m.user_id
           WHERE c.id = $1"#,
        complaint_id
    )
    .fetch_optional(pool)
    .await?)
}

/// Whether a booking has an open complaint (the mentor may not complete it meanwhile).
pub async fn has_open(conn: &mut PgConnection, booking_id: Uuid) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM complaints WHERE booking_id = $1 AND status = $2) AS "open!""#,
        booking_id,
        ComplaintStatus::Open as ComplaintStatus,
    )
    .fetch_one(&mut *conn)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(minutes: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
    }

    #[test]
    fn complaints_open_at_the_start_and_close_24_hours_after_the_end() {
        let (start, end) = (t(0), t(60));
        let s = Duration::seconds(1);
        let other = ComplaintReason::Other;
        assert_eq!(
            check_window(other, start, end, start - s).unwrap_err().to_string(),
            NOT_STARTED
        );
        assert!(check_window(other, start, end, start).is_ok());
        assert!(check_window(other, start, end, end + REPORT_WINDOW).is_ok());
        assert_eq!(
            check_window(other, start, end, end + REPORT_WINDOW + s)
                .unwrap_err()
                .to_string(),
            WINDOW_CLOSED
        );
    }

    #[test]
    fn a_no_show_waits_15_minutes_after_the_start() {
        let (start, end) = (t(0), t(60));
        let s = Duration::seconds(1);
        let r = ComplaintReason::MentorNoShow;
        assert_eq!(
            check_window(r, start, end, start + NO_SHOW_WAIT - s)
                .unwrap_err()
                .to_string(),
            WAIT_FOR_MENTOR
        );
        assert!(check_window(r, start, end, start + NO_SHOW_WAIT).is_ok());
    }

    #[test]
    fn details_are_required_but_for_a_no_show() {
        assert_eq!(details(ComplaintReason::MentorNoShow, None).unwrap(), None);
        assert_eq!(
            details(ComplaintReason::Other, Some("  ")).unwrap_err().to_string(),
            NO_DETAILS
        );
        assert_eq!(
            details(ComplaintReason::Other, Some(" x ")).unwrap().as_deref(),
            Some("x")
        );
        assert!(details(ComplaintReason::TechnicalProblem, Some(&"é".repeat(2000))).is_ok());
        assert_eq!(
            details(ComplaintReason::TechnicalProblem, Some(&"a".repeat(2001)))
                .unwrap_err()
                .to_string(),
            DETAILS_TOO_LONG
        );
    }

    #[test]
    fn the_mentor_answers_within_48_hours_in_1_to_2000_characters() {
        let opened = t(0);
        assert!(answer_open(opened, opened + RESPONSE_WINDOW));
        assert!(!answer_open(opened, opened + RESPONSE_WINDOW + Duration::seconds(1)));
        assert_eq!(response_message(Some(" sorry ")).unwrap(), "sorry");
        assert!(response_message(Some(&"é".repeat(2000))).is_ok());
        for bad in [None, Some("  "), Some(&*"a".repeat(2001))] {
            assert_eq!(response_message(bad).unwrap_err().to_string(), BAD_RESPONSE);
        }
    }

    #[test]
    fn outcomes_set_the_status() {
        assert_eq!(Outcome::NoRefund.status(), ComplaintStatus::Rejected);
        assert_eq!(Outcome::FullRefund.status(), ComplaintStatus::Resolved);
        assert_eq!(Outcome::PartialRefund.status(), ComplaintStatus::Resolved);
    }
}
