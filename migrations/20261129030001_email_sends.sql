-- Issue 37, §4: each e-mail the e-mail job sends, once. apalis runs a task at least once: a worker
-- killed, or cut off from the database, after the SMTP server accepted a mail but before it marked
-- the task done runs it again (the chaos soak saw a "Booking cancelled" mail twice). A mail is
-- claimed here before it is sent and marked sent once the server accepted it; a run that finds its
-- mail marked sent skips it. Keyed by the task (apalis.jobs.id, a ULID never reused), the recipient
-- and the mail's place among that task's mails to that recipient: a second run of a task is
-- deduplicated, a second request (another task) is a second mail. The recipient is kept only as a
-- digest of the address. Rows go after `domain::mail::sends::KEEP_DAYS` (the daily cleanup).
CREATE TABLE email_sends (
    task_id          text NOT NULL,
    -- SHA-256 of the lower-cased address.
    recipient_digest bytea NOT NULL,
    -- 0 for the task's first mail to this recipient, 1 for a second one, ...
    seq              integer NOT NULL CHECK (seq >= 0),
    -- The e-mail job's kind (`booking_cancelled`), for whoever reads the table.
    kind             text NOT NULL,
    -- Until when the run that claimed the mail may still be sending it; after that (it died, or its
    -- send failed and it let go) a run of the same task may claim it again.
    claimed_until    timestamptz NOT NULL,
    -- How many runs claimed it (more than one: it was tried again).
    claims           integer NOT NULL DEFAULT 1,
    created_at       timestamptz NOT NULL DEFAULT now(),
    -- When the SMTP server accepted it; null while it is not (known to be) sent.
    sent_at          timestamptz,
    PRIMARY KEY (task_id, recipient_digest, seq)
);
CREATE INDEX email_sends_created_at_idx ON email_sends (created_at);
