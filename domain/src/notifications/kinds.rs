//! What a notification is about: its `type`, stored in rows and queued tasks.

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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_travel_under_their_stored_names() {
        for &kind in Kind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            assert_eq!(serde_json::from_value::<Kind>(kind.as_str().into()).unwrap(), kind);
        }
    }
}
