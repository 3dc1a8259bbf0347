//! Reviews of mentors (written after completed bookings).

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::{BookingStatus, bookings, lifecycle};
use crate::{Error, Result, catalogue::mentors, text};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Review {
    pub id: Uuid,
    pub rating: i16,
    pub comment: Option<String>,
    pub created_at: DateTime<Utc>,
    pub user_first_name: String,
    pub user_last_name: String,
    /// The mentor's public reply, when there is one.
    pub reply_message: Option<String>,
    pub reply_created_at: Option<DateTime<Utc>>,
}

/// Newest first.
pub async fn for_mentor(db: &PgPool, mentor_id: Uuid) -> Result<Vec<Review>> {
    if !mentors::find(db, mentor_id).await?.is_some_and(|m| m.is_public()) {
        return Err(Error::not_found(mentors::NOT_FOUND));
    }
    Ok(sqlx::query_as!(
        Review,
        "SELECT r.id, r.rating, r.comment, r.created_at, u.first_name AS user_first_name, u.last_name AS user_last_name, \
         rr.message AS \"reply_message?\", rr.created_at AS \"reply_created_at?\" \
         FROM reviews r JOIN users u ON u.id = r.user_id LEFT JOIN review_replies rr ON rr.review_id = r.id \
         WHERE r.mentor_id = $1 AND r.hidden_at IS NULL ORDER BY r.created_at DESC, r.id",
        mentor_id,
    )
    .fetch_all(db)
    .await?)
}

pub const RATING_RANGE: &str = "Rating must be from 1 to 5";
pub const ONLY_COMPLETED: &str = "Only completed sessions can be reviewed";
pub const ALREADY_REVIEWED: &str = "You have already reviewed this session";
pub const MAX_COMMENT_CHARS: usize = 2000;

/// The seeker of a completed booking reviews it, once; the mentor hears about it.
pub async fn create(
    db: &PgPool,
    user_id: Uuid,
    booking_id: Uuid,
    rating: i64,
    comment: Option<&str>,
) -> Result<Review> {
    use crate::error::OnConstraint;
    if !(1..=5).contains(&rating) {
        return Err(Error::validation(RATING_RANGE));
    }
    if let Some(c) = comment {
        text::multi_line(c, "Comment")?;
    }
    let comment = comment.map(str::trim).filter(|c| !c.is_empty());
    if comment.is_some_and(|c| c.chars().count() > MAX_COMMENT_CHARS) {
        return Err(Error::validation("Comment must be at most 2000 characters"));
    }
    let booking = bookings::find(db, booking_id)
        .await?
        .filter(|b| b.user_id == user_id && !b.status.is_hold())
        .ok_or_else(|| Error::not_found(lifecycle::NOT_FOUND))?;
    if booking.status != BookingStatus::Completed {
        return Err(Error::conflict(ONLY_COMPLETED));
    }
    let mut tx = db.begin().await?;
    let id: Uuid = sqlx::query_scalar!(
        "INSERT INTO reviews (mentor_id, user_id, booking_id, rating, comment) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        booking.mentor_id,
        user_id,
        booking_id,
        rating as i16,
        comment,
    )
        .fetch_one(&mut *tx)
        .await
        .on_constraint("reviews_booking_id_key", || Error::AlreadyReviewed(ALREADY_REVIEWED.into()))?;
    crate::notifications::notify(
        &mut tx,
        booking.mentor_user_id,
        crate::notifications::Kind::NewReview,
        "New review",
        &format!(
            "{} {} rated \"{}\" {rating} out of 5.",
            booking.user_first_name, booking.user_last_name, booking.service_title
        ),
        Some(&format!("/mentor/{}", booking.mentor_id)),
    )
    .await?;
    let review = sqlx::query_as!(
        Review,
        "SELECT r.id, r.rating, r.comment, r.created_at, u.first_name AS user_first_name, u.last_name AS user_last_name, \
         NULL::text AS reply_message, NULL::timestamptz AS reply_created_at \
         FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.id = $1",
        id,
    )
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(review)
}

pub const REVIEW_NOT_FOUND: &str = "Review not found";
pub const ALREADY_REPLIED: &str = "You have already replied to this review.";
pub const BAD_REPLY: &str = "Message must be 1 to 1000 characters";
/// A mentor's reply to a review is at most this long.
pub const MAX_REPLY_CHARS: usize = 1000;

/// A mentor's reply to a review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub review_id: Uuid,
    pub message: String,
    pub created_at: DateTime<Utc>,
}

/// A reply's text: trimmed, 1 to 1,000 characters.
fn reply_message(raw: Option<&str>) -> Result<&str> {
    let message = raw.map(str::trim).unwrap_or_default();
    if message.is_empty() || message.chars().count() > MAX_REPLY_CHARS {
        return Err(Error::validation(BAD_REPLY));
    }
    text::multi_line(message, "Message")?;
    Ok(message)
}

/// The mentor replies to a review of them, once; the reviewer hears of it. Anyone else's review (or a
/// hidden one) does not exist for them.
pub async fn reply(db: &PgPool, mentor_user_id: Uuid, review_id: Uuid, message: Option<&str>) -> Result<Reply> {
    use crate::error::OnConstraint;
    let message = reply_message(message)?;
    let mut tx = db.begin().await?;
    let review = sqlx::query!(
        "SELECT r.user_id, r.mentor_id, m.display_name FROM reviews r JOIN mentors m ON m.id = r.mentor_id
         WHERE r.id = $1 AND m.user_id = $2 AND r.hidden_at IS NULL",
        review_id,
        mentor_user_id,
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found(REVIEW_NOT_FOUND))?;
    let created_at = sqlx::query_scalar!(
        "INSERT INTO review_replies (review_id, message) VALUES ($1, $2) RETURNING created_at",
        review_id,
        message,
    )
    .fetch_one(&mut *tx)
    .await
    .on_constraint("review_replies_pkey", || Error::conflict(ALREADY_REPLIED))?;
    crate::notifications::notify(
        &mut tx,
        review.user_id,
        crate::notifications::Kind::ReviewReply,
        "The mentor replied to your review",
        &format!("{} replied to your review.", review.display_name),
        Some(&format!("/mentor/{}", review.mentor_id)),
    )
    .await?;
    tx.commit().await?;
    Ok(Reply {
        review_id,
        message: message.to_string(),
        created_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_1_to_1000_characters() {
        assert_eq!(reply_message(Some(" thanks ")).unwrap(), "thanks");
        assert!(reply_message(Some(&"é".repeat(1000))).is_ok());
        for bad in [None, Some(""), Some(&*"a".repeat(1001))] {
            assert_eq!(reply_message(bad).unwrap_err().to_string(), BAD_REPLY);
        }
    }
}
