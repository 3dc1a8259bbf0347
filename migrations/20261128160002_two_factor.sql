-- Two-factor sign-in (TOTP, RFC 6238): a user's secret (set up, then enabled by a first code),
-- their single-use recovery codes (only a SHA-256 of each is kept) and pending sign-ins that
-- passed the password and wait for the second factor (only a SHA-256 of their cookie is kept).
CREATE TABLE two_factor (
    user_id        uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    -- base32; it must be read back to check codes
    secret         text NOT NULL,
    -- null while set up but not yet confirmed with a code
    enabled_at     timestamptz,
    -- the last 30-second step whose code was accepted: a code is accepted once
    last_used_step bigint,
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE two_factor_recovery_codes (
    user_id   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash bytea NOT NULL,
    used_at   timestamptz,
    PRIMARY KEY (user_id, code_hash)
);

CREATE TABLE two_factor_challenges (
    token_hash bytea PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    failures   integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX two_factor_challenges_user_idx ON two_factor_challenges (user_id);
CREATE INDEX two_factor_challenges_expires_idx ON two_factor_challenges (expires_at);
