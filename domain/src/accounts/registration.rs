//! Creating an account. The caller enqueues the verification e-mail in the same transaction.

use sqlx::PgConnection;
use uuid::Uuid;

use super::{passwords, validation};
use crate::{Error, Result, error::OnConstraint};

pub struct NewAccount<'a> {
    pub email: &'a str,
    pub password: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
}

pub const EMAIL_TAKEN: &str = "An account with this email already exists";
pub const REGISTERED: &str =
    "Registration successful! Please check your email to verify your account before signing in.";

/// Validates and inserts an unverified user; returns its id.
pub async fn register(tx: &mut PgConnection, input: NewAccount<'_>) -> Result<Uuid> {
    let first_name = validation::name(input.first_name, "First name")?;
    let last_name = validation::name(input.last_name, "Last name")?;
    let email = validation::email(input.email)?;
    validation::password(input.password)?;
    let password_hash = passwords::hash(input.password).await?;
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(&email)
    .bind(&password_hash)
    .bind(&first_name)
    .bind(&last_name)
    .fetch_one(&mut *tx)
    .await
    .on_constraint("users_email_key", || Error::conflict(EMAIL_TAKEN))
}

/// The user a new verification e-mail should go to, if the address belongs to an
/// active account that is not verified yet.
pub async fn awaiting_verification(db: &sqlx::PgPool, email: &str) -> Result<Option<Uuid>> {
    let id = sqlx::query_scalar(
        "SELECT id FROM users WHERE lower(email) = lower($1) AND NOT email_verified AND is_active",
    )
    .bind(email.trim())
    .fetch_optional(db)
    .await?;
    Ok(id)
}
