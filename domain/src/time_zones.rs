//! IANA time zones (the tz database is bundled with jiff, so every host agrees on DST rules).

use crate::{Error, Result};

pub const DEFAULT_TIME_ZONE: &str = "UTC";
pub const INVALID_TIME_ZONE: &str = "Please choose a valid time zone";

/// Returns the zone's canonical spelling, or the spec's error.
pub fn validate(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() || name.len() > 64 {
        return Err(Error::validation(INVALID_TIME_ZONE));
    }
    match jiff::tz::TimeZone::get(name) {
        Ok(tz) => Ok(tz.iana_name().unwrap_or(name).to_string()),
        Err(_) => Err(Error::validation(INVALID_TIME_ZONE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_iana_names_only() {
        assert_eq!(validate("Europe/London").unwrap(), "Europe/London");
        assert_eq!(validate("Asia/Kolkata").unwrap(), "Asia/Kolkata");
        assert!(validate("UTC").is_ok());
        assert!(validate("Mars/Olympus").is_err());
        assert!(validate("").is_err());
    }
}
