-- Sockets open on some api process, refreshed with every ping (30 s). A row not refreshed for 90 s
-- belongs to a process that died without closing it: the calls on that socket are over, so they
-- no longer keep the conversation busy.
CREATE TABLE realtime_sockets (
    socket_id  uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    opened_at  timestamptz NOT NULL DEFAULT now(),
    seen_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX realtime_sockets_seen_idx ON realtime_sockets (seen_at);
