-- Group sessions: a mentor's scheduled session of a group service, whose seats are bookings.
--
-- A seat is a row of `bookings` pointing at its session (`group_session_id`), so payment,
-- refunds, reminders, completion and payouts work per seat unchanged.

CREATE TABLE group_sessions (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id        uuid NOT NULL REFERENCES mentors (id),
    service_id       uuid NOT NULL REFERENCES services (id),
    title            text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    description      text CHECK (char_length(description) <= 2000),
    status           text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'active', 'completed', 'cancelled')),
    scheduled_at     timestamptz NOT NULL,
    ends_at          timestamptz NOT NULL,
    max_participants integer NOT NULL CHECK (max_participants BETWEEN 2 AND 20),
    -- Seats held or booked (reserved, pending, confirmed, completed), kept by the trigger on
    -- bookings below. The check is what makes overselling impossible: every seat taken updates
    -- this one row, so concurrent joins queue on its lock and the one past capacity fails.
    seats_taken      integer NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (ends_at > scheduled_at),
    CONSTRAINT group_sessions_capacity CHECK (seats_taken BETWEEN 0 AND max_participants)
);
CREATE INDEX group_sessions_open_idx ON group_sessions (scheduled_at) WHERE status IN ('scheduled', 'active');
CREATE INDEX group_sessions_mentor_idx ON group_sessions (mentor_id, scheduled_at DESC);

ALTER TABLE bookings ADD COLUMN group_session_id uuid REFERENCES group_sessions (id);

-- One seat per seeker and session (a lapsed or cancelled one leaves room for a new one).
CREATE UNIQUE INDEX bookings_one_seat_per_seeker ON bookings (group_session_id, user_id)
    WHERE group_session_id IS NOT NULL AND status IN ('reserved', 'pending', 'confirmed', 'completed');

-- The seats of one group session share its time: only one-to-one bookings exclude each other here.
ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist (mentor_id WITH =, tstzrange(scheduled_at, ends_at) WITH &&)
    WHERE (status IN ('reserved', 'pending', 'confirmed') AND group_session_id IS NULL);

-- A mentor's busy time across one-to-one bookings and group sessions alike: one row per live
-- one-to-one booking or hold and per scheduled or active group session, kept by triggers. Its
-- exclusion constraint makes a one-to-one booking overlapping a group session (or two group
-- sessions overlapping) impossible, whatever the race.
CREATE TABLE mentor_busy_times (
    mentor_id        uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    during           tstzrange NOT NULL,
    booking_id       uuid UNIQUE REFERENCES bookings (id) ON DELETE CASCADE,
    group_session_id uuid UNIQUE REFERENCES group_sessions (id) ON DELETE CASCADE,
    CHECK ((booking_id IS NULL) <> (group_session_id IS NULL)),
    CONSTRAINT mentor_busy_no_overlap EXCLUDE USING gist (mentor_id WITH =, during WITH &&)
);

CREATE FUNCTION bookings_busy_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM mentor_busy_times WHERE booking_id = NEW.id;
    IF NEW.group_session_id IS NULL AND NEW.status IN ('reserved', 'pending', 'confirmed') THEN
        INSERT INTO mentor_busy_times (mentor_id, during, booking_id)
        VALUES (NEW.mentor_id, tstzrange(NEW.scheduled_at, NEW.ends_at), NEW.id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER bookings_busy_time AFTER INSERT OR UPDATE OF status, scheduled_at, ends_at, mentor_id, group_session_id ON bookings
FOR EACH ROW EXECUTE FUNCTION bookings_busy_time();

CREATE FUNCTION group_sessions_busy_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM mentor_busy_times WHERE group_session_id = NEW.id;
    IF NEW.status IN ('scheduled', 'active') THEN
        INSERT INTO mentor_busy_times (mentor_id, during, group_session_id)
        VALUES (NEW.mentor_id, tstzrange(NEW.scheduled_at, NEW.ends_at), NEW.id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER group_sessions_busy_time AFTER INSERT OR UPDATE OF status, scheduled_at, ends_at, mentor_id ON group_sessions
FOR EACH ROW EXECUTE FUNCTION group_sessions_busy_time();

-- Counts seats taken on their session. A new seat on a session that is no longer open
-- (cancelled, completed) is refused as 'group_sessions_open'.
CREATE FUNCTION bookings_group_seats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was boolean := TG_OP <> 'INSERT' AND OLD.group_session_id IS NOT NULL
        AND OLD.status IN ('reserved', 'pending', 'confirmed', 'completed');
    is_now boolean := TG_OP <> 'DELETE' AND NEW.group_session_id IS NOT NULL
        AND NEW.status IN ('reserved', 'pending', 'confirmed', 'completed');
BEGIN
    IF was AND is_now AND OLD.group_session_id = NEW.group_session_id THEN
        RETURN NULL;
    END IF;
    IF was THEN
        UPDATE group_sessions SET seats_taken = seats_taken - 1, updated_at = now() WHERE id = OLD.group_session_id;
    END IF;
    IF is_now THEN
        UPDATE group_sessions SET seats_taken = seats_taken + 1, updated_at = now()
        WHERE id = NEW.group_session_id AND status IN ('scheduled', 'active');
        IF NOT FOUND THEN
            RAISE EXCEPTION 'group session % is not open', NEW.group_session_id
                USING ERRCODE = 'check_violation', CONSTRAINT = 'group_sessions_open';
        END IF;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER bookings_group_seats AFTER INSERT OR UPDATE OF status, group_session_id OR DELETE ON bookings
FOR EACH ROW EXECUTE FUNCTION bookings_group_seats();

-- Today's live one-to-one bookings and holds take their busy time.
INSERT INTO mentor_busy_times (mentor_id, during, booking_id)
SELECT mentor_id, tstzrange(scheduled_at, ends_at), id FROM bookings
WHERE group_session_id IS NULL AND status IN ('reserved', 'pending', 'confirmed');

-- Seats of a session, by state.
CREATE INDEX bookings_group_session_idx ON bookings (group_session_id) WHERE group_session_id IS NOT NULL;
