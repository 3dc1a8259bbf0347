//! Two-factor sign-in with time-based one-time codes (TOTP, RFC 6238: HMAC-SHA1, 6 digits, 30-second
//! steps, one step of clock drift either way), single-use recovery codes, and the pending sign-in
//! between the password and the code.

use chrono::Duration;
use qrcode::{QrCode, render::svg};
use rand::Rng;
use sqlx::{PgExecutor, PgPool};
use totp_rs::{Algorithm, Builder, Secret, Totp};
use uuid::Uuid;

use super::passwords;
use crate::{Error, PRODUCT_NAME, Result, tokens};

/// Digits of a code.
pub const CODE_DIGITS: u8 = 6;
/// Seconds a code is valid for (RFC 6238's recommended step).
pub const STEP_SECONDS: u64 = 30;
/// Steps of clock drift accepted either way.
pub const SKEW_STEPS: u16 = 1;
/// Bytes of a new secret (160 bits, as RFC 4226 recommends).
pub const SECRET_BYTES: usize = 20;
/// Recovery codes in one set.
pub const RECOVERY_CODES: usize = 10;
/// Characters of a recovery code (shown in groups of four): 80 random bits.
pub const RECOVERY_CODE_CHARS: usize = 16;
/// The alphabet of recovery codes (RFC 4648 base32, no easily confused symbols beyond it).
const RECOVERY_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
/// How long after the password a pending sign-in may be completed with a code.
pub const CHALLENGE_TTL: Duration = Duration::minutes(5);
/// Wrong codes that end a pending sign-in (the last one included).
pub const MAX_CODE_FAILURES: i32 = 5;
/// The cookie holding a pending sign-in.
pub const CHALLENGE_COOKIE: &str = "two_factor";

pub const INVALID_CODE: &str = "Invalid two-factor code";
pub const ATTEMPT_ENDED: &str = "Your sign-in attempt has ended. Please sign in again.";
pub const ALREADY_ENABLED: &str = "Two-factor sign-in is already on";
pub const NOT_ENABLED: &str = "Two-factor sign-in is not on";
pub const NOT_SET_UP: &str = "Set up two-factor sign-in first";
pub const INCORRECT_PASSWORD: &str = "Incorrect password.";
pub const CODE_REQUIRED: &str = "Enter the code from your authenticator app or a recovery code";
pub const REQUIRED_FOR_ADMINS: &str = "Administrators must turn on two-factor sign-in to use the admin console";

/// What an authenticator app needs: the secret, its `otpauth://` URI and that URI as a QR code.
pub struct Setup {
    pub secret: String,
    pub otpauth_uri: String,
    pub qr_svg: String,
}

fn totp(secret: Vec<u8>, account: &str) -> Result<Totp> {
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(CODE_DIGITS)
        .with_skew(SKEW_STEPS)
        .with_step_duration(STEP_SECONDS)
        .with_secret(secret)
        .with_issuer(Some(PRODUCT_NAME))
        .with_account_name(account.replace(':', ""))
        .build()
        .map_err(|e| Error::Internal(anyhow::anyhow!("totp: {e:?}")))
}

fn totp_from_base32(secret: &str, account: &str) -> Result<Totp> {
    let bytes = Secret::try_from_base32(secret)
        .map_err(|e| Error::Internal(anyhow::anyhow!("stored totp secret: {e:?}")))?
        .as_bytes()
        .to_vec();
    totp(bytes, account)
}

fn now_seconds() -> u64 {
    chrono::Utc::now().timestamp().max(0) as u64
}

/// The step whose code `code` is at `time` (within the skew), if any.
pub fn matching_step(secret_base32: &str, code: &str, time: u64) -> Result<Option<i64>> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let t = totp_from_base32(secret_base32, "")?;
    Ok(t.check(&code, time).map(|step| step as i64))
}

/// The code for `time` (tests and the browser test's helper compute the same).
pub fn code_at(secret_base32: &str, time: u64) -> Result<String> {
    Ok(totp_from_base32(secret_base32, "")?.generate(time).to_string())
}

