//! What a notification is about: its `type`, stored in rows and queued tasks.

use crate::push::PushKind;

closed_set! {
    /// Stored in queued tasks and in `notifications.type` as its `as_str` name: never rename one.
    #[cfg_attr(feature = "openapi", oai(rename = "NotificationKind"))]
    pub enum Kind ("notification kind") {
        BookingConfirmed = "booking_confirmed",
        BookingCancelled = "booking_cancelled",
        BookingRescheduled = "booking_rescheduled",
        BookingReminder = "booking_reminder",
        NewMessage = "new_message",
        NewReview = "new_review",
        MentorApproved = "mentor_approved",
        PaymentReceived = "payment_received",
        PaymentFailed = "payment_failed",
        SystemAnnouncement = "system_announcement",
        PayoutDestinationChanged = "payout_destination_changed",
        /// The mentor removed the participant from a group session's call.
        RemovedFromSession = "removed_from_session",
        /// An administrator turned the mentor's profile down (the message gives the reason).
        MentorRejected = "mentor_rejected",
        /// A seeker reported a problem with one of the mentor's sessions.
        ComplaintOpened = "complaint_opened",
        /// The mentor answered the seeker's complaint.
        ComplaintAnswered = "complaint_answered",
        /// A complaint was decided (both parties hear the outcome and the amount).
        ComplaintDecided = "complaint_decided",
        /// Money went back to the seeker's card.
        RefundIssued = "refund_issued",
        /// The mentor replied to the seeker's review.
        ReviewReply = "review_reply",
        /// The mentor's own calendar cannot be read (once per failure streak).
        CalendarFailing = "calendar_failing",
        /// The user's copy of their data is ready to download.
        DataExportReady = "data_export_ready",
    }
}

impl Kind {
    /// The Web Push a notification of this kind sends by default (`None`: in-app only). Adding a
    /// push for a kind of notification is one line here (and its kind in `push::PushKind`);
    /// a fan-out may still say otherwise (`FanOut::pushed_as`: the one-hour reminder, a group
    /// session going live).
    pub fn push(self) -> Option<PushKind> {
        match self {
            Kind::BookingConfirmed | Kind::PaymentReceived => Some(PushKind::BookingConfirmed),
            Kind::BookingCancelled => Some(PushKind::BookingCancelled),
            Kind::BookingRescheduled => Some(PushKind::BookingRescheduled),
            Kind::NewMessage => Some(PushKind::NewMessage),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booking_changes_and_messages_push_by_default() {
        assert_eq!(Kind::BookingConfirmed.push(), Some(PushKind::BookingConfirmed));
        assert_eq!(Kind::NewMessage.push(), Some(PushKind::NewMessage));
        // Only the one-hour reminder pushes, and says so itself.
        assert_eq!(Kind::BookingReminder.push(), None);
        assert_eq!(Kind::NewReview.push(), None);
    }

    #[test]
    fn kinds_travel_under_their_stored_names() {
        for &kind in Kind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            assert_eq!(serde_json::from_value::<Kind>(kind.as_str().into()).unwrap(), kind);
        }
    }
}
