-- After booking: e-mail preferences, refunds, sent reminders, the calendar sequence, completion counts.

CREATE TABLE email_preferences (
    user_id               uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    booking_confirmations boolean NOT NULL DEFAULT true,
    booking_reminders     boolean NOT NULL DEFAULT true,
    marketing_emails      boolean NOT NULL DEFAULT true,
    review_requests       boolean NOT NULL DEFAULT true,
    updated_at            timestamptz NOT NULL DEFAULT now()
);

-- Each change of a booking's time raises the sequence of its calendar event.
ALTER TABLE bookings ADD COLUMN calendar_sequence integer NOT NULL DEFAULT 0;
ALTER TABLE bookings ADD COLUMN completed_at timestamptz;

-- One refund per booking, paid out through the gateway by a job.
CREATE TABLE refunds (
    id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    booking_id             uuid NOT NULL REFERENCES bookings (id),
    payment_id             uuid REFERENCES payments (id),
    percentage             smallint NOT NULL CHECK (percentage IN (0, 50, 100)),
    amount_cents           bigint NOT NULL CHECK (amount_cents >= 0),
    status                 text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'not_needed')),
    gateway_transaction_id text,
    last_error             text,
    attempts               integer NOT NULL DEFAULT 0,
    created_at             timestamptz NOT NULL DEFAULT now(),
    completed_at           timestamptz,
    CONSTRAINT refunds_booking_id_key UNIQUE (booking_id)
);

-- A reminder of a given kind for a given start goes out once.
CREATE TABLE booking_reminders (
    booking_id   uuid NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    kind         text NOT NULL CHECK (kind IN ('24h', '1h')),
    scheduled_at timestamptz NOT NULL,
    sent_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (booking_id, kind, scheduled_at)
);

-- A completed session counts for its mentor, once.
CREATE FUNCTION bookings_count_completed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'completed' AND OLD.status <> 'completed' THEN
        UPDATE mentors SET total_sessions = total_sessions + 1 WHERE id = NEW.mentor_id;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER bookings_completed AFTER UPDATE OF status ON bookings
FOR EACH ROW EXECUTE FUNCTION bookings_count_completed();
