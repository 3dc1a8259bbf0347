//! Reviews of mentors (written after completed bookings).

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::mentors;
use crate::{Error, Result};

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
    if !mentors::find(db, mentor_id).await?.is_some_and(|m| m.is_active) {
        return Err(Error::not_found(mentors::NOT_FOUND));
    }
    Ok(sqlx::query_as(
        "SELECT r.id, r.rating, r.comment, r.created_at, u.first_name AS user_first_name, u.last_name AS user_last_name \
         FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.mentor_id = $1 ORDER BY r.created_at DESC, r.id",
    )
    .bind(mentor_id)
    .fetch_all(db)
    .await?)
}
