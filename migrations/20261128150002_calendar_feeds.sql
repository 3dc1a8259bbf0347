-- Issue 33 §4: each user's private calendar feed. The token in the feed's address is an HMAC of
-- `nonce` with the `calendar_feed` signing key: only its SHA-256 digest is kept, for the lookup.
-- Rotating draws a new nonce, so the old address answers 404.
CREATE TABLE calendar_feeds (
    user_id      uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    nonce        bytea NOT NULL CHECK (octet_length(nonce) = 32),
    token_digest bytea NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now()
);
