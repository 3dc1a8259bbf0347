-- When a session goes wrong (issue 31): complaints within 24 hours of a session, several refunds per
-- booking, payout adjustments after a refund of a paid-out booking, receipts with a gapless yearly number,
-- the group-call joins that make "the mentor never joined" a fact, and mentors' replies to reviews.

-- Refunds become a list. The one-per-booking rule and the 0/50/100 tiers belong to the cancellation's
-- refund alone; complaints, no-shows, an admin's goodwill and a mentor's removal of a group seat add more.
ALTER TABLE refunds DROP CONSTRAINT refunds_booking_id_key;
CREATE UNIQUE INDEX refunds_one_cancellation_per_booking ON refunds (booking_id) WHERE reason = 'cancellation';
-- A late charge is reversed once.
CREATE UNIQUE INDEX refunds_one_reversal_per_payment ON refunds (payment_id) WHERE reason = 'reversal';
CREATE INDEX refunds_booking_idx ON refunds (booking_id, created_at);
ALTER TABLE refunds ALTER COLUMN percentage DROP NOT NULL;
ALTER TABLE refunds ADD CONSTRAINT refunds_cancellation_has_tier
    CHECK (reason <> 'cancellation' OR percentage IS NOT NULL);
ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check CHECK (reason IN ('cancellation', 'reversal', 'complaint',
    'no_show', 'goodwill', 'removed_by_mentor'));
-- Who decided a refund that is not a cancellation's (an admin; null when the rules did) and why.
ALTER TABLE refunds ADD COLUMN decided_by uuid REFERENCES users (id);
ALTER TABLE refunds ADD COLUMN note text CHECK (char_length(note) <= 1000);

-- One complaint per booking, by its seeker, from the session's start until 24 hours after its end.
CREATE TABLE complaints (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    booking_id   uuid NOT NULL REFERENCES bookings (id),
    user_id      uuid NOT NULL REFERENCES users (id),
    mentor_id    uuid NOT NULL REFERENCES mentors (id),
    reason       text NOT NULL CHECK (reason IN ('mentor_no_show', 'technical_problem', 'not_as_described', 'other')),
    details      text CHECK (char_length(details) <= 2000),
    status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'rejected')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- The decision: its outcome, the amount refunded by it, the note, when and by whom (null: the
    -- evidence decided a no-show at once).
    outcome      text CHECK (outcome IN ('full_refund', 'partial_refund', 'no_refund')),
    outcome_cents bigint CHECK (outcome_cents >= 0),
    note         text CHECK (char_length(note) BETWEEN 1 AND 1000),
    decided_at   timestamptz,
    decided_by   uuid REFERENCES users (id),
    -- Settled by the call evidence without an admin (a one-to-one mentor no-show).
    automatic    boolean NOT NULL DEFAULT false,
    -- The refund the decision made, when money went back.
    refund_id    uuid REFERENCES refunds (id),
    CONSTRAINT complaints_one_per_booking UNIQUE (booking_id),
    CHECK ((status = 'open') = (decided_at IS NULL)),
    CHECK ((status = 'open') = (outcome IS NULL)),
    CHECK (status = 'open' OR (outcome_cents IS NOT NULL AND note IS NOT NULL)),
    CHECK (status <> 'rejected' OR outcome = 'no_refund'),
    CHECK (status <> 'resolved' OR outcome IN ('full_refund', 'partial_refund'))
);
CREATE INDEX complaints_open_idx ON complaints (created_at) WHERE status = 'open';
CREATE INDEX complaints_mentor_idx ON complaints (mentor_id, created_at DESC);

