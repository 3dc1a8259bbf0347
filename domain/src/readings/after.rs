//! After a reading (issue 36): the seeker reviews it like a session, once, and may report a problem
//! with it under the rules of complaints about bookings (the same reasons, texts, limits and the
//! 24-hour window after its end). An open complaint holds the reading out of the payout batch.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::{NOT_FOUND, Reading, ReadingStatus, find};
use crate::{
    Error, Result, audit,
    booking::{completion::COMPLAINT_WINDOW, reviews},
    choice::Choice,
    complaints,
    error::OnConstraint,
    money,
    notifications::{self, Kind},
    payouts::adjustments,
    refunds,
    statuses::{ComplaintReason, ComplaintStatus, Outcome},
    text,
    wallet::{EntryKind, MAX_BALANCE_CENTS},
};

/// What only the seeker of a started reading may do.
async fn seekers_started_reading(db: &PgPool, user_id: Uuid, id: Uuid) -> Result<Reading> {
    find(db, id)
        .await?
        .filter(|r| r.seeker_id == user_id)
        .ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// `POST /api/instant-sessions/{id}/review`: the seeker of an ended reading rates it 1 to 5, once.
pub async fn review(
    db: &PgPool,
    user_id: Uuid,
    id: Uuid,
    rating: i64,
    comment: Option<&str>,
) -> Result<reviews::Review> {
    if !(1..=5).contains(&rating) {
        return Err(Error::validation(reviews::RATING_RANGE));
    }
    if let Some(c) = comment {
        text::multi_line(c, "Comment")?;
    }
    let comment = comment.map(str::trim).filter(|c| !c.is_empty());
    if comment.is_some_and(|c| c.chars().count() > reviews::MAX_COMMENT_CHARS) {
        return Err(Error::validation("Comment must be at most 2000 characters"));
    }
    let r = seekers_started_reading(db, user_id, id).await?;
    if r.status != ReadingStatus::Ended {
        return Err(Error::conflict(reviews::ONLY_COMPLETED));
    }
    let mut tx = db.begin().await?;
    let review_id = sqlx::query_scalar!(
        "INSERT INTO reviews (mentor_id, user_id, instant_session_id, rating, comment) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        r.mentor_id,
        user_id,
        id,
        rating as i16,
        comment,
    )
    .fetch_one(&mut *tx)
    .await
    .on_constraint("reviews_one_per_reading", || {
        Error::AlreadyReviewed(reviews::ALREADY_REVIEWED.into())
    })?;
    notifications::notify(
        &mut tx,
        r.mentor_user_id,
        Kind::NewReview,
        "New review",
        &format!("A reading was rated {rating} out of 5."),
        Some(&format!("/mentor/{}", r.mentor_id)),
    )
    .await?;
    let review = sqlx::query_as!(
        reviews::Review,
        "SELECT r.id, r.rating, r.comment, r.created_at, u.first_name AS user_first_name, u.last_name AS user_last_name, \
         NULL::text AS reply_message, NULL::timestamptz AS reply_created_at \
         FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.id = $1",
        review_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(review)
}

/// A reading's complaint as the seeker sees it.
#[derive(Clone, Debug)]
pub struct ReadingComplaint {
    pub id: Uuid,
    pub instant_session_id: Uuid,
    pub reason: ComplaintReason,
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    /// None while the complaint is open
    pub decision: Option<Decision>,
    /// The mentor's answer; None until they give one
    pub answer: Option<Answer>,
}

/// The mentor's answer to a reading's complaint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub message: String,
    pub created_at: DateTime<Utc>,
}

/// The complaint about reading `id`, if one was filed: what its parties see on the reading
/// (the caller has checked that the reader is one of them).
pub async fn complaint_of(db: &PgPool, id: Uuid) -> Result<Option<ReadingComplaint>> {
    let row = sqlx::query!(
        r#"SELECT c.id, c.reason AS "reason: ComplaintReason", c.details, c.status AS "status: ComplaintStatus",
                  c.created_at, c.outcome AS "outcome: Outcome", c.outcome_cents, c.note, c.decided_at,
                  cr.message AS "response_message?", cr.created_at AS "response_created_at?"
           FROM instant_session_complaints c
           LEFT JOIN instant_session_complaint_responses cr ON cr.complaint_id = c.id
           WHERE c.instant_session_id = $1"#,
        id
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|c| ReadingComplaint {
        id: c.id,
        instant_session_id: id,
        reason: c.reason,
        details: c.details,
        status: c.status,
        created_at: c.created_at,
        decision: Decision::of(c.outcome, c.outcome_cents, c.note, c.decided_at),
        answer: match (c.response_message, c.response_created_at) {
            (Some(message), Some(created_at)) => Some(Answer { message, created_at }),
            _ => None,
        },
    }))
}

