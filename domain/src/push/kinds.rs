//! What is pushed: each kind with the preference that allows it, how long a push service keeps
//! it for a browser that is offline (`TTL`) and how urgently it delivers it (`Urgency`).
//!
//! Adding a kind is one step here: a variant of [`PushKind`] and its line in [`PushKind::rules`].
//! A kind that follows an in-app notification also gets its line in
//! `notifications::Kind::push` (which notification pushes as which kind); a kind with a cause of
//! its own (a call) queues its pushes with [`super::queue_to_user`]. docs/push.md lists them.

/// A family of pushes a user turns on or off (`GET/PUT /api/user/push-preferences`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preference {
    Calls,
    Messages,
    Bookings,
    Reminders,
    GroupSessions,
}

impl Preference {
    /// The column of `push_preferences` (and the field of the API object, in camelCase).
    pub fn column(self) -> &'static str {
        match self {
            Preference::Calls => "calls",
            Preference::Messages => "messages",
            Preference::Bookings => "bookings",
            Preference::Reminders => "reminders",
            Preference::GroupSessions => "group_sessions",
        }
    }
}

/// RFC 8030's `Urgency` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    Normal,
    High,
}

impl Urgency {
    pub fn as_str(self) -> &'static str {
        match self {
            Urgency::Normal => "normal",
            Urgency::High => "high",
        }
    }
}

/// How one kind is pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub preference: Preference,
    /// Seconds a push service keeps the push for a browser that is not reachable.
    pub ttl: u32,
    pub urgency: Urgency,
    /// Pushed only to a user with no connected socket (an open tab hears it live).
    pub only_when_away: bool,
}

/// A ring is worth nothing once the call stopped ringing: never shown after this.
pub const CALL_TTL_SECONDS: u32 = 30;
/// The push that takes a ring away must outlive every ring it may replace.
pub const CALL_ENDED_TTL_SECONDS: u32 = 60;
pub const ONE_DAY_SECONDS: u32 = 86_400;
/// A reminder one hour before the start is stale once the session started.
pub const REMINDER_TTL_SECONDS: u32 = 3_600;
/// "Starting now" matters while the session is on.
pub const GROUP_STARTED_TTL_SECONDS: u32 = 3_600;
/// A reading request is answered within 60 seconds or expires (`readings::REQUEST_TTL`).
pub const READING_REQUEST_TTL_SECONDS: u32 = 60;

closed_set! {
    /// The `kind` of a push's payload; travels in queued push tasks: never rename one.
    pub enum PushKind ("push kind") {
        IncomingCall = "incoming_call",
        CallEnded = "call_ended",
        NewMessage = "new_message",
        BookingConfirmed = "booking_confirmed",
        BookingCancelled = "booking_cancelled",
        BookingRescheduled = "booking_rescheduled",
        SessionReminder = "session_reminder",
        GroupSessionStarted = "group_session_started",
        /// A seeker asks the mentor for an instant reading now (issue 36).
        ReadingRequested = "reading_requested",
    }
}

impl PushKind {
    /// The one table of how each kind is pushed.
    pub fn rules(self) -> Rules {
        use {Preference::*, Urgency::*};
        let (preference, ttl, urgency) = match self {
            PushKind::IncomingCall => (Calls, CALL_TTL_SECONDS, High),
            PushKind::CallEnded => (Calls, CALL_ENDED_TTL_SECONDS, High),
            PushKind::NewMessage => (Messages, ONE_DAY_SECONDS, Normal),
            PushKind::BookingConfirmed | PushKind::BookingCancelled | PushKind::BookingRescheduled => {
                (Bookings, ONE_DAY_SECONDS, Normal)
            }
            PushKind::SessionReminder => (Reminders, REMINDER_TTL_SECONDS, High),
            PushKind::GroupSessionStarted => (GroupSessions, GROUP_STARTED_TTL_SECONDS, High),
            PushKind::ReadingRequested => (Calls, READING_REQUEST_TTL_SECONDS, High),
        };
        Rules {
            preference,
            ttl,
            urgency,
            only_when_away: self == PushKind::NewMessage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_lives_30_seconds_and_rings_urgently() {
        let ring = PushKind::IncomingCall.rules();
        assert_eq!(
            (ring.ttl, ring.urgency, ring.preference),
            (30, Urgency::High, Preference::Calls)
        );
        let ended = PushKind::CallEnded.rules();
        assert!(ended.ttl >= ring.ttl, "the replacement outlives the ring");
        assert_eq!(ended.preference, Preference::Calls);
    }

    #[test]
    fn a_reading_request_rings_like_a_call_for_its_sixty_seconds() {
        let r = PushKind::ReadingRequested.rules();
        assert_eq!((r.ttl, r.urgency, r.preference), (60, Urgency::High, Preference::Calls));
    }

    #[test]
    fn a_message_waits_a_day_at_normal_urgency() {
        let m = PushKind::NewMessage.rules();
        assert_eq!(
            (m.ttl, m.urgency, m.preference),
            (86_400, Urgency::Normal, Preference::Messages)
        );
    }

    #[test]
    fn every_kind_follows_its_family() {
        for (kind, family) in [
            (PushKind::BookingConfirmed, Preference::Bookings),
            (PushKind::BookingCancelled, Preference::Bookings),
            (PushKind::BookingRescheduled, Preference::Bookings),
            (PushKind::SessionReminder, Preference::Reminders),
            (PushKind::GroupSessionStarted, Preference::GroupSessions),
            (PushKind::ReadingRequested, Preference::Calls),
        ] {
            assert_eq!(kind.rules().preference, family, "{kind}");
        }
        assert_eq!(PushKind::ALL.len(), 9);
    }
}
