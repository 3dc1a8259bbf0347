-- Issue 37 §2: the transactional outbox of the NATS real-time bus (REALTIME_BUS=nats). An event is
-- written here in the transaction that causes it; a relay in every api process claims unsent rows
-- (FOR UPDATE SKIP LOCKED), publishes them to NATS per recipient and marks them sent. Sent rows stay
-- a few minutes (consumers that lost NATS catch up from them) and are then pruned.
CREATE TABLE realtime_outbox (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- the Envelope: {to, socket?, exceptSocket?, event, data}
    payload    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    sent_at    timestamptz
);
-- What the relays claim, oldest first.
CREATE INDEX realtime_outbox_unsent_idx ON realtime_outbox (id) WHERE sent_at IS NULL;
-- Catch-up after a lost NATS connection, and pruning.
CREATE INDEX realtime_outbox_created_idx ON realtime_outbox (created_at);
