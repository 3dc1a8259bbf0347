//! A mentor's payout preferences: how they are paid and from which amount on.

use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

use super::{DEFAULT_MINIMUM_PAYOUT_CENTS, METHODS};
use crate::{Error, Result, accounts::validation, money, text};

pub const PAYPAL_REQUIRED: &str = "Please enter your PayPal email address";
pub const VENMO_REQUIRED: &str = "Please enter your Venmo username";
pub const ZELLE_REQUIRED: &str = "Please enter your Zelle email address";
pub const INVALID_METHOD: &str = "Please choose a payout method: paypal, venmo or zelle";
pub const INVALID_MINIMUM: &str = "Minimum payout must be a non-negative amount with at most two decimals";
pub const NOTES_TOO_LONG: &str = "Notes must be at most 1000 characters";
pub const VENMO_TOO_LONG: &str = "Venmo username must be at most 64 characters";

pub const MAX_NOTES_LEN: usize = 1000;
pub const MAX_VENMO_LEN: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, FromRow)]
pub struct Preferences {
    pub mentor_id: Uuid,
    /// None until the mentor saves preferences.
    pub method: Option<String>,
    pub paypal_email: Option<String>,
    pub venmo_username: Option<String>,
    pub zelle_email: Option<String>,
    pub minimum_payout_cents: i64,
    pub notes: Option<String>,
}

impl Preferences {
    /// What a mentor without saved preferences sees: no method, the default minimum.
    pub fn defaults(mentor_id: Uuid) -> Self {
        Self {
            mentor_id,
            method: None,
            paypal_email: None,
            venmo_username: None,
            zelle_email: None,
            minimum_payout_cents: DEFAULT_MINIMUM_PAYOUT_CENTS,
            notes: None,
        }
    }

    /// Where the money goes: the chosen method's address or username.
    pub fn recipient(&self) -> Option<&str> {
        match self.method.as_deref()? {
            "paypal" => self.paypal_email.as_deref(),
            "venmo" => self.venmo_username.as_deref(),
            "zelle" => self.zelle_email.as_deref(),
            _ => None,
        }
    }
}

/// What the form sends.
#[derive(Clone, Debug, Default)]
pub struct Input {
    pub method: String,
    pub paypal_email: Option<String>,
    pub venmo_username: Option<String>,
    pub zelle_email: Option<String>,
    /// A decimal string; the default minimum when absent.
    pub minimum_payout: Option<String>,
    pub notes: Option<String>,
}

/// The saved preferences, if any.
pub async fn find(db: impl PgExecutor<'_>, mentor_id: Uuid) -> Result<Option<Preferences>> {
    Ok(sqlx::query_as(
        "SELECT mentor_id, method, paypal_email, venmo_username, zelle_email, minimum_payout_cents, notes \
         FROM payout_preferences WHERE mentor_id = $1",
    )
    .bind(mentor_id)
    .fetch_optional(db)
    .await?)
}

/// The saved preferences, or the defaults.
pub async fn get(db: impl PgExecutor<'_>, mentor_id: Uuid) -> Result<Preferences> {
    Ok(find(db, mentor_id)
        .await?
        .unwrap_or_else(|| Preferences::defaults(mentor_id)))
}

fn required(value: &Option<String>, message: &str) -> Result<String> {
    let v = value.as_deref().map(str::trim).unwrap_or_default();
    if v.is_empty() || !text::is_single_line(v) {
        return Err(Error::validation(message));
    }
    Ok(v.to_string())
}

fn email(value: &Option<String>, message: &str) -> Result<String> {
    let v = required(value, message)?;
    validation::email(&v).map_err(|_| Error::validation(message))
}

