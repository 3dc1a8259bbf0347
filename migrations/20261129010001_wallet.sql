-- Issue 36, §1: a prepaid balance. Money held for a user is a ledger of signed entries (money in
-- positive, out negative) that are never changed or deleted; `wallets.balance_cents` is their sum,
-- kept by a trigger in the transaction that adds an entry, and the database refuses a balance below
-- zero or above the cap (1,000.00) with CHECK constraints, whatever the code does.

CREATE TABLE wallets (
    user_id       uuid PRIMARY KEY REFERENCES users (id),
    balance_cents bigint NOT NULL DEFAULT 0,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT wallets_balance_not_negative CHECK (balance_cents >= 0),
    CONSTRAINT wallets_balance_cap CHECK (balance_cents <= 100000)
);

-- A top-up is a card payment without a booking: the same attempt states as `payments`, its own
-- reference for the gateway, and the client's idempotency key (one top-up per user and key).
CREATE TABLE wallet_top_ups (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id           uuid NOT NULL REFERENCES users (id),
    client_request_id text NOT NULL CHECK (length(client_request_id) BETWEEN 1 AND 100),
    gateway           text NOT NULL,
    reference         text NOT NULL UNIQUE,
    amount_cents      bigint NOT NULL CHECK (amount_cents > 0),
    card_last4        text NOT NULL CHECK (card_last4 ~ '^[0-9]{4}$'),
    status            text NOT NULL CHECK (status IN ('processing', 'approved', 'declined', 'error')),
    transaction_id    text,
    message           text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    settled_at        timestamptz,
    CONSTRAINT wallet_top_ups_one_per_request UNIQUE (user_id, client_request_id)
);
CREATE INDEX wallet_top_ups_processing_idx ON wallet_top_ups (created_at) WHERE status = 'processing';
CREATE INDEX wallet_top_ups_user_idx ON wallet_top_ups (user_id, created_at DESC);

-- Money given back from a balance to the card of one top-up (an admin's decision, audited); paid
-- through the gateway by the `wallet_refunds` job exactly once (looked up by reference after a lost answer).
CREATE TABLE wallet_refunds (
    id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id                uuid NOT NULL REFERENCES users (id),
    top_up_id              uuid NOT NULL REFERENCES wallet_top_ups (id),
    admin_id               uuid REFERENCES users (id),
    amount_cents           bigint NOT NULL CHECK (amount_cents > 0),
    reason                 text NOT NULL,
    status                 text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'not_needed')),
    gateway_transaction_id text,
    last_attempt_at        timestamptz,
    last_error             text,
    attempts               integer NOT NULL DEFAULT 0,
    created_at             timestamptz NOT NULL DEFAULT now(),
    completed_at           timestamptz
);
CREATE INDEX wallet_refunds_top_up_idx ON wallet_refunds (top_up_id);

CREATE TABLE wallet_entries (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          uuid NOT NULL REFERENCES users (id),
    kind             text NOT NULL CHECK (kind IN ('top_up', 'session_charge', 'refund', 'adjustment')),
    amount_cents     bigint NOT NULL CHECK (amount_cents <> 0),
    top_up_id        uuid UNIQUE REFERENCES wallet_top_ups (id),
    wallet_refund_id uuid REFERENCES wallet_refunds (id),
    note             text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT wallet_entries_top_up_has_its_payment CHECK ((kind = 'top_up') = (top_up_id IS NOT NULL)),
    CONSTRAINT wallet_entries_money_in_is_positive CHECK (kind <> 'top_up' OR amount_cents > 0),
    CONSTRAINT wallet_entries_money_out_is_negative CHECK (kind NOT IN ('session_charge', 'refund') OR amount_cents < 0),
    CONSTRAINT wallet_entries_refund_has_its_refund CHECK (kind <> 'refund' OR wallet_refund_id IS NOT NULL)
);
CREATE INDEX wallet_entries_user_idx ON wallet_entries (user_id, created_at DESC, id DESC);

-- Entries are immutable.
CREATE FUNCTION wallet_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'wallet entries are never changed or deleted';
END;
$$;
CREATE TRIGGER wallet_entries_no_update BEFORE UPDATE OR DELETE ON wallet_entries
    FOR EACH ROW EXECUTE FUNCTION wallet_entries_immutable();

-- The balance is the sum of the entries, moved with each one in its own transaction; the CHECKs of
-- `wallets` refuse an entry that would take it below zero or above the cap.
CREATE FUNCTION wallet_entries_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO wallets (user_id) VALUES (NEW.user_id) ON CONFLICT (user_id) DO NOTHING;
    UPDATE wallets SET balance_cents = balance_cents + NEW.amount_cents, updated_at = now()
     WHERE user_id = NEW.user_id;
    RETURN NEW;
END;
$$;
CREATE TRIGGER wallet_entries_balance AFTER INSERT ON wallet_entries
    FOR EACH ROW EXECUTE FUNCTION wallet_entries_apply();

-- A top-up's receipt: receipts are keyed by the payment, or here by the top-up.
ALTER TABLE receipts ADD COLUMN top_up_id uuid REFERENCES wallet_top_ups (id);
ALTER TABLE receipts DROP CONSTRAINT receipts_check1;
ALTER TABLE receipts ADD CONSTRAINT receipts_payment_has_its_money
    CHECK (kind <> 'payment' OR payment_id IS NOT NULL OR top_up_id IS NOT NULL);
CREATE UNIQUE INDEX receipts_one_per_top_up ON receipts (top_up_id) WHERE top_up_id IS NOT NULL;
