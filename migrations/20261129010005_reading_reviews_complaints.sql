-- Issue 36, §3: the seeker reviews a reading like a session, and complaints apply as to bookings.
-- A review names a booking or a reading (one review each); a reading's complaint has its own table
-- with the complaints' reasons, statuses and limits, and an open one holds the reading out of the
-- payout batch.
ALTER TABLE reviews ADD COLUMN instant_session_id uuid REFERENCES instant_sessions (id);
ALTER TABLE reviews ADD CONSTRAINT reviews_one_per_reading UNIQUE (instant_session_id);

CREATE TABLE instant_session_complaints (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    instant_session_id uuid NOT NULL REFERENCES instant_sessions (id),
    user_id            uuid NOT NULL REFERENCES users (id),
    mentor_id          uuid NOT NULL REFERENCES mentors (id),
    reason             text NOT NULL CHECK (reason IN ('mentor_no_show', 'technical_problem', 'not_as_described', 'other')),
    details            text CHECK (char_length(details) <= 2000),
    status             text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'rejected')),
    created_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT instant_session_complaints_one_per_reading UNIQUE (instant_session_id)
);
