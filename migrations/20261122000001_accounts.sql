-- Accounts: users, their sessions, single-use e-mail tokens and the events that rate limits count.

CREATE TABLE users (
    id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email                  text NOT NULL CHECK (length(email) <= 254),
    password_hash          text NOT NULL,
    first_name             text NOT NULL CHECK (length(first_name) <= 100),
    last_name              text NOT NULL CHECK (length(last_name) <= 100),
    bio                    text CHECK (length(bio) <= 2000),
    profile_image_url      text,
    is_admin               boolean NOT NULL DEFAULT false,
    is_active              boolean NOT NULL DEFAULT true,
    email_verified         boolean NOT NULL DEFAULT false,
    stripe_subscription_id text,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);

-- E-mail addresses are unique whatever their case.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- The role is derived, never stored twice: later migrations redefine this view
-- when mentor profiles exist.
CREATE VIEW user_accounts AS
SELECT u.*,
       CASE WHEN u.is_admin THEN 'admin' ELSE 'user' END AS role
FROM users u;

-- Only a SHA-256 of the cookie's token is kept, so a database leak yields no usable session.
CREATE TABLE sessions (
    token_hash   bytea PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

CREATE TABLE email_tokens (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
    -- the address the link was sent to: verifying proves ownership of exactly this one
    email      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX email_tokens_user_id_idx ON email_tokens (user_id);
CREATE INDEX email_tokens_expires_at_idx ON email_tokens (expires_at);

-- One row per counted event (a failed login, a reset request); limits count rows in a window.
CREATE TABLE rate_limit_events (
    id         bigserial PRIMARY KEY,
    scope      text NOT NULL,
    key        text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_limit_events_lookup_idx ON rate_limit_events (scope, key, created_at);
