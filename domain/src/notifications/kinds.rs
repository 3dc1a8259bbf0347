//! What a notification is about: its `type`, stored in rows and queued tasks.

use serde::{Deserialize, Serialize};

/// Stored in queued tasks as its `as_str` name: never rename one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    BookingConfirmed,
    BookingCancelled,
    BookingRescheduled,
    BookingReminder,
    NewMessage,
    NewReview,
    MentorApproved,
    PaymentReceived,
    PaymentFailed,
    SystemAnnouncement,
    PayoutDestinationChanged,
    /// The mentor removed the participant from a group session's call.
    RemovedFromSession,
    /// An administrator turned the mentor's profile down (the message gives the reason).
    MentorRejected,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::BookingConfirmed => "booking_confirmed",
            Kind::BookingCancelled => "booking_cancelled",
            Kind::BookingRescheduled => "booking_rescheduled",
            Kind::BookingReminder => "booking_reminder",
            Kind::NewMessage => "new_message",
            Kind::NewReview => "new_review",
            Kind::MentorApproved => "mentor_approved",
            Kind::PaymentReceived => "payment_received",
            Kind::PaymentFailed => "payment_failed",
            Kind::SystemAnnouncement => "system_announcement",
            Kind::PayoutDestinationChanged => "payout_destination_changed",
            Kind::RemovedFromSession => "removed_from_session",
            Kind::MentorRejected => "mentor_rejected",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [Kind; 12] = [
        Kind::BookingConfirmed,
        Kind::BookingCancelled,
        Kind::BookingRescheduled,
        Kind::BookingReminder,
        Kind::NewMessage,
        Kind::NewReview,
        Kind::MentorApproved,
        Kind::PaymentReceived,
        Kind::PaymentFailed,
        Kind::SystemAnnouncement,
        Kind::PayoutDestinationChanged,
        Kind::MentorRejected,
    ];

    #[test]
    fn kinds_travel_under_their_stored_names() {
        for kind in KINDS {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            assert_eq!(serde_json::from_value::<Kind>(kind.as_str().into()).unwrap(), kind);
        }
    }
}
