-- A participant the mentor removes from a group session's call is told so (notification kind
-- removed_from_session), beside every kind before it.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('booking_confirmed',
    'booking_cancelled', 'booking_rescheduled', 'booking_reminder', 'new_message', 'new_review', 'mentor_approved',
    'payment_received', 'payment_failed', 'system_announcement', 'payout_destination_changed', 'mentor_rejected', 'removed_from_session'));
