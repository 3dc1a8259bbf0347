//! After a reading (issue 36): the seeker reviews it like a session, once, and may report a problem
//! with it under the rules of complaints about bookings (the same reasons, texts, limits and the
//! 24-hour window after its end). An open complaint holds the reading out of the payout batch.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::{NOT_FOUND, Reading, ReadingStatus, find};
use crate::{
    Error, Result,
    booking::{completion::COMPLAINT_WINDOW, reviews},
    complaints,
    error::OnConstraint,
    notifications::{self, Kind},
    statuses::{ComplaintReason, ComplaintStatus},
    text,
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
    })
}
