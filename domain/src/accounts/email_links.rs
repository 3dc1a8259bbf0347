//! Single-use links sent by e-mail: verifying an address (24 hours) and resetting a password (1 hour).

use chrono::Duration;
use sqlx::{PgExecutor, PgPool};
use uuid::Uuid;

use super::{passwords, sessions, validation};
use crate::{
    Error, Result,
    rate_limit::{self, Scope},
    tokens,
};

pub const VERIFICATION_TTL: Duration = Duration::hours(24);
pub const RESET_TTL: Duration = Duration::hours(1);
/// At most this many password-reset mails go to one account in [`rate_limit::RECIPIENT_WINDOW`]
/// (an hour), whatever addresses ask; further requests are answered the same and send nothing.
pub const MAX_RESET_MAILS_PER_RECIPIENT: i64 = 3;
/// The same for re-sent verification mails.
pub const MAX_VERIFICATION_MAILS_PER_RECIPIENT: i64 = 3;

pub const INVALID_VERIFICATION_LINK: &str =
    "This verification link is invalid or has expired. Please request a new one.";
pub const INVALID_RESET_LINK: &str = "This reset link is invalid or has expired. Please request a new password reset.";
pub const EMAIL_VERIFIED: &str = "Email verified successfully! You can now sign in.";
pub const PASSWORD_RESET: &str = "Password reset successfully! You can now sign in with your new password.";
pub const PASSWORD_CHANGED: &str = "Password changed successfully!";
pub const WRONG_CURRENT_PASSWORD: &str = "Current password is incorrect";
pub const RESET_REQUESTED: &str = "If an account exists for that email, we have sent a link to reset your password.";
pub const VERIFICATION_RESENT: &str =
    "If that email belongs to an account awaiting verification, we have sent a new verification link.";

closed_set! {
    /// What an e-mailed link does.
    pub enum Purpose ("e-mail link purpose") {
        VerifyEmail = "verify_email",
        ResetPassword = "reset_password",
    }
}

impl Purpose {
    pub fn lifetime(self) -> Duration {
        match self {
            Purpose::VerifyEmail => VERIFICATION_TTL,
            Purpose::ResetPassword => RESET_TTL,
        }
    }
}

/// Creates a link token for `email` and returns the secret to put in the link.
pub async fn issue(db: impl PgExecutor<'_>, user_id: Uuid, email: &str, purpose: Purpose) -> Result<String> {
    let token = tokens::generate();
    sqlx::query!(
        "INSERT INTO email_tokens (token_hash, user_id, purpose, email, expires_at) \
         VALUES ($1, $2, $3, $4, now() + $5::interval)",
        tokens::digest(&token),
        user_id,
        purpose.as_str(),
        email,
        crate::sql::interval(purpose.lifetime()),
    )
    .execute(db)
    .await?;
    Ok(token)
}

/// Marks the token used, once; returns its user and address.
async fn consume(db: impl PgExecutor<'_>, token: &str, purpose: Purpose) -> Result<Option<(Uuid, String)>> {
    let row = sqlx::query!(
        "UPDATE email_tokens SET used_at = now() \
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() \
         RETURNING user_id, email",
        tokens::digest(token.trim()),
        purpose as Purpose,
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| (r.user_id, r.email)))
}

pub async fn verify_email(pool: &PgPool, token: &str) -> Result<()> {
    let mut tx = pool.begin().await?;
    let Some((user_id, email)) = consume(&mut *tx, token, Purpose::VerifyEmail).await? else {
        return Err(Error::validation(INVALID_VERIFICATION_LINK));
    };
    // The link proves ownership of the address it was sent to, and only while that is still the account's.
    let updated = sqlx::query!(
        "UPDATE users SET email_verified = true, updated_at = now() WHERE id = $1 AND lower(email) = lower($2)",
        user_id,
        &email,
    )
    .execute(&mut *tx)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(Error::validation(INVALID_VERIFICATION_LINK));
    }
    tx.commit().await?;
    Ok(())
}

/// Sets a new password from a reset link, voids the user's other reset links and ends every session.
pub async fn reset_password(pool: &PgPool, token: &str, new_password: &str) -> Result<()> {
    validation::password(new_password)?;
    let password_hash = passwords::hash(new_password).await?;
    let mut tx = pool.begin().await?;
    let Some((user_id, _)) = consume(&mut *tx, token, Purpose::ResetPassword).await? else {
        return Err(Error::validation(INVALID_RESET_LINK));
    };
    set_password(&mut *tx, user_id, &password_hash).await?;
    void_reset_links(&mut *tx, user_id).await?;
    sessions::end_all(&mut *tx, user_id, None).await?;
    tx.commit().await?;
    Ok(())
}

/// Changes the password of a signed-in user; reset links are voided and other sessions end, the current one stays.
pub async fn change_password(
    pool: &PgPool,
    user_id: Uuid,
    current_session: &str,
    current_password: &str,
    new_password: &str,
) -> Result<()> {
    if current_password.is_empty() {
        return Err(Error::validation("Current password is required"));
    }
    validation::password(new_password)?;
    let stored: String = sqlx::query_scalar!("SELECT password_hash FROM users WHERE id = $1", user_id,)
        .fetch_one(pool)
        .await?;
    if !passwords::verify(current_password, &stored).await? {
        return Err(Error::validation(WRONG_CURRENT_PASSWORD));
    }
    let password_hash = passwords::hash(new_password).await?;
    let mut tx = pool.begin().await?;
    set_password(&mut *tx, user_id, &password_hash).await?;
    void_reset_links(&mut *tx, user_id).await?;
    sessions::end_all(&mut *tx, user_id, Some(current_session)).await?;
    tx.commit().await?;
    Ok(())
}

/// A reset link sent before the password changed must not change it again.
async fn void_reset_links(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<()> {
    sqlx::query!(
        "DELETE FROM email_tokens WHERE user_id = $1 AND purpose = $2",
        user_id,
        Purpose::ResetPassword.as_str(),
    )
    .execute(db)
    .await?;
    Ok(())
}

async fn set_password(db: impl PgExecutor<'_>, user_id: Uuid, password_hash: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1",
        user_id,
        password_hash,
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The active user a reset link should go to, if the address has an account.
pub async fn reset_recipient(pool: &PgPool, email: &str) -> Result<Option<Uuid>> {
    let id = sqlx::query_scalar!(
        "SELECT id FROM users WHERE lower(email) = lower($1) AND is_active",
        email.trim(),
    )
    .fetch_optional(pool)
    .await?;
    Ok(id)
}

/// Whether one more reset mail may go to `user_id` ([`MAX_RESET_MAILS_PER_RECIPIENT`]); counts it.
pub async fn may_send_reset(pool: &PgPool, user_id: Uuid) -> Result<bool> {
    rate_limit::allow(
        pool,
        Scope::ResetMailRecipient,
        &user_id.to_string(),
        MAX_RESET_MAILS_PER_RECIPIENT,
    )
    .await
}

/// Whether one more verification mail may be re-sent to `user_id`
/// ([`MAX_VERIFICATION_MAILS_PER_RECIPIENT`]); counts it.
pub async fn may_resend_verification(pool: &PgPool, user_id: Uuid) -> Result<bool> {
    rate_limit::allow(
        pool,
        Scope::VerificationMailRecipient,
        &user_id.to_string(),
        MAX_VERIFICATION_MAILS_PER_RECIPIENT,
    )
    .await
}

pub async fn prune_expired(db: impl PgExecutor<'_>) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM email_tokens WHERE expires_at <= now() OR used_at IS NOT NULL")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