/// An admin's decision on a reading's complaint, as a booking complaint's resolution: the outcome,
/// what went back to the wallet, the note both parties see, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub outcome: Outcome,
    pub cents: i64,
    pub note: String,
    pub decided_at: DateTime<Utc>,
}

impl Decision {
    /// The decision of a row's columns (all set once decided, by the table's check).
    pub fn of(
        outcome: Option<Outcome>,
        cents: Option<i64>,
        note: Option<String>,
        decided_at: Option<DateTime<Utc>>,
    ) -> Option<Self> {
        Some(Self {
            outcome: outcome?,
            cents: cents.unwrap_or(0),
            note: note.unwrap_or_default(),
            decided_at: decided_at?,
        })
    }
}

/// `POST /api/instant-sessions/{id}/complaint` by the seeker: the rules of booking complaints, from
/// the reading's start until 24 hours after its end, once.
pub async fn complain(
    db: &PgPool,
    user_id: Uuid,
    id: Uuid,
    reason: Option<&str>,
    details: Option<&str>,
    now: DateTime<Utc>,
) -> Result<ReadingComplaint> {
    let reason: ComplaintReason = reason
        .unwrap_or("")
        .trim()
        .parse()
        .map_err(|_| Error::validation(complaints::INVALID_REASON))?;
    let details = details.map(str::trim).filter(|d| !d.is_empty());
    if let Some(d) = details {
        text::multi_line(d, "Details")?;
        if d.chars().count() > complaints::MAX_DETAILS_CHARS {
            return Err(Error::validation(complaints::DETAILS_TOO_LONG));
        }
    }
    if details.is_none() && reason != ComplaintReason::MentorNoShow {
        return Err(Error::validation(complaints::NO_DETAILS));
    }
    let r = seekers_started_reading(db, user_id, id).await?;
    let Some(started_at) = r.started_at.filter(|_| r.status != ReadingStatus::Requested) else {
        return Err(Error::conflict(complaints::NOT_STARTED));
    };
    if started_at > now {
        return Err(Error::conflict(complaints::NOT_STARTED));
    }
    if r.ended_at.is_some_and(|end| now > end + COMPLAINT_WINDOW) {
        return Err(Error::conflict(complaints::WINDOW_CLOSED));
    }
    let mut tx = db.begin().await?;
    let c = sqlx::query!(
        r#"INSERT INTO instant_session_complaints (instant_session_id, user_id, mentor_id, reason, details, status, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, created_at"#,
        id,
        user_id,
        r.mentor_id,
        reason as ComplaintReason,
        details,
        ComplaintStatus::Open as ComplaintStatus,
        now,
    )
    .fetch_one(&mut *tx)
    .await
    .on_constraint("instant_session_complaints_one_per_reading", || {
        Error::conflict(complaints::ALREADY_REPORTED)
    })?;
    // As a booking's: an open complaint holds the reading out of a payout not yet sent.
    adjustments::release_reading(&mut tx, r.mentor_id, id).await?;
    notifications::notify(
        &mut tx,
        r.mentor_user_id,
        Kind::ComplaintOpened,
        "A problem was reported",
        &format!(
            "A seeker reported a problem with a reading: {}.",
            complaints::reason_label(reason)
        ),
        Some("/mentor-dashboard"),
    )
    .await?;
    tx.commit().await?;
    Ok(ReadingComplaint {
        id: c.id,
        instant_session_id: id,
        reason,
        details: details.map(str::to_string),
        status: ComplaintStatus::Open,
        created_at: c.created_at,
        decision: None,
        answer: None,
    })
}