/// Checks the form: the chosen method's field (only that one is kept), the minimum, the notes.
pub fn validate(mentor_id: Uuid, input: &Input) -> Result<Preferences> {
    let method = input.method.trim().to_ascii_lowercase();
    if !METHODS.contains(&method.as_str()) {
        return Err(Error::validation(INVALID_METHOD));
    }
    let mut p = Preferences::defaults(mentor_id);
    match method.as_str() {
        "paypal" => p.paypal_email = Some(email(&input.paypal_email, PAYPAL_REQUIRED)?),
        "venmo" => {
            let name = required(&input.venmo_username, VENMO_REQUIRED)?;
            if name.chars().any(char::is_whitespace) || name == "@" {
                return Err(Error::validation(VENMO_REQUIRED));
            }
            if name.chars().count() > MAX_VENMO_LEN {
                return Err(Error::validation(VENMO_TOO_LONG));
            }
            p.venmo_username = Some(name);
        }
        _ => p.zelle_email = Some(email(&input.zelle_email, ZELLE_REQUIRED)?),
    }
    p.method = Some(method);
    if let Some(raw) = input.minimum_payout.as_deref().filter(|s| !s.trim().is_empty()) {
        p.minimum_payout_cents = money::parse(raw, INVALID_MINIMUM)?;
    }
    let notes = input.notes.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if notes.is_some_and(|n| n.chars().count() > MAX_NOTES_LEN) {
        return Err(Error::validation(NOTES_TOO_LONG));
    }
    p.notes = notes.map(str::to_string);
    Ok(p)
}

/// Validates and saves (insert or replace); the other methods' fields are cleared.
pub async fn save(db: impl PgExecutor<'_>, mentor_id: Uuid, input: &Input) -> Result<Preferences> {
    let p = validate(mentor_id, input)?;
    Ok(sqlx::query_as(
        "INSERT INTO payout_preferences (mentor_id, method, paypal_email, venmo_username, zelle_email, minimum_payout_cents, notes) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (mentor_id) DO UPDATE SET method = $2, paypal_email = $3, venmo_username = $4, zelle_email = $5, \
           minimum_payout_cents = $6, notes = $7, updated_at = now() \
         RETURNING mentor_id, method, paypal_email, venmo_username, zelle_email, minimum_payout_cents, notes",
    )
    .bind(mentor_id)
    .bind(&p.method)
    .bind(&p.paypal_email)
    .bind(&p.venmo_username)
    .bind(&p.zelle_email)
    .bind(p.minimum_payout_cents)
    .bind(&p.notes)
    .fetch_one(db)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(method: &str) -> Input {
        Input {
            method: method.into(),
            ..Default::default()
        }
    }

    fn err(i: &Input) -> String {
        validate(Uuid::nil(), i).unwrap_err().to_string()
    }

    #[test]
    fn each_method_needs_its_own_field() {
        assert_eq!(err(&input("paypal")), PAYPAL_REQUIRED);
        assert_eq!(err(&input("venmo")), VENMO_REQUIRED);
        assert_eq!(err(&input("zelle")), ZELLE_REQUIRED);
        assert_eq!(
            err(&Input {
                paypal_email: Some("not-an-email".into()),
                ..input("paypal")
            }),
            PAYPAL_REQUIRED
        );
        assert_eq!(
            err(&Input {
                zelle_email: Some("  ".into()),
                ..input("zelle")
            }),
            ZELLE_REQUIRED
        );
        assert_eq!(err(&input("bitcoin")), INVALID_METHOD);
        assert_eq!(err(&input("")), INVALID_METHOD);
    }

    #[test]
    fn only_the_chosen_methods_field_is_kept() {
        let p = validate(
            Uuid::nil(),
            &Input {
                paypal_email: Some("a@b.co".into()),
                venmo_username: Some("@mira".into()),
                zelle_email: Some("z@b.co".into()),
                ..input("venmo")
            },
        )
        .unwrap();
        assert_eq!(p.recipient(), Some("@mira"));
        assert_eq!(p.minimum_payout_cents, DEFAULT_MINIMUM_PAYOUT_CENTS);
        assert_eq!(
            (
                p.method.as_deref(),
                p.paypal_email,
                p.venmo_username.as_deref(),
                p.zelle_email
            ),
            (Some("venmo"), None, Some("@mira"), None)
        );
    }

    #[test]
    fn the_minimum_is_a_non_negative_amount() {
        let with = |m: &str| Input {
            paypal_email: Some("a@b.co".into()),
            minimum_payout: Some(m.into()),
            ..input("paypal")
        };
        assert_eq!(validate(Uuid::nil(), &with("0")).unwrap().minimum_payout_cents, 0);
        assert_eq!(
            validate(Uuid::nil(), &with("25.5")).unwrap().minimum_payout_cents,
            2_550
        );
        for bad in ["-1", "1.234", "abc"] {
            assert_eq!(err(&with(bad)), INVALID_MINIMUM, "{bad}");
        }
    }
}
