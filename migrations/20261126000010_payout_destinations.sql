-- A payout is paid to the destination it was made for (issue 21, rule 6): later changes to the
-- mentor's preferences do not move money that is already on its way, and a destination changed
-- shortly before a batch waits for the next one (an account takeover cannot divert a payout).

-- When the method or its address last changed; NULL while the first ones set are still in force.
ALTER TABLE payout_preferences ADD COLUMN destination_changed_at timestamptz;

-- The destination a pending payout is for: recorded when the batch makes it (NULL when the mentor
-- had none yet; setting preferences for the first time fills it in).
ALTER TABLE payouts ADD COLUMN destination_method text CHECK (destination_method IN ('paypal', 'venmo', 'zelle'));
ALTER TABLE payouts ADD COLUMN destination text CHECK (char_length(destination) <= 254);
ALTER TABLE payouts ADD CONSTRAINT payouts_destination_whole
    CHECK ((destination_method IS NULL) = (destination IS NULL));

UPDATE payouts po
SET destination_method = pp.method,
    destination = CASE pp.method WHEN 'paypal' THEN pp.paypal_email
                                 WHEN 'venmo' THEN pp.venmo_username
                                 ELSE pp.zelle_email END
FROM payout_preferences pp
WHERE pp.mentor_id = po.mentor_id AND po.status = 'pending';

-- A mentor hears of every change of where their money goes.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('booking_confirmed',
    'booking_cancelled', 'booking_rescheduled', 'booking_reminder', 'new_message', 'new_review', 'mentor_approved',
    'payment_received', 'payment_failed', 'system_announcement', 'payout_destination_changed'));
