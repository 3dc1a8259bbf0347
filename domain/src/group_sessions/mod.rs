//! Group sessions: a mentor schedules a session of one of their group services; seekers take
//! seats, which are bookings pointing at the session (`bookings.group_session_id`), so payment,
//! refunds, reminders, completion and payouts work per seat as for one-to-one bookings.
//!
//! The database decides races: `group_sessions_capacity` (seats taken never above the maximum),
//! `bookings_one_seat_per_seeker`, and `mentor_busy_no_overlap` (a mentor's one-to-one bookings
//! and group sessions never overlap).

pub mod jobs;
pub mod lifecycle;
pub mod seats;
pub mod sessions;
pub mod status;

pub use sessions::GroupSession;
pub use status::GroupStatus;

use chrono::Duration;

/// Group size bounds and the default of the Create Group Session dialog.
pub const MIN_PARTICIPANTS: i32 = 2;
pub const MAX_PARTICIPANTS: i32 = 20;
pub const DEFAULT_PARTICIPANTS: i32 = 4;
/// A paid seat is held this long for payment (the one-to-one hold).
pub const SEAT_HOLD: Duration = Duration::minutes(crate::booking::reservations::HOLD_MINUTES);
/// Participants are reminded this long before the start (the booking reminders).
pub const REMINDERS_BEFORE: [Duration; 2] = [Duration::hours(24), Duration::hours(1)];

pub const NOT_FOUND: &str = "Failed to load group session";
pub const SESSION_FULL: &str = "Session Full - This group session is already at capacity.";
pub const NOT_OPEN: &str = "This group session is no longer open for joining";
pub const OWN_SESSION: &str = "You cannot join your own group session";
/// The mentor removed the seeker from this session's call: no seat and no call again.
pub const REMOVED: &str = "You were removed from this session";
pub const NO_SERVICE: &str = "Please select a service";
pub const NOT_A_GROUP_SERVICE: &str = "Please select one of your active group services";
pub const NO_TITLE: &str = "Title is required";
pub const TITLE_TOO_LONG: &str = "Title must be at most 200 characters";
pub const DESCRIPTION_TOO_LONG: &str = "Description must be at most 2000 characters";
pub const NO_TIME: &str = "Please select a date and time";
pub const IN_THE_PAST: &str = "The session must be scheduled in the future";
pub const TOO_FAR_AHEAD: &str = "The session must be scheduled within the next 90 days";
pub const BAD_SIZE: &str = "Max participants must be between 2 and 20";
pub const TIME_TAKEN: &str = "You already have a booking or group session at this time";

/// The participant limit of a new session: the default when not sent, else 2 to 20.
pub fn max_participants(raw: Option<i64>) -> crate::Result<i32> {
    match raw {
        None => Ok(DEFAULT_PARTICIPANTS),
        Some(n) if (MIN_PARTICIPANTS as i64..=MAX_PARTICIPANTS as i64).contains(&n) => Ok(n as i32),
        Some(_) => Err(crate::Error::validation(BAD_SIZE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_size_is_two_to_twenty_with_four_by_default() {
        assert_eq!(max_participants(None).unwrap(), 4);
        assert_eq!(max_participants(Some(2)).unwrap(), 2);
        assert_eq!(max_participants(Some(20)).unwrap(), 20);
        assert_eq!(max_participants(Some(1)).unwrap_err().to_string(), BAD_SIZE);
        assert_eq!(max_participants(Some(21)).unwrap_err().to_string(), BAD_SIZE);
    }

    #[test]
    fn the_too_far_ahead_message_names_the_booking_window() {
        let days = crate::booking::slot_arithmetic::BOOKING_WINDOW_DAYS;
        assert!(
            TOO_FAR_AHEAD.contains(&format!("{days} days")),
            "the message names the window"
        );
    }

    #[test]
    fn seats_are_reminded_when_bookings_are() {
        let booking: Vec<Duration> = crate::booking::reminders::REMINDERS.iter().map(|r| r.before).collect();
        assert_eq!(booking, REMINDERS_BEFORE, "seats are reminded by the booking reminders");
    }
}
