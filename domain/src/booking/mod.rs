//! Booking: weekly availability, offered slots, holds, bookings and their reviews.

pub mod bookings;
pub mod calendar_busy;
pub mod completion;
pub mod dashboards;
pub mod date_overrides;
pub mod day_limits;
pub mod jobs;
pub mod lifecycle;
pub mod notices;
pub mod open_slots;
pub mod refunds;
pub mod reminders;
pub mod reservations;
pub mod reviews;
pub mod slot_arithmetic;
pub mod video;
pub mod weekly_windows;

/// A slot that another booking, a hold or a rule took meanwhile (reservations, reschedules, limits).
pub const SLOT_TAKEN: &str = "This time is no longer available";

pub use crate::statuses::BookingStatus;

/// chrono at the database edge, jiff for time-zone arithmetic.
pub fn to_jiff(t: chrono::DateTime<chrono::Utc>) -> jiff::Timestamp {
    jiff::Timestamp::new(t.timestamp(), t.timestamp_subsec_nanos() as i32).expect("in range")
}

pub fn to_chrono(t: jiff::Timestamp) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(t.as_second(), t.subsec_nanosecond() as u32).expect("in range")
}
