//! The mentor's scheduling settings as a profile stores them: buffers around sessions and a cap of
//! sessions per local day (issue 33 §5). `booking::day_limits` applies them to slots and reservations.

use crate::{Error, Result};

/// Each buffer is at most two hours.
pub const MAX_BUFFER_MINUTES: i64 = 120;
/// At most 50 sessions a day can be the cap; 0 removes it.
pub const MAX_BOOKINGS_PER_DAY: i64 = 50;
pub const INVALID_BUFFER: &str = "Buffers must be a whole number of minutes from 0 to 120";
pub const INVALID_DAILY_CAP: &str = "Maximum bookings per day must be a whole number from 1 to 50, or 0 for no limit";
pub fn buffer(minutes: i64) -> Result<i32> {
    if (0..=MAX_BUFFER_MINUTES).contains(&minutes) {
        Ok(minutes as i32)
    } else {
        Err(Error::validation(INVALID_BUFFER))
    }
}

/// `0` is no cap (`None`); otherwise 1 to 50.
pub fn daily_cap(n: i64) -> Result<Option<i32>> {
    match n {
        0 => Ok(None),
        1..=MAX_BOOKINGS_PER_DAY => Ok(Some(n as i32)),
        _ => Err(Error::validation(INVALID_DAILY_CAP)),
    }
}
