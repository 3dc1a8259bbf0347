//! A mentor's payout preferences: how they are paid and from which amount on.

use sqlx::{FromRow, PgExecutor, PgPool};
use uuid::Uuid;

use super::{DEFAULT_MINIMUM_PAYOUT_CENTS, PayoutMethod};
use crate::{Error, Result, accounts::validation, choice::Choice, money, text};

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
    pub method: Option<PayoutMethod>,
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
        match self.method? {
            PayoutMethod::Paypal => self.paypal_email.as_deref(),
            PayoutMethod::Venmo => self.venmo_username.as_deref(),
            PayoutMethod::Zelle => self.zelle_email.as_deref(),
        }
    }
}

/// What the form sends.
#[derive(Clone, Debug, Default)]
pub struct Input {
    pub method: Option<Choice<PayoutMethod>>,
    pub paypal_email: Option<String>,
    pub venmo_username: Option<String>,
    pub zelle_email: Option<String>,
    /// A decimal string; the default minimum when absent.
    pub minimum_payout: Option<String>,
    pub notes: Option<String>,
}

/// The saved preferences, if any.
pub async fn find(db: impl PgExecutor<'_>, mentor_id: Uuid) -> Result<Option<Preferences>> {
    Ok(sqlx::query_as!(
        Preferences,
        r#"SELECT mentor_id, method AS "method: PayoutMethod", paypal_email, venmo_username, zelle_email,
                  minimum_payout_cents, notes
           FROM payout_preferences WHERE mentor_id = $1"#,
        mentor_id,
    )
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
    let method: PayoutMethod = match &input.method {
        Some(sent) => sent.value_ignoring_case(INVALID_METHOD)?,
        None => return Err(Error::validation(INVALID_METHOD)),
    };
    let mut p = Preferences::defaults(mentor_id);
    match method {
        PayoutMethod::Paypal => p.paypal_email = Some(email(&input.paypal_email, PAYPAL_REQUIRED)?),
        PayoutMethod::Venmo => {
            let name = required(&input.venmo_username, VENMO_REQUIRED)?;
            if name.chars().any(char::is_whitespace) || name == "@" {
                return Err(Error::validation(VENMO_REQUIRED));
            }
            if name.chars().count() > MAX_VENMO_LEN {
                return Err(Error::validation(VENMO_TOO_LONG));
            }
            p.venmo_username = Some(name);
        }
        PayoutMethod::Zelle => p.zelle_email = Some(email(&input.zelle_email, ZELLE_REQUIRED)?),
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

/// Validates and saves (insert or replace); the other methods' fields are cleared. A changed
/// destination (method or address; the first preferences are no change) is recorded with its time,
/// which holds the mentor's next payout back ([`super::DESTINATION_HOLD`]), and the mentor is told
/// by notification and e-mail, old and new masked. Preferences set for the first time become the
/// destination of pending payouts made without one.
pub async fn save(pool: &PgPool, mentor_id: Uuid, input: &Input) -> Result<Preferences> {
    let p = validate(mentor_id, input)?;
    let mut tx = pool.begin().await?;
    let before = sqlx::query_as!(
        Preferences,
        r#"SELECT mentor_id, method AS "method: PayoutMethod", paypal_email, venmo_username, zelle_email,
                  minimum_payout_cents, notes
           FROM payout_preferences WHERE mentor_id = $1 FOR UPDATE"#,
        mentor_id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let changed = before
        .as_ref()
        .filter(|b| (b.method, b.recipient()) != (p.method, p.recipient()));
    let saved = sqlx::query_as!(
        Preferences,
        r#"INSERT INTO payout_preferences (mentor_id, method, paypal_email, venmo_username, zelle_email, minimum_payout_cents, notes)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (mentor_id) DO UPDATE SET method = $2, paypal_email = $3, venmo_username = $4, zelle_email = $5,
             minimum_payout_cents = $6, notes = $7, updated_at = now(),
             destination_changed_at = CASE WHEN $8 THEN now() ELSE payout_preferences.destination_changed_at END
           RETURNING mentor_id, method AS "method: PayoutMethod", paypal_email, venmo_username, zelle_email,
                     minimum_payout_cents, notes"#,
        mentor_id,
        p.method as Option<PayoutMethod>,
        p.paypal_email,
        p.venmo_username,
        p.zelle_email,
        p.minimum_payout_cents,
        p.notes,
        changed.is_some(),
    )
    .fetch_one(&mut *tx)
    .await?;
    match changed {
        Some(old) => super::announce_destination_changed(&mut tx, mentor_id, old, &saved).await?,
        None if before.is_none() => {
            sqlx::query!(
                "UPDATE payouts SET destination_method = $2, destination = $3
                 WHERE mentor_id = $1 AND status = $4 AND destination_method IS NULL",
                mentor_id,
                saved.method as Option<PayoutMethod>,
                saved.recipient(),
                super::PayoutStatus::Pending as super::PayoutStatus,
            )
            .execute(&mut *tx)
            .await?;
        }
        None => {}
    }
    tx.commit().await?;
    Ok(saved)
}

/// A destination as a mentor reads it in a notice, its address masked: `PayPal m***@example.com`,
/// `Venmo @m***a`. Enough to recognise one's own, too little to learn someone else's.
pub fn masked(p: &Preferences) -> String {
    let Some(method) = p.method else {
        return "none".into();
    };
    let label = method.label();
    match p.recipient() {
        Some(r) => format!("{label} {}", mask(r)),
        None => label.to_string(),
    }
}

fn mask(recipient: &str) -> String {
    let (name, domain) = match recipient.split_once('@') {
        Some((name, domain)) if !name.is_empty() => (name, Some(domain)),
        _ => (recipient, None),
    };
    // A Venmo handle may start with its @: keep it, mask the rest.
    let (at, name) = match name.strip_prefix('@') {
        Some(rest) => ("@", rest),
        None => ("", name),
    };
    let chars: Vec<char> = name.chars().collect();
    let shown = match chars.len() {
        0 => String::new(),
        1 | 2 => format!("{}***", chars[0]),
        n => format!("{}***{}", chars[0], chars[n - 1]),
    };
    match domain {
        Some(d) => format!("{at}{shown}@{d}"),
        None => format!("{at}{shown}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(method: &str) -> Input {
        Input {
            method: Some(method.parse().unwrap()),
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
            (p.method, p.paypal_email, p.venmo_username.as_deref(), p.zelle_email),
            (Some(PayoutMethod::Venmo), None, Some("@mira"), None)
        );
    }

    #[test]
    fn destinations_are_masked_for_notices() {
        let with = |method: &str, field: &str| {
            let mut p = Preferences::defaults(Uuid::nil());
            p.method = Some(method.parse().unwrap());
            match method {
                "paypal" => p.paypal_email = Some(field.into()),
                "venmo" => p.venmo_username = Some(field.into()),
                _ => p.zelle_email = Some(field.into()),
            }
            masked(&p)
        };
        assert_eq!(with("paypal", "mira@example.com"), "PayPal m***a@example.com");
        assert_eq!(with("zelle", "jo@example.com"), "Zelle j***@example.com");
        assert_eq!(with("venmo", "@mira-moon"), "Venmo @m***n");
        assert_eq!(with("venmo", "x"), "Venmo x***");
        assert_eq!(masked(&Preferences::defaults(Uuid::nil())), "none");
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
