-- Payouts: each mentor's payout preferences, the weekly batches' payouts and which bookings each
-- payout holds. A booking is in at most one payout, ever (payout_bookings' primary key).

CREATE TABLE payout_preferences (
    mentor_id             uuid PRIMARY KEY REFERENCES mentors (id) ON DELETE CASCADE,
    method                text NOT NULL CHECK (method IN ('paypal', 'venmo', 'zelle')),
    paypal_email          text CHECK (char_length(paypal_email) <= 254),
    venmo_username        text CHECK (char_length(venmo_username) <= 64),
    zelle_email           text CHECK (char_length(zelle_email) <= 254),
    minimum_payout_cents  bigint NOT NULL DEFAULT 5000 CHECK (minimum_payout_cents >= 0),
    notes                 text CHECK (char_length(notes) <= 1000),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    -- Only the chosen method's field is kept.
    CHECK ((method = 'paypal') = (paypal_email IS NOT NULL)),
    CHECK ((method = 'venmo') = (venmo_username IS NOT NULL)),
    CHECK ((method = 'zelle') = (zelle_email IS NOT NULL))
);

CREATE TABLE payouts (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id             uuid NOT NULL REFERENCES mentors (id),
    status                text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid')),
    booking_count         integer NOT NULL CHECK (booking_count > 0),
    pending_amount_cents  bigint NOT NULL CHECK (pending_amount_cents > 0),
    platform_fee_cents    bigint NOT NULL CHECK (platform_fee_cents >= 0),
    mentor_net_cents      bigint NOT NULL,
    method                text,
    recipient_info        text,
    notes                 text,
    paid_at               timestamptz,
    paid_by               uuid REFERENCES users (id),
    created_at            timestamptz NOT NULL DEFAULT now(),
    CHECK (mentor_net_cents = pending_amount_cents - platform_fee_cents),
    CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
CREATE INDEX payouts_mentor_idx ON payouts (mentor_id, created_at DESC);
CREATE INDEX payouts_pending_idx ON payouts (created_at DESC) WHERE status = 'pending';
CREATE INDEX payouts_paid_idx ON payouts (paid_at DESC) WHERE status = 'paid';

CREATE TABLE payout_bookings (
    booking_id  uuid PRIMARY KEY REFERENCES bookings (id),
    payout_id   uuid NOT NULL REFERENCES payouts (id) ON DELETE CASCADE,
    -- What the booking brought in (paid less refunds) and the platform's fee on it, in cents.
    amount_cents bigint NOT NULL,
    fee_cents    bigint NOT NULL
);
CREATE INDEX payout_bookings_payout_idx ON payout_bookings (payout_id);

-- The batch looks for completed bookings; this keeps that cheap with many bookings.
CREATE INDEX bookings_completed_mentor_idx ON bookings (mentor_id) WHERE status = 'completed';