/// Starts (or restarts) setting up: a new secret, not in force until [`enable`] confirms a code.
pub async fn setup(pool: &PgPool, user_id: Uuid, account: &str) -> Result<Setup> {
    let mut bytes = vec![0u8; SECRET_BYTES];
    rand::rng().fill(&mut bytes[..]);
    let t = totp(bytes, account)?;
    let secret = t.secret().to_base32();
    let done = sqlx::query!(
        "INSERT INTO two_factor (user_id, secret) VALUES ($1, $2) \
         ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_used_step = NULL, created_at = now() \
         WHERE two_factor.enabled_at IS NULL",
        user_id,
        &secret,
    )
    .execute(pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(Error::conflict(ALREADY_ENABLED));
    }
    let otpauth_uri = t
        .to_url()
        .map_err(|e| Error::Internal(anyhow::anyhow!("otpauth uri: {e:?}")))?;
    let qr_svg = QrCode::new(otpauth_uri.as_bytes())
        .map_err(|e| Error::Internal(anyhow::anyhow!("qr code: {e}")))?
        .render::<svg::Color<'_>>()
        .min_dimensions(200, 200)
        .build();
    Ok(Setup {
        secret,
        otpauth_uri,
        qr_svg,
    })
}

/// Accepts a TOTP code of the user's secret at most once: the step it matched must be later than
/// the last accepted one. `enabled` says which secret: the one in force, or the one being set up.
async fn accept_code(db: impl PgExecutor<'_>, user_id: Uuid, code: &str, enabled: bool) -> Result<bool> {
    let row = sqlx::query!(
        "SELECT secret, last_used_step FROM two_factor WHERE user_id = $1 AND (enabled_at IS NOT NULL) = $2 FOR UPDATE",
        user_id,
        enabled,
    )
    .fetch_optional(db)
    .await?
    .map(|r| (r.secret, r.last_used_step));
    let Some((secret, last)) = row else {
        return Ok(false);
    };
    let Some(step) = matching_step(&secret, code, now_seconds())? else {
        return Ok(false);
    };
    Ok(last.is_none_or(|last| step > last))
}

