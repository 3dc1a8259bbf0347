-- Payments that survive failures: each charge is first recorded as an attempt ('processing') in its
-- own committed transaction, with its own reference sent to the gateway; the gateway is called
-- outside any transaction; a second transaction settles the attempt. A reconciliation job asks the
-- gateway about attempts left 'processing' (a crash, a timeout) and settles them.

ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('processing', 'approved', 'declined', 'error'));

-- Our reference for the gateway (Authorize.net's invoice number: at most 20 characters).
ALTER TABLE payments ADD COLUMN reference text;
UPDATE payments SET reference = left(replace(id::text, '-', ''), 20);
ALTER TABLE payments ALTER COLUMN reference SET NOT NULL;
ALTER TABLE payments ADD CONSTRAINT payments_reference_key UNIQUE (reference);
ALTER TABLE payments ADD COLUMN settled_at timestamptz;
UPDATE payments SET settled_at = created_at;

-- One charge in flight per booking at a time.
CREATE UNIQUE INDEX payments_one_processing_per_booking ON payments (booking_id) WHERE status = 'processing';
CREATE INDEX payments_processing_idx ON payments (created_at) WHERE status = 'processing';

-- A refund remembers when it last went to the gateway: a retry after an unknown outcome asks
-- the gateway first instead of refunding again.
ALTER TABLE refunds ADD COLUMN last_attempt_at timestamptz;
-- Why a refund exists: a cancellation, or a charge whose hold had gone by the time it settled.
ALTER TABLE refunds ADD COLUMN reason text NOT NULL DEFAULT 'cancellation' CHECK (reason IN ('cancellation', 'reversal'));

-- What the worker's supervisor knows of each queue, for /api/health.
CREATE TABLE job_queue_health (
    queue          text PRIMARY KEY,
    last_error     text,
    last_error_at  timestamptz,
    restarts       integer NOT NULL DEFAULT 0,
    set_aside      integer NOT NULL DEFAULT 0,
    updated_at     timestamptz NOT NULL DEFAULT now()
);
