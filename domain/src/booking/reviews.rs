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
}

/// Newest first.
pub async fn for_mentor(db: &PgPool, mentor_id: Uuid) -> Result<Vec<Review>> {
    if !mentors::find(db, mentor_id).await?.is_some_and(|m| m.is_public()) {
        return Err(Error::not_found(mentors::NOT_FOUND));
    }
    Ok(sqlx::query_as(
        "SELECT r.id, r.rating, r.comment, r.created_at, u.first_name AS user_first_name, u.last_name AS user_last_name \
         FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.mentor_id = $1 AND r.hidden_at IS NULL ORDER BY r.created_at DESC, r.id",
    )
    .bind(mentor_id)
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
    let id: Uuid = sqlx::query_scalar("INSERT INTO reviews (mentor_id, user_id, booking_id, rating, comment) VALUES ($1, $2, $3, $4, $5) RETURNING id")
        .bind(booking.mentor_id)
        .bind(user_id)
        .bind(booking_id)
        .bind(rating as i16)
        .bind(comment)
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
    let review = sqlx::query_as(
        "SELECT r.id, r.rating, r.comment, r.created_at, u.first_name AS user_first_name, u.last_name AS user_last_name \
         FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.id = $1",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(review)
}
