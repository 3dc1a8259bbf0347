//! When a booking's video session can be started.

use chrono::{DateTime, Duration, Utc};

use super::BookingStatus;

/// The call opens this long before the start and closes at start plus the duration.
pub const OPENS_BEFORE: Duration = Duration::minutes(15);

pub fn is_open(status: BookingStatus, start: DateTime<Utc>, duration_minutes: i32, now: DateTime<Utc>) -> bool {
    status == BookingStatus::Confirmed
        && now >= start - OPENS_BEFORE
        && now <= start + Duration::minutes(duration_minutes as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_opens_15_minutes_before_and_closes_at_the_end() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let s = Duration::seconds(1);
        assert!(!is_open(BookingStatus::Confirmed, start, 60, start - OPENS_BEFORE - s));
        assert!(is_open(BookingStatus::Confirmed, start, 60, start - OPENS_BEFORE));
        assert!(is_open(
            BookingStatus::Confirmed,
            start,
            60,
            start + Duration::minutes(60)
        ));
        assert!(!is_open(
            BookingStatus::Confirmed,
            start,
            60,
            start + Duration::minutes(60) + s
        ));
        assert!(!is_open(BookingStatus::Pending, start, 60, start));
    }
}