async fn record_step(tx: &mut sqlx::PgConnection, user_id: Uuid, code: &str) -> Result<()> {
    let secret: String = sqlx::query_scalar!("SELECT secret FROM two_factor WHERE user_id = $1", user_id,)
        .fetch_one(&mut *tx)
        .await?;
    if let Some(step) = matching_step(&secret, code, now_seconds())? {
        sqlx::query!(
            "UPDATE two_factor SET last_used_step = GREATEST(coalesce(last_used_step, 0), $2) WHERE user_id = $1",
            user_id,
            step,
        )
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// A TOTP code of the secret in force, accepted once (the step is recorded in `tx`).
async fn take_code(tx: &mut sqlx::PgConnection, user_id: Uuid, code: &str, enabled: bool) -> Result<bool> {
    if !accept_code(&mut *tx, user_id, code, enabled).await? {
        return Ok(false);
    }
    record_step(tx, user_id, code).await?;
    Ok(true)
}

/// The digest of a recovery code as typed (case, spaces and dashes do not matter), bound to its user.
fn recovery_digest(user_id: Uuid, code: &str) -> Vec<u8> {
    let normalised: String = code
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    tokens::digest(&format!("{user_id}:{normalised}"))
}

/// A new recovery code, shown as four groups of four: 'ABCD-EFGH-2345-WXYZ'.
fn new_recovery_code() -> String {
    let mut rng = rand::rng();
    let chars: Vec<char> = (0..RECOVERY_CODE_CHARS)
        .map(|_| RECOVERY_ALPHABET[rng.random_range(0..RECOVERY_ALPHABET.len())] as char)
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// Replaces the user's recovery codes with a new set and returns it (only digests are kept).
async fn new_recovery_codes(tx: &mut sqlx::PgConnection, user_id: Uuid) -> Result<Vec<String>> {
    sqlx::query!("DELETE FROM two_factor_recovery_codes WHERE user_id = $1", user_id,)
        .execute(&mut *tx)
        .await?;
    let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
    for code in &codes {
        sqlx::query!(
            "INSERT INTO two_factor_recovery_codes (user_id, code_hash) VALUES ($1, $2)",
            user_id,
            recovery_digest(user_id, code),
        )
        .execute(&mut *tx)
        .await?;
    }
    Ok(codes)
}

/// Uses up one recovery code; false when it is not one of the user's unused codes.
async fn take_recovery_code(db: impl PgExecutor<'_>, user_id: Uuid, code: &str) -> Result<bool> {
    let done = sqlx::query!(
        "UPDATE two_factor_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL",
        user_id,
        recovery_digest(user_id, code),
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Confirms the secret being set up with a first code and turns two factors on; the recovery codes.
pub async fn enable(pool: &PgPool, user_id: Uuid, code: &str) -> Result<Vec<String>> {
    let mut tx = pool.begin().await?;
    let state: Option<bool> = sqlx::query_scalar!(
        "SELECT enabled_at IS NOT NULL AS \"enabled!\" FROM two_factor WHERE user_id = $1",
        user_id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    match state {
        None => return Err(Error::validation(NOT_SET_UP)),
        Some(true) => return Err(Error::conflict(ALREADY_ENABLED)),
        Some(false) => {}
    }
    if !take_code(&mut tx, user_id, code, false).await? {
        return Err(Error::validation(INVALID_CODE));
    }
    sqlx::query!("UPDATE two_factor SET enabled_at = now() WHERE user_id = $1", user_id,)
        .execute(&mut *tx)
        .await?;
    let codes = new_recovery_codes(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(codes)
}

async fn require_enabled(tx: &mut sqlx::PgConnection, user_id: Uuid) -> Result<()> {
    let on: bool = sqlx::query_scalar!(
        "SELECT EXISTS (SELECT 1 FROM two_factor WHERE user_id = $1 AND enabled_at IS NOT NULL) AS \"on!\"",
        user_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    if on {
        Ok(())
    } else {
        Err(Error::validation(NOT_ENABLED))
    }
}

/// A new set of recovery codes (the old ones stop working), on a current code.
pub async fn regenerate_recovery_codes(pool: &PgPool, user_id: Uuid, code: &str) -> Result<Vec<String>> {
    let mut tx = pool.begin().await?;
    require_enabled(&mut tx, user_id).await?;
    if !take_code(&mut tx, user_id, code, true).await? {
        return Err(Error::validation(INVALID_CODE));
    }
    let codes = new_recovery_codes(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(codes)
}

/// Turns two factors off, on the password and a current code (or a recovery code).
pub async fn disable(pool: &PgPool, user_id: Uuid, password: &str, code: &str) -> Result<()> {
    let stored: String = sqlx::query_scalar!("SELECT password_hash FROM users WHERE id = $1", user_id,)
        .fetch_one(pool)
        .await?;
    if !passwords::verify(password, &stored).await? {
        return Err(Error::validation(INCORRECT_PASSWORD));
    }
    let mut tx = pool.begin().await?;
    require_enabled(&mut tx, user_id).await?;
    if !take_code(&mut tx, user_id, code, true).await? && !take_recovery_code(&mut *tx, user_id, code).await? {
        return Err(Error::validation(INVALID_CODE));
    }
    sqlx::query!("DELETE FROM two_factor_recovery_codes WHERE user_id = $1", user_id,)
        .execute(&mut *tx)
        .await?;
    sqlx::query!("DELETE FROM two_factor WHERE user_id = $1", user_id,)
        .execute(&mut *tx)
        .await?;
    sqlx::query!("DELETE FROM two_factor_challenges WHERE user_id = $1", user_id,)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the user signs in with a second factor.
pub async fn is_enabled(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        "SELECT EXISTS (SELECT 1 FROM two_factor WHERE user_id = $1 AND enabled_at IS NOT NULL) AS \"on!\"",
        user_id,
    )
    .fetch_one(db)
    .await?)
}

/// A pending sign-in after the right password: the token for its cookie.
pub async fn start_challenge(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<String> {
    let token = tokens::generate();
    sqlx::query!(
        "INSERT INTO two_factor_challenges (token_hash, user_id, expires_at) VALUES ($1, $2, now() + $3::interval)",
        tokens::digest(&token),
        user_id,
        crate::sql::interval(CHALLENGE_TTL),
    )
    .execute(db)
    .await?;
    Ok(token)
}

/// The user of a live pending sign-in (to count a wrong code against their sign-in limits).
pub async fn challenge_user(pool: &PgPool, token: &str) -> Result<Option<super::User>> {
    let user_id: Option<Uuid> = sqlx::query_scalar!(
        "SELECT user_id FROM two_factor_challenges WHERE token_hash = $1 AND expires_at > now()",
        tokens::digest(token),
    )
    .fetch_optional(pool)
    .await?;
    match user_id {
        Some(id) => super::users::find(pool, id).await,
        None => Ok(None),
    }
}

/// The second factor offered to complete a pending sign-in.
pub enum Factor<'a> {
    Code(&'a str),
    RecoveryCode(&'a str),
}

/// How completing a pending sign-in went.
#[derive(Debug, PartialEq, Eq)]
pub enum Completion {
    /// The sign-in is complete for this user: start their session.
    SignedIn(Uuid),
    /// A wrong code; the attempt goes on.
    Wrong,
    /// No such attempt, expired, or this wrong code was its last.
    Ended,
}

/// Completes a pending sign-in with a code or a recovery code, within [`CHALLENGE_TTL`]; the
/// [`MAX_CODE_FAILURES`]th wrong code ends it.
pub async fn complete(pool: &PgPool, token: Option<&str>, factor: Factor<'_>) -> Result<Completion> {
    let Some(token) = token else {
        return Ok(Completion::Ended);
    };
    let digest = tokens::digest(token);
    let mut tx = pool.begin().await?;
    let user_id: Option<Uuid> = sqlx::query_scalar!(
        "SELECT user_id FROM two_factor_challenges WHERE token_hash = $1 AND expires_at > now() \
         AND failures < $2 FOR UPDATE",
        &digest,
        MAX_CODE_FAILURES,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(user_id) = user_id else {
        return Ok(Completion::Ended);
    };
    let right = match factor {
        Factor::Code(code) => take_code(&mut tx, user_id, code, true).await?,
        Factor::RecoveryCode(code) => take_recovery_code(&mut *tx, user_id, code).await?,
    };
    if right {
        sqlx::query!("DELETE FROM two_factor_challenges WHERE token_hash = $1", &digest,)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return Ok(Completion::SignedIn(user_id));
    }
    let failures: i32 = sqlx::query_scalar!(
        "UPDATE two_factor_challenges SET failures = failures + 1 WHERE token_hash = $1 RETURNING failures",
        &digest,
    )
    .fetch_one(&mut *tx)
    .await?;
    if failures >= MAX_CODE_FAILURES {
        sqlx::query!("DELETE FROM two_factor_challenges WHERE token_hash = $1", &digest,)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(if failures >= MAX_CODE_FAILURES {
        Completion::Ended
    } else {
        Completion::Wrong
    })
}

pub async fn prune_expired_challenges(db: impl PgExecutor<'_>) -> Result<u64> {
    let done = sqlx::query!("DELETE FROM two_factor_challenges WHERE expires_at <= now()")
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 rows: the 20-byte ASCII secret "12345678901234567890", 8 digits.
    #[test]
    fn rfc_6238_test_vectors() {
        let t = Builder::new()
            .with_algorithm(Algorithm::SHA1)
            .with_digits(8)
            .with_step_duration(30)
            .with_secret(b"12345678901234567890".to_vec())
            .build()
            .unwrap();
        for (time, code) in [
            (59, "94287082"),
            (1_111_111_109, "07081804"),
            (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"),
            (20_000_000_000, "65353130"),
        ] {
            assert_eq!(t.generate(time).to_string(), code, "at {time}");
        }
    }

    /// Our own settings: 6 digits of the same HMAC, a step either side accepted, no further.
    #[test]
    fn codes_are_six_digits_with_one_step_of_drift() {
        let secret = totp(b"12345678901234567890".to_vec(), "ann@example.com")
            .unwrap()
            .secret()
            .to_base32();
        assert_eq!(
            code_at(&secret, 59).unwrap(),
            "287082",
            "the last 6 digits of the RFC's 94287082"
        );
        let now = 1_111_111_111;
        let step = (now / STEP_SECONDS) as i64;
        assert_eq!(
            matching_step(&secret, &code_at(&secret, now).unwrap(), now).unwrap(),
            Some(step)
        );
        let early = code_at(&secret, now - STEP_SECONDS).unwrap();
        assert_eq!(matching_step(&secret, &early, now).unwrap(), Some(step - 1));
        let stale = code_at(&secret, now - 2 * STEP_SECONDS).unwrap();
        assert_eq!(matching_step(&secret, &stale, now).unwrap(), None);
    }

    #[test]
    fn recovery_codes_are_80_bits_in_groups_and_typed_loosely() {
        let code = new_recovery_code();
        assert_eq!(code.len(), RECOVERY_CODE_CHARS + 3);
        assert_eq!(code.split('-').count(), 4);
        let user = Uuid::nil();
        assert_eq!(
            recovery_digest(user, &code),
            recovery_digest(user, &code.replace('-', " ").to_lowercase())
        );
        assert_ne!(recovery_digest(user, &code), recovery_digest(Uuid::from_u128(1), &code));
        assert_eq!(RECOVERY_CODES, 10);
        assert_eq!(CHALLENGE_TTL, Duration::minutes(5));
        assert_eq!(MAX_CODE_FAILURES, 5);
    }
}
