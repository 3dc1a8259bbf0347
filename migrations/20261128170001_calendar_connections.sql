-- Issue 33 §1-3: a mentor's own CalDAV calendar. One connection per mentor (a later connect
-- replaces it); its calendars as discovered, each with the two switches; the busy times read from
-- the calendars that block slots; and where each session was written back.

CREATE TABLE calendar_connections (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id          uuid NOT NULL UNIQUE REFERENCES mentors(id) ON DELETE CASCADE,
    url                text NOT NULL,
    username           text NOT NULL,
    -- The password sealed with SECRETS_KEY (AES-256-GCM: 12-byte nonce, then ciphertext and tag).
    password_sealed    bytea NOT NULL,
    state              text NOT NULL DEFAULT 'syncing' CHECK (state IN ('ok', 'syncing', 'failing')),
    -- The server's error of the last failed sync (none while it succeeds).
    error              text,
    last_synced_at     timestamptz,
    -- The first failure of the current failure streak; none while syncs succeed.
    failing_since      timestamptz,
    -- The mentor was told of the current failure streak.
    failure_notified   boolean NOT NULL DEFAULT false,
    created_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE calendar_connection_calendars (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    connection_id      uuid NOT NULL REFERENCES calendar_connections(id) ON DELETE CASCADE,
    -- The calendar collection's absolute URL.
    href               text NOT NULL,
    name               text NOT NULL,
    writable           boolean NOT NULL,
    blocks_slots       boolean NOT NULL DEFAULT true,
    receives_bookings  boolean NOT NULL DEFAULT false,
    position           integer NOT NULL,
    UNIQUE (connection_id, href)
);
-- Exactly one calendar of a connection receives bookings (when any is writable).
CREATE UNIQUE INDEX calendar_receives_bookings_once ON calendar_connection_calendars (connection_id)
    WHERE receives_bookings;

CREATE TABLE calendar_busy_times (
    calendar_id        uuid NOT NULL REFERENCES calendar_connection_calendars(id) ON DELETE CASCADE,
    mentor_id          uuid NOT NULL REFERENCES mentors(id) ON DELETE CASCADE,
    starts_at          timestamptz NOT NULL,
    ends_at            timestamptz NOT NULL CHECK (ends_at > starts_at)
);
CREATE INDEX calendar_busy_times_mentor ON calendar_busy_times (mentor_id, starts_at, ends_at);
CREATE INDEX calendar_busy_times_calendar ON calendar_busy_times (calendar_id);

-- Where a session's event was written (`booking-{id}@mystic-mentors`, `group-session-{id}@...`),
-- so a move to another calendar deletes the old one and a cancellation knows what to delete.
CREATE TABLE calendar_written_events (
    uid                text PRIMARY KEY,
    connection_id      uuid NOT NULL REFERENCES calendar_connections(id) ON DELETE CASCADE,
    href               text NOT NULL,
    written_at         timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('booking_confirmed',
    'booking_cancelled', 'booking_rescheduled', 'booking_reminder', 'new_message', 'new_review', 'mentor_approved',
    'payment_received', 'payment_failed', 'system_announcement', 'payout_destination_changed', 'mentor_rejected',
    'removed_from_session', 'complaint_opened', 'complaint_answered', 'complaint_decided', 'refund_issued',
    'review_reply', 'calendar_failing'));
