//! The one way mail, notifications and receipts write a time: the spec's dates (`MMM dd, yyyy`)
//! and 12-hour clock (`h:mm a`, '4:00 PM'), as the web does (`web/src/lib/format.ts` has the same
//! named formats). Text made on the server is read later and anywhere, so a time on the reader's
//! clock is followed by its zone's abbreviation ('9:30 AM EST'); a zone without one reads as its
//! offset ('UTC+04').

use chrono::{DateTime, Utc};

/// The named formats, the same names and outputs as the web's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// '9:30 AM'
    Time,
    /// 'Mar 05, 2027'
    Date,
    /// 'Mar 05, 2027 9:30 AM'
    DateTime,
    /// 'Friday, Mar 05, 2027 9:30 AM'
    WeekdayDateTime,
    /// 'Mar 05' (a subject line's date; no clock, so no zone)
    ShortDate,
}

impl Format {
    /// The strftime pattern (jiff's, which has `%-I`: no leading zero on the hour).
    pub const fn pattern(self) -> &'static str {
        match self {
            Format::Time => "%-I:%M %p",
            Format::Date => "%b %d, %Y",
            Format::DateTime => "%b %d, %Y %-I:%M %p",
            Format::WeekdayDateTime => "%A, %b %d, %Y %-I:%M %p",
            Format::ShortDate => "%b %d",
        }
    }

    /// Whether the text shows a clock, and so names its zone.
    const fn has_clock(self) -> bool {
        !matches!(self, Format::Date | Format::ShortDate)
    }
}

fn zoned(t: DateTime<Utc>, zone: &str) -> jiff::Zoned {
    let tz = jiff::tz::TimeZone::get(zone).unwrap_or(jiff::tz::TimeZone::UTC);
    let ts = jiff::Timestamp::from_second(t.timestamp()).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    ts.to_zoned(tz)
}

/// The zone's abbreviation at `t` ('EST', 'CET', 'UTC'), or its offset where the tz database has
/// no abbreviation ('UTC+04').
pub fn zone_abbreviation(t: DateTime<Utc>, zone: &str) -> String {
    let abbreviation = zoned(t, zone).strftime("%Z").to_string();
    if abbreviation.starts_with(['+', '-']) {
        format!("UTC{abbreviation}")
    } else {
        abbreviation
    }
}

/// `t` on the wall clock of `zone` (an unknown zone reads as UTC), followed by the zone's
/// abbreviation when the format shows a clock: 'Friday, Mar 05, 2027 9:30 AM EST'.
pub fn in_zone(t: DateTime<Utc>, zone: &str, format: Format) -> String {
    let text = zoned(t, zone).strftime(format.pattern()).to_string();
    if format.has_clock() {
        format!("{text} {}", zone_abbreviation(t, zone))
    } else {
        text
    }
}

/// `t` in UTC (receipts, which are not addressed to one reader's clock): 'Mar 05, 2027 2:30 PM UTC'.
pub fn utc(t: DateTime<Utc>, format: Format) -> String {
    in_zone(t, "UTC", format)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    #[test]
    fn named_formats_use_the_specs_twelve_hour_clock() {
        let t = at("2027-03-05T14:30:00Z");
        assert_eq!(in_zone(t, "UTC", Format::Time), "2:30 PM UTC");
        assert_eq!(in_zone(t, "UTC", Format::Date), "Mar 05, 2027");
        assert_eq!(in_zone(t, "UTC", Format::DateTime), "Mar 05, 2027 2:30 PM UTC");
        assert_eq!(
            in_zone(t, "UTC", Format::WeekdayDateTime),
            "Friday, Mar 05, 2027 2:30 PM UTC"
        );
        assert_eq!(in_zone(t, "UTC", Format::ShortDate), "Mar 05");
        assert_eq!(utc(at("2027-03-05T00:05:00Z"), Format::Time), "12:05 AM UTC");
        assert_eq!(utc(at("2027-03-05T12:00:00Z"), Format::Time), "12:00 PM UTC");
    }

    #[test]
    fn times_are_on_the_readers_clock_with_the_zones_abbreviation() {
        let t = at("2027-03-05T14:30:00Z");
        assert_eq!(
            in_zone(t, "America/New_York", Format::DateTime),
            "Mar 05, 2027 9:30 AM EST"
        );
        assert_eq!(in_zone(t, "Europe/Paris", Format::Time), "3:30 PM CET");
        assert_eq!(in_zone(t, "Asia/Kolkata", Format::Time), "8:00 PM IST");
        // Summer time has its own abbreviation.
        assert_eq!(
            in_zone(at("2027-07-05T14:30:00Z"), "America/New_York", Format::Time),
            "10:30 AM EDT"
        );
        // A zone without an abbreviation shows its offset; an unknown zone reads as UTC.
        assert_eq!(in_zone(t, "Asia/Dubai", Format::Time), "6:30 PM UTC+04");
        assert_eq!(in_zone(t, "Nowhere/Special", Format::Time), "2:30 PM UTC");
        // The date is the reader's: late in New York is the next day in Tokyo.
        let late = at("2027-03-06T02:00:00Z");
        assert_eq!(in_zone(late, "America/New_York", Format::Date), "Mar 05, 2027");
        assert_eq!(in_zone(late, "Asia/Tokyo", Format::ShortDate), "Mar 06");
    }
}
