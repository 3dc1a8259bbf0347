//! Favourite mentors of a user. Adding and removing are idempotent.

use sqlx::PgPool;
use uuid::Uuid;

use super::mentors::{self, Mentor, MentorWithServices};
use crate::{Error, Result};

pub async fn add(db: &PgPool, user_id: Uuid, mentor_id: Uuid) -> Result<()> {
    if !mentors::find(db, mentor_id).await?.is_some_and(|m| m.is_public()) {
        return Err(Error::not_found(mentors::NOT_FOUND));
    }
    sqlx::query!(
        "INSERT INTO favorites (user_id, mentor_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        user_id,
        mentor_id,
    )
    .execute(db)
    .await?;
    Ok(())
}

pub async fn remove(db: &PgPool, user_id: Uuid, mentor_id: Uuid) -> Result<()> {
    sqlx::query!(
        "DELETE FROM favorites WHERE user_id = $1 AND mentor_id = $2",
        user_id,
        mentor_id,
    )
    .execute(db)
    .await?;
    Ok(())
}

pub async fn contains(db: &PgPool, user_id: Uuid, mentor_id: Uuid) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        "SELECT EXISTS (SELECT 1 FROM favorites WHERE user_id = $1 AND mentor_id = $2) AS \"found!\"",
        user_id,
        mentor_id,
    )
    .fetch_one(db)
    .await?)
}

/// Active favourite mentors, most recently favourited first.
pub async fn list(db: &PgPool, user_id: Uuid) -> Result<Vec<MentorWithServices>> {
    let found: Vec<Mentor> = mentors::query_mentors!(
        "JOIN favorites f ON f.mentor_id = m.id WHERE f.user_id = $1 AND m.is_active AND m.approval_status = 'approved' AND u.is_active ORDER BY f.created_at DESC, m.id",
        user_id,
    )
    .fetch_all(db)
    .await?;
    mentors::with_services(db, found, false).await
}
