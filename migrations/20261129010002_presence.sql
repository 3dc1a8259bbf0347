-- Issue 36, §2: mentors online. A per-minute rate (0.99 to 20.00; null: no instant readings) and the
-- modes offered; each mentor's presence as they set it (available, offline) or as a reading makes
-- it (busy); and which sockets watch which mentors' presence, so `presenceChanged` reaches only them.
ALTER TABLE mentors ADD COLUMN per_minute_rate_cents bigint
    CONSTRAINT mentors_per_minute_rate_range CHECK (per_minute_rate_cents IS NULL OR per_minute_rate_cents BETWEEN 99 AND 2000);
ALTER TABLE mentors ADD COLUMN instant_modes text[] NOT NULL DEFAULT ARRAY['chat', 'video']::text[]
    CONSTRAINT mentors_instant_modes_known CHECK (instant_modes <@ ARRAY['chat', 'video']::text[] AND cardinality(instant_modes) >= 1);

CREATE TABLE mentor_presence (
    mentor_id  uuid PRIMARY KEY REFERENCES mentors (id) ON DELETE CASCADE,
    status     text NOT NULL CHECK (status IN ('available', 'busy', 'offline')),
    changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mentor_presence_available_idx ON mentor_presence (mentor_id) WHERE status = 'available';

CREATE TABLE presence_watchers (
    socket_id uuid NOT NULL,
    user_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mentor_id uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    PRIMARY KEY (socket_id, mentor_id)
);
CREATE INDEX presence_watchers_mentor_idx ON presence_watchers (mentor_id);
