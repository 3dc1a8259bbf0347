-- Secrets the servers sign links with (e.g. one-click unsubscribe links in e-mails): created
-- at random by the first process that needs one and shared by every api and worker through the
-- database, so operators configure nothing and a link signed by one process verifies in another.
-- Deleting a row invalidates every link signed with it.
CREATE TABLE signing_keys (
    name       text PRIMARY KEY,
    secret     bytea NOT NULL CHECK (octet_length(secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);
