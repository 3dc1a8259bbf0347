-- A mentor removes a participant from a group session's call for a reason that decides the money
-- (issue 30): 'conduct' keeps the seat paid (it completes with the session, so the mentor is paid),
-- 'other' cancels the seat and refunds it in full. Removals made before reasons existed refunded
-- nothing, as 'conduct' does now; a new removal must name its reason.
ALTER TABLE group_call_removals ADD COLUMN reason text NOT NULL DEFAULT 'conduct'
    CHECK (reason IN ('conduct', 'other'));
ALTER TABLE group_call_removals ALTER COLUMN reason DROP DEFAULT;

-- The refund of a seat removed for 'other' says why it exists, beside a cancellation's and a late
-- charge's reversal.
ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check
    CHECK (reason IN ('cancellation', 'reversal', 'removed_by_mentor'));
