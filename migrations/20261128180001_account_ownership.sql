-- People own their account (issue 35): a copy of their data, and a way out.

-- Deleting an account: scheduled (14 days of grace, the user can still sign in and keep it), then
-- removed by a job (the row stays, anonymised, for the records others and bookkeeping need).
ALTER TABLE users
    ADD COLUMN deletion_scheduled_at timestamptz,
    -- whether the mentor profile was listed (mentors.is_active) when the deletion was asked for:
    -- 'Keep my account' puts it back as it was
    ADD COLUMN deletion_mentor_was_active boolean,
    -- set by the removal job: the person is gone, the row anonymised
    ADD COLUMN deleted_at timestamptz;
CREATE INDEX users_deletion_due_idx ON users (deletion_scheduled_at)
    WHERE deletion_scheduled_at IS NOT NULL AND deleted_at IS NULL;

-- The view the code reads users from carries the deletion date (columns may only be appended).
CREATE OR REPLACE VIEW user_accounts AS
SELECT u.id, u.email, u.password_hash, u.first_name, u.last_name, u.bio, u.profile_image_url, u.is_admin,
       u.is_active, u.email_verified, u.stripe_subscription_id, u.created_at, u.updated_at,
       CASE WHEN u.is_admin THEN 'admin'
            WHEN EXISTS (SELECT 1 FROM mentors m WHERE m.user_id = u.id) THEN 'mentor'
            ELSE 'user' END AS role,
       u.deletion_scheduled_at
FROM users u;

-- Downloads of one's data: a job builds the zip into EXPORT_DIR; it can be fetched for 7 days.
CREATE TABLE data_exports (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- 'expired' once the cleanup deleted the file (a ready export past expires_at reads expired before that)
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready', 'expired', 'failed')),
    -- the file's name inside EXPORT_DIR, once built
    file_name   text,
    size_bytes  bigint,
    created_at  timestamptz NOT NULL DEFAULT now(),
    ready_at    timestamptz,
    expires_at  timestamptz,
    CHECK ((status = 'ready') <= (file_name IS NOT NULL AND expires_at IS NOT NULL))
);
CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at DESC);
CREATE INDEX data_exports_expiring_idx ON data_exports (expires_at) WHERE status = 'ready';

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('booking_confirmed',
    'booking_cancelled', 'booking_rescheduled', 'booking_reminder', 'new_message', 'new_review', 'mentor_approved',
    'payment_received', 'payment_failed', 'system_announcement', 'payout_destination_changed', 'mentor_rejected',
    'removed_from_session', 'complaint_opened', 'complaint_answered', 'complaint_decided', 'refund_issued',
    'review_reply', 'data_export_ready'));
