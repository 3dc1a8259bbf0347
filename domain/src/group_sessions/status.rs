//! The states of a group session and the moves between them.
//!
//! scheduled -> active (the mentor starts it in its call window, from [`OPENS_BEFORE`] before the
//! start, or the worker at the start),
//! scheduled -> cancelled (the mentor, outside the live window), active -> completed (the mentor
//! ends it), scheduled | active -> completed (the worker at start + duration). Anything else is
//! a conflict.

use chrono::{DateTime, Duration, Utc};

pub use crate::statuses::GroupStatus;

/// A group call opens this long before the start, as a one-to-one video session does: the mentor
/// and the seated participants wait in the room, and the mentor may start the session.
pub const OPENS_BEFORE: Duration = crate::booking::video::OPENS_BEFORE;

/// The live window: the start reached, start + duration not.
pub fn in_live_window(start: DateTime<Utc>, end: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    start <= now && now < end
}

/// The call window: from [`OPENS_BEFORE`] before the start until the end.
pub fn in_call_window(start: DateTime<Utc>, end: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    start - OPENS_BEFORE <= now && now < end
}

/// Whether the mentor may move a session from `from` to `to` at `now`.
pub fn mentor_may(
    from: GroupStatus,
    to: GroupStatus,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    now: DateTime<Utc>,
) -> bool {
    use GroupStatus::*;
    match (from, to) {
        (Scheduled, Active) => in_call_window(start, end, now),
        (Scheduled, Cancelled) => !in_live_window(start, end, now),
        (Active, Completed) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GroupStatus::*;

    #[test]
    fn names_round_trip() {
        for &s in GroupStatus::ALL {
            assert_eq!(s.as_str().parse::<GroupStatus>().unwrap(), s);
        }
        assert!("live".parse::<GroupStatus>().is_err());
    }

    #[test]
    fn the_mentors_moves_follow_the_live_window() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let end = start + chrono::Duration::minutes(60);
        let before = start - chrono::Duration::seconds(1);
        let during = start;
        let after = end;
        assert!(mentor_may(Scheduled, Active, start, end, during));
        // Up to 15 minutes early, not a second more.
        assert!(mentor_may(Scheduled, Active, start, end, start - OPENS_BEFORE));
        assert!(mentor_may(Scheduled, Active, start, end, before));
        assert!(!mentor_may(
            Scheduled,
            Active,
            start,
            end,
            start - OPENS_BEFORE - chrono::Duration::seconds(1)
        ));
        assert!(!mentor_may(Scheduled, Active, start, end, after));
        assert!(mentor_may(Scheduled, Cancelled, start, end, before));
        assert!(!mentor_may(Scheduled, Cancelled, start, end, during));
        assert!(mentor_may(Active, Completed, start, end, during));
        assert_eq!(OPENS_BEFORE, chrono::Duration::minutes(15));
        for (from, to) in [
            (Scheduled, Completed),
            (Active, Cancelled),
            (Completed, Active),
            (Cancelled, Scheduled),
            (Active, Scheduled),
            (Completed, Cancelled),
        ] {
            assert!(!mentor_may(from, to, start, end, during), "{from} -> {to}");
            assert!(!mentor_may(from, to, start, end, before), "{from} -> {to}");
        }
    }
}
