-- Issue 36, §3: a mentor's earnings from readings join the weekly payout batch, per reading, as
-- bookings do: a reading is in at most one payout, ever (the primary key), with what it brought in
-- and the platform's fee on it. `reading_count` says how many readings a payout holds.
CREATE TABLE payout_readings (
    instant_session_id uuid PRIMARY KEY REFERENCES instant_sessions (id),
    payout_id          uuid NOT NULL REFERENCES payouts (id) ON DELETE CASCADE,
    amount_cents       bigint NOT NULL CHECK (amount_cents > 0),
    fee_cents          bigint NOT NULL CHECK (fee_cents >= 0)
);
CREATE INDEX payout_readings_payout_idx ON payout_readings (payout_id);
ALTER TABLE payouts ADD COLUMN reading_count integer NOT NULL DEFAULT 0 CHECK (reading_count >= 0);
CREATE INDEX instant_sessions_ended_mentor_idx ON instant_sessions (mentor_id) WHERE status = 'ended';
