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

/// `t` on the wall clock of `zone` by `format` (strftime), followed by the zone's abbreviation
/// and name: "Mar 05, 2027 09:30 EST (America/New_York)". An unknown zone reads as UTC.
pub fn local_time(t: chrono::DateTime<chrono::Utc>, zone: &str, format: &str) -> String {
    let tz = jiff::tz::TimeZone::get(zone).unwrap_or(jiff::tz::TimeZone::UTC);
    let name = tz.iana_name().unwrap_or(DEFAULT_TIME_ZONE).to_string();
    let Ok(ts) = jiff::Timestamp::new(t.timestamp(), 0) else {
        return t.format(format).to_string();
    };
    let zoned = ts.to_zoned(tz);
    let clock = zoned.strftime(format).to_string();
    let abbreviation = zoned.strftime("%Z").to_string();
    if name == DEFAULT_TIME_ZONE || abbreviation == name {
        format!("{clock} {name}")
    } else {
        format!("{clock} {abbreviation} ({name})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_times_name_their_zone() {
        let t = chrono::DateTime::parse_from_rfc3339("2027-03-05T14:30:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(local_time(t, "UTC", "%b %d, %Y %H:%M"), "Mar 05, 2027 14:30 UTC");
        assert_eq!(
            local_time(t, "America/New_York", "%b %d, %Y %H:%M"),
            "Mar 05, 2027 09:30 EST (America/New_York)"
        );
        assert_eq!(
            local_time(t, "Asia/Kolkata", "%A %b %d, %Y at %H:%M"),
            "Friday Mar 05, 2027 at 20:00 IST (Asia/Kolkata)"
        );
        assert_eq!(local_time(t, "Nowhere/Special", "%H:%M"), "14:30 UTC");
    }

    #[test]
    fn accepts_iana_names_only() {
        assert_eq!(validate("Europe/London").unwrap(), "Europe/London");
        assert_eq!(validate("Asia/Kolkata").unwrap(), "Asia/Kolkata");
        assert!(validate("UTC").is_ok());
        assert!(validate("Mars/Olympus").is_err());
        assert!(validate("").is_err());
    }
}
