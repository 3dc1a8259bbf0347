-- Where am I signed in: every session gets a public id (never the cookie's secret), the browser
-- and address it was started from. `last_seen_at` already exists.
ALTER TABLE sessions
    ADD COLUMN id         uuid NOT NULL DEFAULT gen_random_uuid(),
    ADD COLUMN user_agent text CHECK (length(user_agent) <= 512),
    ADD COLUMN address    text CHECK (length(address) <= 100);
CREATE UNIQUE INDEX sessions_id_key ON sessions (id);

-- The browsers and addresses an account signed in from, kept after their sessions end, so a
-- sign-in from one not seen for a while can be told to the owner.
CREATE TABLE sign_in_devices (
    user_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_agent     text NOT NULL CHECK (length(user_agent) <= 512),
    address        text NOT NULL CHECK (length(address) <= 100),
    last_signed_in timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, user_agent, address)
);
