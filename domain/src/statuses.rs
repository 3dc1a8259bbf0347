//! The states of bookings and group sessions, in a module of their own that imports nothing of the
//! domain, so that every area (the catalogue's figures, booking's slots, the admin's lists) can bind
//! them in SQL without reaching into `booking` or `group_sessions`, which depend on each other's
//! users. `booking::BookingStatus` and `group_sessions::GroupStatus` are these.
//!
//! A paid service is first held ('reserved', until the hold expires, then 'expired'); a booking is
//! 'pending' or 'confirmed' while it is live, then 'completed' or 'cancelled'. Stored as text; a new
//! state added here makes the compiler find every `match`.

closed_set! {
    /// The state of a booking (a hold is 'reserved' until paid or 'expired').
    #[cfg_attr(feature = "openapi", oai(rename = "BookingStatusView"))]
    pub enum BookingStatus ("booking status") {
        Reserved = "reserved",
        Pending = "pending",
        Confirmed = "confirmed",
        Completed = "completed",
        Cancelled = "cancelled",
        Expired = "expired",
    }
}

impl BookingStatus {
    /// Made bookings: what lists, counts and totals show (holds, paid or lapsed, are not yet bookings).
    pub const MADE: &'static [Self] = &[Self::Pending, Self::Confirmed, Self::Completed, Self::Cancelled];
    /// Still to take place.
    pub const LIVE: &'static [Self] = &[Self::Pending, Self::Confirmed];
    /// Made and not cancelled: a session that is, or was, going ahead.
    pub const GOING_AHEAD: &'static [Self] = &[Self::Pending, Self::Confirmed, Self::Completed];
    /// Holding its time: no other booking may overlap one of these.
    pub const HOLDING_TIME: &'static [Self] = &[Self::Reserved, Self::Pending, Self::Confirmed];
    /// A paid seat that admits its holder to a group call.
    pub const ADMITTED: &'static [Self] = &[Self::Confirmed, Self::Completed];

    /// Pending or confirmed: the session is still to take place.
    pub fn is_live(self) -> bool {
        matches!(self, Self::Pending | Self::Confirmed)
    }

    /// A hold, paid or lapsed: not yet (or never) a booking.
    pub fn is_hold(self) -> bool {
        matches!(self, Self::Reserved | Self::Expired)
    }
}

closed_set! {
    /// The state of a group session.
    #[derive(::schemars::JsonSchema)]
    pub enum GroupStatus ("group session status") {
        Scheduled = "scheduled",
        Active = "active",
        Completed = "completed",
        Cancelled = "cancelled",
    }
}

impl GroupStatus {
    /// Scheduled or active ([`is_open`](Self::is_open)), as a set for SQL to bind.
    pub const HOLDING_TIME: &'static [Self] = &[Self::Scheduled, Self::Active];

    /// Scheduled or active: seats can be taken and the mentor's time is busy.
    pub fn is_open(self) -> bool {
        matches!(self, Self::Scheduled | Self::Active)
    }
}

closed_set! {
    /// The state of a complaint: open until decided; resolved with a refund, rejected without one.
    pub enum ComplaintStatus ("complaint status") {
        Open = "open",
        Resolved = "resolved",
        Rejected = "rejected",
    }
}

closed_set! {
    /// What went wrong, as the seeker says.
    #[cfg_attr(feature = "openapi", oai(rename = "ComplaintReason"))]
    pub enum ComplaintReason ("complaint reason") {
        MentorNoShow = "mentor_no_show",
        TechnicalProblem = "technical_problem",
        NotAsDescribed = "not_as_described",
        Other = "other",
    }
}

closed_set! {
    /// An admin's decision on a complaint.
    #[cfg_attr(feature = "openapi", oai(rename = "ComplaintOutcome"))]
    pub enum Outcome ("complaint outcome") {
        FullRefund = "full_refund",
        PartialRefund = "partial_refund",
        NoRefund = "no_refund",
    }
}

closed_set! {
    /// Why a mentor removed a participant from a group session's call, which decides the money:
    /// `conduct` keeps the seat paid (it completes with the session, and the mentor is paid);
    /// `other` cancels the seat and refunds it in full (a `removed_by_mentor` refund).
    #[derive(::schemars::JsonSchema)]
    pub enum RemovalReason ("removal reason") {
        Conduct = "conduct",
        Other = "other",
    }
}

impl RemovalReason {
    /// Whether the seat is refunded in full.
    pub fn refunds(self) -> bool {
        self == Self::Other
    }
}

closed_set! {
    /// Where a reading is: waiting for the mentor, metered, or over (and how).
    #[cfg_attr(feature = "openapi", oai(rename = "ReadingStatus"))]
    pub enum ReadingStatus ("reading status") {
        Requested = "requested",
        Active = "active",
        Ended = "ended",
        Expired = "expired",
        Declined = "declined",
    }
}

closed_set! {
    /// Why a reading ended: a party ended it, or the balance ran out.
    #[cfg_attr(feature = "openapi", oai(rename = "ReadingEndReason"))]
    pub enum EndReason ("reading end reason") {
        Seeker = "seeker",
        Mentor = "mentor",
        Balance = "balance",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &s in BookingStatus::ALL {
            assert_eq!(s.as_str().parse::<BookingStatus>().unwrap(), s);
            assert_eq!(serde_json::to_value(s).unwrap(), serde_json::json!(s.as_str()));
        }
        assert!("held".parse::<BookingStatus>().is_err());
        assert!(BookingStatus::Confirmed.is_live() && !BookingStatus::Completed.is_live());
    }
}
