-- Booking: weekly availability, bookings and holds, payments, notifications.

CREATE EXTENSION IF NOT EXISTS btree_gist;

-- Weekly windows in the mentor's wall-clock time (mentors.time_zone), in minutes after midnight.
CREATE TABLE availability_slots (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id    uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    day_of_week  smallint NOT NULL CHECK (day_of_week BETWEEN 0 AND 6),
    start_minute integer NOT NULL CHECK (start_minute BETWEEN 0 AND 1410 AND start_minute % 30 = 0),
    end_minute   integer NOT NULL CHECK (end_minute BETWEEN 30 AND 1440 AND end_minute % 30 = 0),
    is_active    boolean NOT NULL DEFAULT true,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (end_minute > start_minute),
    CONSTRAINT availability_slots_no_overlap
        EXCLUDE USING gist (mentor_id WITH =, day_of_week WITH =, int4range(start_minute, end_minute) WITH &&)
);

-- A booking is first a hold ('reserved', until hold_expires_at) when the service is paid; then
-- pending/confirmed/completed/cancelled. An unpaid hold that runs out becomes 'expired'.
CREATE TABLE bookings (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id             uuid NOT NULL REFERENCES users (id),
    mentor_id           uuid NOT NULL REFERENCES mentors (id),
    service_id          uuid NOT NULL REFERENCES services (id),
    status              text NOT NULL CHECK (status IN ('reserved', 'pending', 'confirmed', 'completed', 'cancelled', 'expired')),
    scheduled_at        timestamptz NOT NULL,
    ends_at             timestamptz NOT NULL,
    total_cents         bigint NOT NULL CHECK (total_cents >= 0),
    notes               text CHECK (char_length(notes) <= 2000),
    hold_expires_at     timestamptz,
    confirmed_at        timestamptz,
    cancelled_at        timestamptz,
    cancellation_reason text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CHECK (ends_at > scheduled_at),
    CHECK (status <> 'reserved' OR hold_expires_at IS NOT NULL),
    -- Two live bookings or holds of one mentor can never overlap, whatever the race.
    CONSTRAINT bookings_no_overlap EXCLUDE USING gist (mentor_id WITH =, tstzrange(scheduled_at, ends_at) WITH &&)
        WHERE (status IN ('reserved', 'pending', 'confirmed'))
);
CREATE INDEX bookings_user_id_idx ON bookings (user_id, scheduled_at DESC);
CREATE INDEX bookings_mentor_id_idx ON bookings (mentor_id, scheduled_at);
CREATE INDEX bookings_holds_idx ON bookings (hold_expires_at) WHERE status = 'reserved';

ALTER TABLE reviews ADD CONSTRAINT reviews_booking_id_fkey FOREIGN KEY (booking_id) REFERENCES bookings (id);

-- Card payments through the gateway: never the card number, only its last four digits.
CREATE TABLE payments (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    booking_id     uuid NOT NULL REFERENCES bookings (id),
    user_id        uuid NOT NULL REFERENCES users (id),
    gateway        text NOT NULL,
    transaction_id text,
    amount_cents   bigint NOT NULL CHECK (amount_cents >= 0),
    card_last4     text NOT NULL CHECK (card_last4 ~ '^[0-9]{4}$'),
    status         text NOT NULL CHECK (status IN ('approved', 'declined', 'error')),
    message        text,
    created_at     timestamptz NOT NULL DEFAULT now()
);
-- A booking is charged at most once.
CREATE UNIQUE INDEX payments_one_approved_per_booking ON payments (booking_id) WHERE status = 'approved';

CREATE TABLE notifications (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type       text NOT NULL CHECK (type IN ('booking_confirmed', 'booking_cancelled', 'booking_rescheduled',
        'booking_reminder', 'new_message', 'new_review', 'mentor_approved', 'payment_received', 'payment_failed',
        'system_announcement')),
    title      text NOT NULL,
    message    text NOT NULL,
    action_url text,
    is_read    boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    read_at    timestamptz
);
CREATE INDEX notifications_user_id_idx ON notifications (user_id, created_at DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE NOT is_read;
