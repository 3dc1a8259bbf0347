-- Issue 36, §3: a reading's complaint keeps its decision as a booking's does (the outcome, what went
-- back to the wallet, the admin's note, when and by whom), so the note is shown where a booking's is;
-- and a refund of a reading that a paid payout holds comes off the mentor's next payout as a negative
-- adjustment naming the reading (one per reading: a reading has one complaint, decided once).
ALTER TABLE instant_session_complaints
    ADD COLUMN outcome       text CHECK (outcome IN ('full_refund', 'partial_refund', 'no_refund')),
    ADD COLUMN outcome_cents bigint CHECK (outcome_cents >= 0),
    ADD COLUMN note          text CHECK (char_length(note) BETWEEN 1 AND 1000),
    ADD COLUMN decided_at    timestamptz,
    ADD COLUMN decided_by    uuid REFERENCES users (id);

-- Complaints decided before these columns existed: their decision is in the audit log.
UPDATE instant_session_complaints c
SET outcome = a.after ->> 'outcome',
    outcome_cents = round((a.after ->> 'amount')::numeric * 100)::bigint,
    note = a.after ->> 'note',
    decided_at = a.created_at,
    decided_by = a.admin_id
FROM admin_audit a
WHERE a.action = 'reading_complaint.decide' AND a.object_id = c.id::text AND c.status <> 'open';

ALTER TABLE instant_session_complaints ADD CONSTRAINT instant_session_complaints_decision_check CHECK (
    (status = 'open') = (outcome IS NULL)
    AND (status = 'open' OR (outcome_cents IS NOT NULL AND note IS NOT NULL AND decided_at IS NOT NULL))
    AND (status <> 'rejected' OR outcome = 'no_refund')
    AND (status <> 'resolved' OR outcome IN ('full_refund', 'partial_refund')));

ALTER TABLE payout_adjustments ADD COLUMN instant_session_id uuid REFERENCES instant_sessions (id);
ALTER TABLE payout_adjustments DROP CONSTRAINT payout_adjustments_check;
ALTER TABLE payout_adjustments ADD CONSTRAINT payout_adjustments_check CHECK (
    reason <> 'refund' OR (amount_cents < 0 AND (
        (refund_id IS NOT NULL AND booking_id IS NOT NULL AND instant_session_id IS NULL)
        OR (instant_session_id IS NOT NULL AND booking_id IS NULL AND refund_id IS NULL))));
CREATE UNIQUE INDEX payout_adjustments_one_per_reading ON payout_adjustments (instant_session_id)
    WHERE instant_session_id IS NOT NULL;