-- The mentor's one answer to a complaint, within 48 hours of it.
CREATE TABLE complaint_responses (
    complaint_id uuid PRIMARY KEY REFERENCES complaints (id),
    message      text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 2000),
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- A refund of a booking that was already paid out: the mentor's share of it comes off their next
-- payout. Rows are only inserted, except that the batch records the payout that applied one. A payout
-- never goes below zero: the batch then adds a 'carry_over' pair, +x applied to that payout and -x left
-- for the next one, so the rows always add up to what the refunds took back.
CREATE TABLE payout_adjustments (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id    uuid NOT NULL REFERENCES mentors (id),
    booking_id   uuid REFERENCES bookings (id),
    refund_id    uuid UNIQUE REFERENCES refunds (id),
    amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
    reason       text NOT NULL CHECK (reason IN ('refund', 'carry_over')),
    payout_id    uuid REFERENCES payouts (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    CHECK (reason <> 'refund' OR (amount_cents < 0 AND refund_id IS NOT NULL AND booking_id IS NOT NULL))
);
CREATE INDEX payout_adjustments_waiting_idx ON payout_adjustments (mentor_id) WHERE payout_id IS NULL;
CREATE INDEX payout_adjustments_payout_idx ON payout_adjustments (payout_id);

-- A payout's net is what its bookings earned less its adjustments, never below zero. A payout whose
-- bookings were all refunded while it waited keeps its rows at zero.
ALTER TABLE payouts ADD COLUMN adjustment_cents bigint NOT NULL DEFAULT 0 CHECK (adjustment_cents <= 0);
ALTER TABLE payouts DROP CONSTRAINT payouts_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_net_check
    CHECK (mentor_net_cents = pending_amount_cents - platform_fee_cents + adjustment_cents AND mentor_net_cents >= 0);
ALTER TABLE payouts DROP CONSTRAINT payouts_pending_amount_cents_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_pending_amount_cents_check CHECK (pending_amount_cents >= 0);
ALTER TABLE payouts DROP CONSTRAINT payouts_booking_count_check;
ALTER TABLE payouts ADD CONSTRAINT payouts_booking_count_check CHECK (booking_count >= 0);

-- Receipts: one per successful payment and per refund paid back, numbered MM-<year>-<six digits>
-- without gaps within a calendar year (the counter row is taken in the transaction that records the
-- money, so a rolled-back transaction gives its number back). Keyed by the payment or the refund, so a
-- payment without a booking can have one too. What the receipt says is kept as it was when issued.
CREATE TABLE receipt_counters (
    year integer PRIMARY KEY,
    last integer NOT NULL CHECK (last > 0)
);
CREATE TABLE receipts (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    number        text NOT NULL UNIQUE,
    year          integer NOT NULL,
    seq           integer NOT NULL CHECK (seq > 0),
    kind          text NOT NULL CHECK (kind IN ('payment', 'refund')),
    user_id       uuid NOT NULL REFERENCES users (id),
    payment_id    uuid REFERENCES payments (id),
    refund_id     uuid UNIQUE REFERENCES refunds (id),
    booking_id    uuid REFERENCES bookings (id),
    amount_cents  bigint NOT NULL CHECK (amount_cents >= 0),
    card_last4    text CHECK (card_last4 ~ '^[0-9]{4}$'),
    payer_name    text NOT NULL,
    payer_email   text NOT NULL,
    description   text NOT NULL,
    session_at    timestamptz,
    issued_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT receipts_year_seq_key UNIQUE (year, seq),
    CHECK ((kind = 'refund') = (refund_id IS NOT NULL)),
    CHECK (kind <> 'payment' OR payment_id IS NOT NULL)
);
CREATE UNIQUE INDEX receipts_one_per_payment ON receipts (payment_id) WHERE kind = 'payment';
CREATE INDEX receipts_user_idx ON receipts (user_id, issued_at DESC);

-- Who was in a group session's call and when (time in, time out; out is null while they are in, or
-- when their api process died), so "the mentor never joined" is a fact.
CREATE TABLE group_call_joins (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    group_session_id uuid NOT NULL REFERENCES group_sessions (id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id),
    joined_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    left_at          timestamptz,
    CHECK (left_at IS NULL OR left_at >= joined_at)
);
CREATE INDEX group_call_joins_session_idx ON group_call_joins (group_session_id, user_id, joined_at);

-- Evidence reads the calls of two parties around a session.
CREATE INDEX calls_parties_idx ON calls (caller_id, callee_id, created_at);

-- A mentor's one public reply to a review of them.
CREATE TABLE review_replies (
    review_id  uuid PRIMARY KEY REFERENCES reviews (id) ON DELETE CASCADE,
    message    text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 1000),
    created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('booking_confirmed',
    'booking_cancelled', 'booking_rescheduled', 'booking_reminder', 'new_message', 'new_review', 'mentor_approved',
    'payment_received', 'payment_failed', 'system_announcement', 'payout_destination_changed', 'mentor_rejected',
    'removed_from_session', 'complaint_opened', 'complaint_answered', 'complaint_decided', 'refund_issued',
    'review_reply'));

-- A group session whose mentor never joined its call while it was live: when the state job found it
-- (every paid seat was refunded in full). Admins see the count per mentor.
ALTER TABLE group_sessions ADD COLUMN mentor_no_show_at timestamptz;
