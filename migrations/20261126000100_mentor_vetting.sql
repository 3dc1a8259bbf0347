-- Vetting: a mentor profile is listed and bookable only once an administrator approved it.
-- Every mentor that exists today is approved (the column's first default); new ones start pending.
ALTER TABLE mentors ADD COLUMN approval_status text NOT NULL DEFAULT 'approved'
    CONSTRAINT mentors_approval_status_check CHECK (approval_status IN ('pending', 'approved', 'rejected'));
ALTER TABLE mentors ALTER COLUMN approval_status SET DEFAULT 'pending';
-- Why the last rejection was made (shown to the mentor, cleared on approval and resubmission).
ALTER TABLE mentors ADD COLUMN rejection_reason text;
-- When the profile was last sent for review (created or resubmitted) and last decided on.
ALTER TABLE mentors ADD COLUMN submitted_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE mentors ADD COLUMN reviewed_at timestamptz;
ALTER TABLE mentors ADD COLUMN reviewed_by uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE mentors ADD CONSTRAINT mentors_rejection_has_reason
    CHECK (approval_status <> 'rejected' OR rejection_reason IS NOT NULL);

-- The listing's covering index holds only listed mentors: approved ones now too.
DROP INDEX mentors_listed_idx;
CREATE INDEX mentors_listed_idx ON mentors (rating DESC, review_count DESC, total_sessions DESC, created_at, id)
    INCLUDE (user_id, from_price_cents) WHERE is_active AND approval_status = 'approved' AND from_price_cents IS NOT NULL;
-- The admins' queue of profiles awaiting review.
CREATE INDEX mentors_awaiting_review_idx ON mentors (submitted_at) WHERE approval_status = 'pending';

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('booking_confirmed',
    'booking_cancelled', 'booking_rescheduled', 'booking_reminder', 'new_message', 'new_review', 'mentor_approved',
    'payment_received', 'payment_failed', 'system_announcement', 'payout_destination_changed', 'mentor_rejected'));