/// The note of the wallet entry that gives a reading's money back after a complaint.
pub const REFUND_ENTRY_NOTE: &str = "Refund after a complaint about a reading";
/// 409 when a refund is asked of a reading that charged nothing, or whose charge went back already.
pub const NOTHING_LEFT: &str = "This reading has nothing left to refund: its charges went back to the wallet already, or it charged nothing (free minutes).";

/// 409 when the refund would take the seeker's wallet past the balance cap.
pub fn over_wallet_cap(room_cents: i64) -> Error {
    Error::conflict(format!(
        "The refund would take the seeker's balance past its ${} cap: at most ${} can go back to the wallet now.",
        money::format(MAX_BALANCE_CENTS),
        money::format(room_cents.max(0))
    ))
}

/// A reading's complaint in the admins' queue: both parties and the money (charged to the wallet,
/// given back to it so far).
#[derive(Clone, Debug)]
pub struct QueuedReadingComplaint {
    pub id: Uuid,
    pub instant_session_id: Uuid,
    pub user_id: Uuid,
    pub mentor_id: Uuid,
    pub reason: ComplaintReason,
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    pub seeker_first_name: String,
    pub seeker_last_name: String,
    pub seeker_email: String,
    pub mentor_user_id: Uuid,
    pub mentor_display_name: String,
    pub mentor_email: String,
    pub charged_cents: i64,
    pub refunded_cents: i64,
    pub response_message: Option<String>,
    pub response_created_at: Option<DateTime<Utc>>,
    pub outcome: Option<Outcome>,
    pub outcome_cents: Option<i64>,
    pub note: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
}

/// Readings' complaints in `status` (all when none), oldest open first, then the others newest first.
pub async fn queue(db: &PgPool, status: Option<ComplaintStatus>) -> Result<Vec<QueuedReadingComplaint>> {
    Ok(sqlx::query_as!(
        QueuedReadingComplaint,
        r#"SELECT c.id, c.instant_session_id, c.user_id, c.mentor_id, c.reason AS "reason: ComplaintReason", c.details,
                  c.status AS "status: ComplaintStatus", c.created_at, s.started_at, s.ended_at,
                  u.first_name AS seeker_first_name, u.last_name AS seeker_last_name, u.email AS seeker_email,
                  m.user_id AS mentor_user_id, m.display_name AS mentor_display_name, mu.email AS mentor_email,
                  coalesce((SELECT -sum(e.amount_cents) FROM wallet_entries e WHERE e.instant_session_id = s.id AND e.kind = $2), 0)::bigint AS "charged_cents!",
                  coalesce((SELECT sum(e.amount_cents) FROM wallet_entries e WHERE e.instant_session_id = s.id AND e.kind = $3), 0)::bigint AS "refunded_cents!",
                  cr.message AS "response_message?", cr.created_at AS "response_created_at?",
                  c.outcome AS "outcome: Outcome", c.outcome_cents, c.note, c.decided_at
           FROM instant_session_complaints c JOIN instant_sessions s ON s.id = c.instant_session_id
           JOIN users u ON u.id = c.user_id JOIN mentors m ON m.id = c.mentor_id JOIN users mu ON mu.id = m.user_id
           LEFT JOIN instant_session_complaint_responses cr ON cr.complaint_id = c.id
           WHERE ($1::text IS NULL OR c.status = $1)
           ORDER BY c.status = 'open' DESC, CASE WHEN c.status = 'open' THEN c.created_at END ASC, c.created_at DESC, c.id"#,
        status.map(ComplaintStatus::as_str),
        EntryKind::SessionCharge as EntryKind,
        EntryKind::Adjustment as EntryKind,
    )
    .fetch_all(db)
    .await?)
}

