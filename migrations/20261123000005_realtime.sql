-- Real-time: conversations and messages, one-to-one calls, who is viewing a conversation, and the
-- events api processes fan out to their sockets through LISTEN/NOTIFY on channel 'realtime'.

-- One conversation per mentor and user.
CREATE TABLE conversations (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id       uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    booking_id      uuid REFERENCES bookings (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_message_at timestamptz,
    CONSTRAINT conversations_one_per_pair UNIQUE (mentor_id, user_id)
);
CREATE INDEX conversations_user_idx ON conversations (user_id, last_message_at DESC NULLS LAST);
CREATE INDEX conversations_mentor_idx ON conversations (mentor_id, last_message_at DESC NULLS LAST);

CREATE TABLE messages (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    sender_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content         text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 5000),
    message_type    text NOT NULL DEFAULT 'text',
    -- The sender's own id for the message: a repeated send with it returns the stored message.
    client_id       text CHECK (char_length(client_id) BETWEEN 1 AND 100),
    is_read         boolean NOT NULL DEFAULT false,
    read_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT messages_client_id_once UNIQUE (sender_id, client_id)
);
CREATE INDEX messages_thread_idx ON messages (conversation_id, created_at DESC, id DESC);
CREATE INDEX messages_unread_idx ON messages (conversation_id, sender_id) WHERE NOT is_read;

-- One-to-one calls: ringing until accepted, rejected, ended or missed (45 s unanswered).
-- Each side's socket is recorded so a dropped socket ends its calls.
CREATE TABLE calls (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    room_id         uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    booking_id      uuid REFERENCES bookings (id) ON DELETE SET NULL,
    caller_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    callee_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    caller_socket   uuid NOT NULL,
    callee_socket   uuid,
    status          text NOT NULL DEFAULT 'ringing' CHECK (status IN ('ringing', 'active', 'rejected', 'ended', 'missed')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    answered_at     timestamptz,
    ended_at        timestamptz
);
CREATE INDEX calls_live_idx ON calls (status) WHERE status IN ('ringing', 'active');

-- Sockets that have joined a conversation (a party viewing it gets no new_message notification).
-- seen_at is refreshed while the socket lives; rows of a vanished process go stale.
CREATE TABLE conversation_viewers (
    socket_id       uuid NOT NULL,
    conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seen_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (socket_id, conversation_id)
);
CREATE INDEX conversation_viewers_lookup_idx ON conversation_viewers (conversation_id, user_id);

-- Events too large for a NOTIFY payload: the notification carries the row's id.
CREATE TABLE realtime_events (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    payload    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A session that ends (logout, password change, deactivation, expiry clean-up) closes its sockets
-- on every api process. Digests travel in groups well under the NOTIFY payload limit.
CREATE FUNCTION sessions_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    chunk text[];
BEGIN
    FOR chunk IN
        SELECT array_agg(encode(token_hash, 'hex')) FROM (
            SELECT token_hash, (row_number() OVER ()) / 40 AS grp FROM gone
        ) numbered GROUP BY grp
    LOOP
        PERFORM pg_notify('realtime', json_build_object('sessionsEnded', chunk)::text);
    END LOOP;
    RETURN NULL;
END
$$;
CREATE TRIGGER sessions_ended AFTER DELETE ON sessions
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION sessions_ended_notify();
