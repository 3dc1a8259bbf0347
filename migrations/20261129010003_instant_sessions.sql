-- Issue 36, §3: instant readings. A reading is its own row (not a booking): requested by a seeker,
-- accepted or declined by the mentor (or expired after 60 s), active while it is metered, ended by
-- either party or when the balance runs out. Each paid minute is one `session_charge` entry of the
-- wallet ledger, unique by (reading, minute index): a charge job run twice charges once.
CREATE TABLE instant_sessions (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seeker_id             uuid NOT NULL REFERENCES users (id),
    mentor_id             uuid NOT NULL REFERENCES mentors (id),
    mode                  text NOT NULL CHECK (mode IN ('chat', 'video')),
    status                text NOT NULL CHECK (status IN ('requested', 'active', 'ended', 'expired', 'declined')),
    per_minute_rate_cents bigint NOT NULL CHECK (per_minute_rate_cents > 0),
    free_minutes          integer NOT NULL CHECK (free_minutes >= 0),
    conversation_id       uuid REFERENCES conversations (id),
    expires_at            timestamptz NOT NULL,
    started_at            timestamptz,
    ended_at              timestamptz,
    end_reason            text CHECK (end_reason IN ('seeker', 'mentor', 'balance')),
    minutes_billed        integer NOT NULL DEFAULT 0 CHECK (minutes_billed >= 0),
    created_at            timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT instant_sessions_started_when_active CHECK (status NOT IN ('active', 'ended') OR started_at IS NOT NULL),
    CONSTRAINT instant_sessions_ended_with_reason CHECK ((status = 'ended') = (ended_at IS NOT NULL AND end_reason IS NOT NULL))
);
-- A seeker has at most one reading requested or active; a mentor is in at most one reading.
CREATE UNIQUE INDEX instant_sessions_one_open_per_seeker ON instant_sessions (seeker_id) WHERE status IN ('requested', 'active');
CREATE UNIQUE INDEX instant_sessions_one_active_per_mentor ON instant_sessions (mentor_id) WHERE status = 'active';
CREATE INDEX instant_sessions_mentor_idx ON instant_sessions (mentor_id, created_at DESC);

-- The free minutes go to the first accepted reading of a seeker and mentor, once.
CREATE TABLE instant_free_minutes (
    seeker_id          uuid NOT NULL REFERENCES users (id),
    mentor_id          uuid NOT NULL REFERENCES mentors (id),
    instant_session_id uuid NOT NULL REFERENCES instant_sessions (id),
    PRIMARY KEY (seeker_id, mentor_id)
);

ALTER TABLE wallet_entries ADD COLUMN instant_session_id uuid REFERENCES instant_sessions (id);
ALTER TABLE wallet_entries ADD COLUMN minute_index integer CHECK (minute_index >= 0);
ALTER TABLE wallet_entries ADD CONSTRAINT wallet_entries_one_charge_per_minute UNIQUE (instant_session_id, minute_index);
ALTER TABLE wallet_entries ADD CONSTRAINT wallet_entries_charge_names_its_minute
    CHECK (kind <> 'session_charge' OR (instant_session_id IS NOT NULL AND minute_index IS NOT NULL));
