-- Booking rules: the refund tier follows the earliest start a booking has had.

-- Set to the start when the booking is made and lowered, never raised, when it is rescheduled,
-- so moving a session later never buys a bigger refund.
ALTER TABLE bookings ADD COLUMN earliest_scheduled_at timestamptz;
UPDATE bookings SET earliest_scheduled_at = scheduled_at;
ALTER TABLE bookings ALTER COLUMN earliest_scheduled_at SET NOT NULL;

-- Inserts that do not name it (fixtures, seeds) start from their own start.
CREATE FUNCTION bookings_default_earliest_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.earliest_scheduled_at := coalesce(NEW.earliest_scheduled_at, NEW.scheduled_at);
    RETURN NEW;
END $$;

CREATE TRIGGER bookings_earliest_start BEFORE INSERT ON bookings
FOR EACH ROW EXECUTE FUNCTION bookings_default_earliest_start();

-- Counting a seeker's live holds when a new one is made.
CREATE INDEX bookings_user_holds_idx ON bookings (user_id, hold_expires_at) WHERE status = 'reserved';
