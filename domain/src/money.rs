//! Money is integer cents inside and a decimal string with two places at the edges ("50.00"); the
//! states a payment and a refund move through are here too, so every area can bind them.

use crate::{Error, Result};

closed_set! {
    /// A payment attempt is 'processing' until the gateway's answer settles it, once.
    pub enum PaymentStatus ("payment status") {
        Processing = "processing",
        Approved = "approved",
        Declined = "declined",
        Error = "error",
    }
}

closed_set! {
    /// A refund is 'pending' until the gateway pays it back (or it fails); a booking that was
    /// never charged records 'not_needed'.
    pub enum RefundStatus ("refund status") {
        Pending = "pending",
        Succeeded = "succeeded",
        Failed = "failed",
        NotNeeded = "not_needed",
    }
}

closed_set! {
    /// Why a refund is owed: a cancelled booking (the 0/50/100 tiers, once per booking), a charge that
    /// settled after its hold had gone, a complaint an admin decided, a mentor who did not turn up, an
    /// admin's goodwill, or a group seat the mentor removed for a reason other than conduct.
    pub enum RefundReason ("refund reason") {
        Cancellation = "cancellation",
        Reversal = "reversal",
        Complaint = "complaint",
        NoShow = "no_show",
        Goodwill = "goodwill",
        RemovedByMentor = "removed_by_mentor",
    }
}

/// The highest price any service or profile may ask: $100,000.00.
pub const MAX_PRICE_CENTS: i64 = 10_000_000;

/// Parses "50", "50.5", "50.50" (a JSON number's text works too) into cents.
/// `message` is the error text for anything that is not a non-negative amount.
pub fn parse(raw: &str, message: &str) -> Result<i64> {
    let invalid = || Error::validation(message);
    let raw = raw.trim();
    let (whole, frac) = raw.split_once('.').unwrap_or((raw, ""));
    if whole.is_empty() && frac.is_empty() {
        return Err(invalid());
    }
    if !whole.chars().all(|c| c.is_ascii_digit()) || !frac.chars().all(|c| c.is_ascii_digit()) || frac.len() > 2 {
        return Err(invalid());
    }
    if whole.len() > 9 {
        return Err(invalid());
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| invalid())?
    };
    let frac: i64 = format!("{frac:0<2}").parse().map_err(|_| invalid())?;
    let cents = whole * 100 + frac;
    if cents > MAX_PRICE_CENTS {
        return Err(invalid());
    }
    Ok(cents)
}

pub fn format(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decimal_strings_into_cents() {
        assert_eq!(parse("50", "x").unwrap(), 5000);
        assert_eq!(parse("50.5", "x").unwrap(), 5050);
        assert_eq!(parse(" 0.00 ", "x").unwrap(), 0);
        assert_eq!(parse("19.99", "x").unwrap(), 1999);
        assert_eq!(parse(".5", "x").unwrap(), 50);
        assert_eq!(parse("100000.00", "x").unwrap(), MAX_PRICE_CENTS);
    }

    #[test]
    fn refuses_what_is_not_an_amount() {
        for bad in ["", "-1", "abc", "1.234", "1e3", "1,50", "100000.01", "12345678901", "."] {
            assert_eq!(
                parse(bad, "Price must be a valid amount").unwrap_err().to_string(),
                "Price must be a valid amount",
                "{bad}"
            );
        }
    }

    #[test]
    fn formats_with_two_places() {
        assert_eq!(format(0), "0.00");
        assert_eq!(format(5), "0.05");
        assert_eq!(format(5000), "50.00");
        assert_eq!(format(-150), "-1.50");
    }
}
