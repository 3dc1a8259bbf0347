//! Card data as the payment form sends it, checked on the server too. The number never leaves
//! this struct except to the gateway: it is not stored, logged or printed.

use chrono::{Datelike, NaiveDate};

use crate::{Error, Result};

pub const MIN_CARD_DIGITS: usize = 13;
pub const MAX_CARD_DIGITS: usize = 16;
pub const INVALID_NUMBER: &str = "Please enter a valid card number";
pub const INVALID_EXPIRY: &str = "Please enter a valid expiration date (MMYY)";
pub const EXPIRED: &str = "The card has expired";
pub const INVALID_CODE: &str = "Please enter a valid security code";
pub const MISSING_BILLING: &str = "First name, last name and ZIP code are required";

#[derive(Clone, Default)]
pub struct Billing {
    pub first_name: String,
    pub last_name: String,
    pub address: String,
    pub city: String,
    pub state: String,
    pub zip: String,
}

#[derive(Clone)]
pub struct Card {
    number: String,
    pub exp_month: u32,
    /// Four digits.
    pub exp_year: i32,
    code: String,
    pub billing: Billing,
}

impl std::fmt::Debug for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Card(**** {}, {:02}/{})",
            self.last4(),
            self.exp_month,
            self.exp_year
        )
    }
}

pub struct CardInput<'a> {
    pub number: &'a str,
    /// MMYY (a slash is tolerated)
    pub expiration: &'a str,
    pub code: &'a str,
    pub billing: Billing,
}

impl Card {
    pub fn last4(&self) -> &str {
        &self.number[self.number.len() - 4..]
    }
    pub fn number(&self) -> &str {
        &self.number
    }
    pub fn code(&self) -> &str {
        &self.code
    }
}

/// The Luhn checksum every card number carries.
pub fn luhn(digits: &str) -> bool {
    let mut sum = 0;
    for (i, c) in digits.chars().rev().enumerate() {
        let Some(mut d) = c.to_digit(10) else { return false };
        if i % 2 == 1 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
    }
    sum % 10 == 0
}

pub fn validate(input: CardInput<'_>, today: NaiveDate) -> Result<Card> {
    let number: String = input
        .number
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if !(MIN_CARD_DIGITS..=MAX_CARD_DIGITS).contains(&number.len())
        || !number.chars().all(|c| c.is_ascii_digit())
        || !luhn(&number)
    {
        return Err(Error::validation(INVALID_NUMBER));
    }
    let expiry: String = input
        .expiration
        .chars()
        .filter(|c| *c != '/' && !c.is_whitespace())
        .collect();
    if expiry.len() != 4 || !expiry.chars().all(|c| c.is_ascii_digit()) {
        return Err(Error::validation(INVALID_EXPIRY));
    }
    let month: u32 = expiry[..2].parse().map_err(|_| Error::validation(INVALID_EXPIRY))?;
    let year: i32 = 2000
        + expiry[2..]
            .parse::<i32>()
            .map_err(|_| Error::validation(INVALID_EXPIRY))?;
    if !(1..=12).contains(&month) {
        return Err(Error::validation(INVALID_EXPIRY));
    }
    // A card is valid through the last day of its expiry month.
    if (year, month) < (today.year(), today.month()) {
        return Err(Error::validation(EXPIRED));
    }
    let code = input.code.trim();
    if !(3..=4).contains(&code.len()) || !code.chars().all(|c| c.is_ascii_digit()) {
        return Err(Error::validation(INVALID_CODE));
    }
    let b = input.billing;
    let billing = Billing {
        first_name: b.first_name.trim().to_string(),
        last_name: b.last_name.trim().to_string(),
        address: b.address.trim().to_string(),
        city: b.city.trim().to_string(),
        state: b.state.trim().to_string(),
        zip: b.zip.trim().to_string(),
    };
    if billing.first_name.is_empty() || billing.last_name.is_empty() || billing.zip.is_empty() {
        return Err(Error::validation(MISSING_BILLING));
    }
    Ok(Card {
        number,
        exp_month: month,
        exp_year: year,
        code: code.to_string(),
        billing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(number: &'a str, expiration: &'a str, code: &'a str) -> CardInput<'a> {
        CardInput {
            number,
            expiration,
            code,
            billing: Billing {
                first_name: "Ann".into(),
                last_name: "Lee".into(),
                zip: "10001".into(),
                ..Default::default()
            },
        }
    }

    fn msg(r: Result<Card>) -> String {
        r.unwrap_err().to_string()
    }

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 22).unwrap()
    }

    #[test]
    fn luhn_accepts_real_numbers_only() {
        assert!(luhn("4111111111111111"));
        assert!(luhn("4000000000000002"));
        assert!(!luhn("4111111111111112"));
    }

    #[test]
    fn numbers_have_13_to_16_digits_and_a_valid_checksum() {
        let card = validate(input("4111 1111 1111 1111", "1228", "123"), today()).unwrap();
        assert_eq!(card.last4(), "1111");
        assert!(
            !format!("{card:?}").contains("41111111"),
            "Debug never shows the number"
        );
        assert!(
            validate(input("4222222222222", "1228", "123"), today()).is_ok(),
            "13 digits"
        );
        assert_eq!(
            msg(validate(input("422222222222", "1228", "123"), today())),
            INVALID_NUMBER,
            "12 digits"
        );
        assert_eq!(
            msg(validate(input("41111111111111111", "1228", "123"), today())),
            INVALID_NUMBER,
            "17 digits"
        );
        assert_eq!(
            msg(validate(input("4111111111111112", "1228", "123"), today())),
            INVALID_NUMBER,
            "checksum"
        );
        assert_eq!(
            msg(validate(input("4111abcd11111111", "1228", "123"), today())),
            INVALID_NUMBER
        );
    }

    #[test]
    fn expiry_is_mmyy_and_not_in_the_past() {
        assert!(
            validate(input("4111111111111111", "1126", "123"), today()).is_ok(),
            "this month still works"
        );
        assert_eq!(
            msg(validate(input("4111111111111111", "1026", "123"), today())),
            EXPIRED
        );
        assert!(validate(input("4111111111111111", "12/28", "123"), today()).is_ok());
        assert_eq!(
            msg(validate(input("4111111111111111", "1328", "123"), today())),
            INVALID_EXPIRY
        );
        assert_eq!(
            msg(validate(input("4111111111111111", "128", "123"), today())),
            INVALID_EXPIRY
        );
    }

    #[test]
    fn codes_have_3_or_4_digits_and_billing_needs_names_and_zip() {
        assert!(validate(input("4111111111111111", "1228", "1234"), today()).is_ok());
        assert_eq!(
            msg(validate(input("4111111111111111", "1228", "12"), today())),
            INVALID_CODE
        );
        assert_eq!(
            msg(validate(input("4111111111111111", "1228", "12345"), today())),
            INVALID_CODE
        );
        let mut no_zip = input("4111111111111111", "1228", "123");
        no_zip.billing.zip = " ".into();
        assert_eq!(msg(validate(no_zip, today())), MISSING_BILLING);
    }
}
