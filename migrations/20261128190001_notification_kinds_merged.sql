-- Issues 33 and 35 each rewrote the notification kinds' CHECK from the list they knew: the later one
-- (account ownership) left out 'calendar_failing'. The list is every kind of `notifications::Kind`.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('booking_confirmed',
    'booking_cancelled', 'booking_rescheduled', 'booking_reminder', 'new_message', 'new_review', 'mentor_approved',
    'payment_received', 'payment_failed', 'system_announcement', 'payout_destination_changed', 'mentor_rejected',
    'removed_from_session', 'complaint_opened', 'complaint_answered', 'complaint_decided', 'refund_issued',
    'review_reply', 'calendar_failing', 'data_export_ready'));
