//! Creating an account. The caller enqueues the e-mail in the same transaction.
//!
//! An address that already has an account gets the same answer as a new one and nothing is
//! created; the mail tells the owner instead, so sign-up does not reveal who has an account.

use sqlx::PgConnection;
use uuid::Uuid;

use super::{passwords, validation};
use crate::Result;

pub struct NewAccount<'a> {
    pub email: &'a str,
    pub password: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
}

/// Used when an existing address changes to a taken one (profile); sign-up never says it.
pub const EMAIL_TAKEN: &str = "An account with this email already exists";
pub const REGISTERED: &str =
    "Registration successful! Please check your email to verify your account before signing in.";
pub const TOO_MANY_REGISTRATIONS: &str = "Too many sign-ups from your network. Please try again in 15 minutes.";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registered {
    /// A new, unverified account: send it the verification link.
    New(Uuid),
    /// The address already had this account; nothing was created: tell its owner.
    Existing(Uuid),
}

impl Registered {
    pub fn user_id(self) -> Uuid {
        match self {
            Registered::New(id) | Registered::Existing(id) => id,
        }
    }
}

struct Valid {
    email: String,
    first_name: String,
    last_name: String,
}

/// The field checks alone (no hashing, no database), so refused input costs nothing.
pub fn validate(input: &NewAccount<'_>) -> Result<()> {
    check(input).map(|_| ())
}

fn check(input: &NewAccount<'_>) -> Result<Valid> {
    let first_name = validation::name(input.first_name, "First name")?;
    let last_name = validation::name(input.last_name, "Last name")?;
    let email = validation::email(input.email)?;
    validation::password(input.password)?;
    Ok(Valid {
        email,
        first_name,
        last_name,
    })
}

/// Validates and inserts an unverified user, or finds the account the address already has.
/// Both ways hash the password once, so the answer takes as long for a taken address.
pub async fn register(tx: &mut PgConnection, input: NewAccount<'_>) -> Result<Registered> {
    let valid = check(&input)?;
    let password_hash = passwords::hash(input.password).await?;
    let created: Option<Uuid> = sqlx::query_scalar!(
        "INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING RETURNING id",
        &valid.email,
        &password_hash,
        &valid.first_name,
        &valid.last_name,
    )
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(id) = created {
        return Ok(Registered::New(id));
    }
    let existing = sqlx::query_scalar!("SELECT id FROM users WHERE lower(email) = lower($1)", &valid.email,)
        .fetch_one(&mut *tx)
        .await?;
    Ok(Registered::Existing(existing))
}

/// The user a new verification e-mail should go to, if the address belongs to an
/// active account that is not verified yet.
pub async fn awaiting_verification(db: &sqlx::PgPool, email: &str) -> Result<Option<Uuid>> {
    let id = sqlx::query_scalar!(
        "SELECT id FROM users WHERE lower(email) = lower($1) AND NOT email_verified AND is_active",
        email.trim(),
    )
    .fetch_optional(db)
    .await?;
    Ok(id)
}