/// An admin decides a reading's open complaint as a booking's (full, partial with 0 < amount < what is
/// left, or no refund, with a note): the refund goes back to the seeker's wallet as a positive
/// `adjustment` entry naming the reading, so the reading's payout is what is left (or, when a paid
/// payout held it, the mentor's share of the refund comes off the next one). A refund of a reading
/// with nothing left to refund, or one the wallet's cap cannot take, is a conflict that says so. The
/// decision (outcome, amount, note, when, by whom) stays on the complaint. One transaction under the
/// complaint's row lock: a decided complaint is a conflict. Audited; both parties are told.
pub async fn decide(
    db: &PgPool,
    admin_id: Uuid,
    complaint_id: Uuid,
    outcome: Option<&Choice<Outcome>>,
    amount: Option<&str>,
    note: Option<&str>,
) -> Result<ReadingComplaint> {
    let outcome = Choice::required(outcome, complaints::INVALID_OUTCOME)?;
    let note = refunds::note(note, complaints::NO_NOTE)?;
    let partial = match outcome {
        Outcome::PartialRefund => Some(
            money::parse(amount.unwrap_or_default(), refunds::INVALID_AMOUNT).and_then(|c| {
                if c > 0 {
                    Ok(c)
                } else {
                    Err(Error::validation(complaints::PARTIAL_NOT_POSITIVE))
                }
            })?,
        ),
        _ => None,
    };
    let mut tx = db.begin().await?;
    let c = sqlx::query!(
        r#"SELECT c.instant_session_id, c.user_id, c.reason AS "reason: ComplaintReason", c.details, c.created_at,
                  c.status AS "status: ComplaintStatus", c.mentor_id, m.user_id AS mentor_user_id, u.first_name, u.last_name
           FROM instant_session_complaints c JOIN mentors m ON m.id = c.mentor_id JOIN users u ON u.id = c.user_id
           WHERE c.id = $1 FOR UPDATE OF c"#,
        complaint_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found(complaints::NOT_FOUND))?;
    if c.status != ComplaintStatus::Open {
        return Err(Error::conflict(complaints::ALREADY_DECIDED));
    }
    let m = sqlx::query!(
        r#"SELECT coalesce(-sum(amount_cents) FILTER (WHERE kind = $2), 0)::bigint AS "charged!",
                  coalesce(sum(amount_cents) FILTER (WHERE kind = $3), 0)::bigint AS "refunded!"
           FROM wallet_entries WHERE instant_session_id = $1"#,
        c.instant_session_id,
        EntryKind::SessionCharge as EntryKind,
        EntryKind::Adjustment as EntryKind,
    )
    .fetch_one(&mut *tx)
    .await?;
    let left = (m.charged - m.refunded).max(0);
    let cents = refund_cents(outcome, partial, left)?;
    if cents > 0 {
        let balance = sqlx::query_scalar!(
            r#"SELECT coalesce((SELECT balance_cents FROM wallets WHERE user_id = $1), 0)::bigint AS "balance!""#,
            c.user_id
        )
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query!(
            "INSERT INTO wallet_entries (user_id, kind, amount_cents, note, instant_session_id) VALUES ($1, $2, $3, $4, $5)",
            c.user_id,
            EntryKind::Adjustment as EntryKind,
            cents,
            REFUND_ENTRY_NOTE,
            c.instant_session_id,
        )
        .execute(&mut *tx)
        .await
        .on_constraint("wallets_balance_cap", || over_wallet_cap(MAX_BALANCE_CENTS - balance))?;
        adjustments::follow_reading_refund(&mut tx, c.mentor_id, c.instant_session_id, cents).await?;
    }
    // The row as decided is read back below, after the commit.
    let _decided_at = sqlx::query_scalar!(
        "UPDATE instant_session_complaints SET status = $2, outcome = $3, outcome_cents = $4, note = $5, decided_at = now(),
                decided_by = $6 WHERE id = $1 RETURNING decided_at AS \"decided_at!\"",
        complaint_id,
        outcome.status() as ComplaintStatus,
        outcome as Outcome,
        cents,
        note,
        admin_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    complaints::notify_decided(
        &mut tx,
        (c.user_id, c.mentor_user_id),
        &format!("{} {}", c.first_name, c.last_name),
        "a reading",
        &complaints::outcome_label(outcome, cents),
    )
    .await?;
    audit::record(
        &mut tx,
        audit::AuditEntry {
            admin_id,
            action: "reading_complaint.decide",
            object_type: "instant_session_complaint",
            object_id: complaint_id.to_string(),
            before: Some(json!({"status": ComplaintStatus::Open, "charged": money::format(m.charged), "refunded": money::format(m.refunded)})),
            after: Some(json!({"status": outcome.status(), "outcome": outcome, "amount": money::format(cents), "note": note, "instantSessionId": c.instant_session_id})),
        },
    )
    .await?;
    tx.commit().await?;
    // Read back as the parties see it, with the mentor's answer when there is one.
    complaint_of(db, c.instant_session_id)
        .await?
        .ok_or_else(|| Error::not_found(complaints::NOT_FOUND))
}

/// What a decision gives back of the `left_cents` a reading has left to refund: all of it (a full
/// refund), the partial amount (more than zero, checked by the caller, and less than what is left) or
/// nothing; a refund of a reading with nothing left is a conflict that says so.
pub fn refund_cents(outcome: Outcome, partial: Option<i64>, left_cents: i64) -> Result<i64> {
    match (outcome, partial) {
        (Outcome::NoRefund, _) => Ok(0),
        _ if left_cents <= 0 => Err(Error::conflict(NOTHING_LEFT)),
        (Outcome::PartialRefund, Some(cents)) if cents >= left_cents => Err(Error::conflict(format!(
            "A partial refund must be less than what is left to refund (${})",
            money::format(left_cents)
        ))),
        (Outcome::PartialRefund, cents) => Ok(cents.unwrap_or(0)),
        (Outcome::FullRefund, _) => Ok(left_cents),
    }
}

/// A reading's complaint as its mentor sees it, with their answer.
#[derive(Clone, Debug)]
pub struct MentorsReadingComplaint {
    pub id: Uuid,
    pub instant_session_id: Uuid,
    pub reason: ComplaintReason,
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub seeker_first_name: String,
    pub seeker_last_name: String,
    pub response_message: Option<String>,
    pub response_created_at: Option<DateTime<Utc>>,
    pub outcome: Option<Outcome>,
    pub outcome_cents: Option<i64>,
    pub note: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
}

/// The complaints about a mentor's readings, newest first.
pub async fn mentors_complaints(db: &PgPool, mentor_user_id: Uuid) -> Result<Vec<MentorsReadingComplaint>> {
    Ok(sqlx::query_as!(
        MentorsReadingComplaint,
        r#"SELECT c.id, c.instant_session_id, c.reason AS "reason: ComplaintReason", c.details,
                  c.status AS "status: ComplaintStatus", c.created_at, s.started_at,
                  u.first_name AS seeker_first_name, u.last_name AS seeker_last_name,
                  cr.message AS "response_message?", cr.created_at AS "response_created_at?",
                  c.outcome AS "outcome: Outcome", c.outcome_cents, c.note, c.decided_at
           FROM instant_session_complaints c JOIN instant_sessions s ON s.id = c.instant_session_id
           JOIN mentors m ON m.id = c.mentor_id JOIN users u ON u.id = c.user_id
           LEFT JOIN instant_session_complaint_responses cr ON cr.complaint_id = c.id
           WHERE m.user_id = $1
           ORDER BY c.created_at DESC, c.id"#,
        mentor_user_id
    )
    .fetch_all(db)
    .await?)
}

/// The mentor answers a complaint about their reading as about a session: once, within 48 hours of
/// it, 1 to 2,000 characters; the seeker hears (`complaint_answered`). Under the complaint's row lock.
pub async fn respond(
    db: &PgPool,
    mentor_user_id: Uuid,
    complaint_id: Uuid,
    message: Option<&str>,
    now: DateTime<Utc>,
) -> Result<MentorsReadingComplaint> {
    let message = complaints::response_message(message)?;
    let mut tx = db.begin().await?;
    let row = sqlx::query!(
        r#"SELECT c.created_at, c.user_id, m.user_id AS mentor_user_id, m.display_name
           FROM instant_session_complaints c JOIN mentors m ON m.id = c.mentor_id WHERE c.id = $1 FOR UPDATE OF c"#,
        complaint_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .filter(|r| r.mentor_user_id == mentor_user_id)
    .ok_or_else(|| Error::not_found(complaints::NOT_FOUND))?;
    let answered = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM instant_session_complaint_responses WHERE complaint_id = $1) AS "answered!""#,
        complaint_id
    )
    .fetch_one(&mut *tx)
    .await?;
    complaints::may_answer(answered, row.created_at, now)?;
    sqlx::query!(
        "INSERT INTO instant_session_complaint_responses (complaint_id, message, created_at) VALUES ($1, $2, $3)",
        complaint_id,
        message,
        now
    )
    .execute(&mut *tx)
    .await?;
    complaints::notify_answered(&mut tx, row.user_id, &row.display_name).await?;
    tx.commit().await?;
    mentors_complaints(db, mentor_user_id)
        .await?
        .into_iter()
        .find(|c| c.id == complaint_id)
        .ok_or_else(|| Error::not_found(complaints::NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refund_gives_back_at_most_what_is_left_and_says_so() {
        assert_eq!(refund_cents(Outcome::FullRefund, None, 600).unwrap(), 600);
        assert_eq!(refund_cents(Outcome::PartialRefund, Some(250), 600).unwrap(), 250);
        assert_eq!(refund_cents(Outcome::PartialRefund, Some(599), 600).unwrap(), 599);
        assert_eq!(
            refund_cents(Outcome::PartialRefund, Some(600), 600)
                .unwrap_err()
                .to_string(),
            "A partial refund must be less than what is left to refund ($6.00)"
        );
        assert_eq!(refund_cents(Outcome::NoRefund, None, 0).unwrap(), 0);
        for outcome in [Outcome::FullRefund, Outcome::PartialRefund] {
            assert_eq!(
                refund_cents(outcome, Some(100), 0).unwrap_err().to_string(),
                NOTHING_LEFT
            );
        }
    }

    #[test]
    fn a_refund_past_the_wallet_cap_says_how_much_fits() {
        assert_eq!(
            over_wallet_cap(250).to_string(),
            "The refund would take the seeker's balance past its $1000.00 cap: at most $2.50 can go back to the wallet now."
        );
        assert!(
            over_wallet_cap(-5)
                .to_string()
                .ends_with("at most $0.00 can go back to the wallet now.")
        );
    }

    #[test]
    fn a_decision_is_read_back_only_when_complete() {
        let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let d = Decision::of(Some(Outcome::NoRefund), Some(0), Some("Fine.".into()), Some(at)).unwrap();
        assert_eq!(d.note, "Fine.");
        assert_eq!(Decision::of(None, None, None, None), None);
    }

    #[test]
    fn a_refund_entry_says_why_within_a_refund_note() {
        assert_eq!(REFUND_ENTRY_NOTE, "Refund after a complaint about a reading");
        assert!(REFUND_ENTRY_NOTE.chars().count() <= refunds::MAX_NOTE_CHARS);
    }
}
