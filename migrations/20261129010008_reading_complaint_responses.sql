-- Issue 36, §3: the mentor's one answer to a reading's complaint, within 48 hours of it (as
-- complaint_responses for bookings).
CREATE TABLE instant_session_complaint_responses (
    complaint_id uuid PRIMARY KEY REFERENCES instant_session_complaints (id),
    message      text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 2000),
    created_at   timestamptz NOT NULL DEFAULT now()
);
