-- Web Push (issue 34): the browsers that asked for notifications, what each user wants pushed,
-- and the pushes already accepted by a push service.

-- One row per browser push subscription (the browser's PushSubscription). An endpoint is one
-- browser's: it belongs to one user and one signed-in session at a time (subscribing it again from
-- another account moves it), and signing out, ending every session or the session's expiry
-- removes it with the session.
CREATE TABLE push_subscriptions (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id            uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_token_hash bytea NOT NULL REFERENCES sessions (token_hash) ON DELETE CASCADE,
    endpoint           text NOT NULL UNIQUE CHECK (char_length(endpoint) BETWEEN 1 AND 2048),
    -- The browser's P-256 public key (65 bytes, uncompressed) and auth secret (16 bytes).
    p256dh             bytea NOT NULL CHECK (octet_length(p256dh) = 65),
    auth               bytea NOT NULL CHECK (octet_length(auth) = 16),
    user_agent         text CHECK (char_length(user_agent) <= 512),
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id, updated_at);
CREATE INDEX push_subscriptions_session_idx ON push_subscriptions (session_token_hash);

-- What a user wants pushed, by family; no row means everything on.
CREATE TABLE push_preferences (
    user_id        uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    calls          boolean NOT NULL DEFAULT true,
    messages       boolean NOT NULL DEFAULT true,
    bookings       boolean NOT NULL DEFAULT true,
    reminders      boolean NOT NULL DEFAULT true,
    group_sessions boolean NOT NULL DEFAULT true,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Each push a push service accepted, by the id chosen when its task was queued: a task that runs
-- again (its worker died before the task was marked done, or a retry raced it) finds its row and
-- sends nothing. The cleanup job prunes old rows; no foreign key, the subscription may go first.
CREATE TABLE push_deliveries (
    id      uuid PRIMARY KEY,
    sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_deliveries_sent_at_idx ON push_deliveries (sent_at);
