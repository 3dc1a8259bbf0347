-- Reports of abuse (issue 21, rule 2): anyone signed in reports what they can see; admins resolve
-- (hiding a review or a message, deactivating a user) or dismiss them.
CREATE TABLE reports (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    reporter_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    target_type  text NOT NULL CHECK (target_type IN ('mentor', 'user', 'message', 'review', 'group_session')),
    target_id    uuid NOT NULL,
    reason       text NOT NULL CHECK (reason IN ('harassment', 'scam_or_fraud', 'inappropriate_content', 'no_show', 'other')),
    details      text CHECK (char_length(details) <= 2000),
    status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
    action       text CHECK (action IN ('none', 'hide_review', 'hide_message', 'deactivate_user')),
    note         text CHECK (char_length(note) <= 1000),
    handled_by   uuid REFERENCES users (id) ON DELETE SET NULL,
    handled_at   timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- One report of a thing per reporter.
    CONSTRAINT reports_once_per_reporter UNIQUE (reporter_id, target_type, target_id),
    CHECK ((status = 'open') = (handled_at IS NULL)),
    CHECK ((status = 'resolved') = (action IS NOT NULL))
);
CREATE INDEX reports_status_idx ON reports (status, created_at DESC);
CREATE INDEX reports_reporter_idx ON reports (reporter_id, created_at DESC);

-- A review or a message an admin hid disappears for everyone; the row stays for the record.
ALTER TABLE reviews ADD COLUMN hidden_at timestamptz;
ALTER TABLE messages ADD COLUMN hidden_at timestamptz;

-- A mentor's rating and review count leave hidden reviews out.
CREATE OR REPLACE FUNCTION reviews_refresh_rating() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.mentor_id ELSE NEW.mentor_id END;
BEGIN
    UPDATE mentors m SET
        rating = coalesce((SELECT round(avg(rating), 2) FROM reviews WHERE mentor_id = target AND hidden_at IS NULL), 0),
        review_count = (SELECT count(*) FROM reviews WHERE mentor_id = target AND hidden_at IS NULL)
    WHERE m.id = target;
    RETURN NULL;
END $$;

DROP TRIGGER reviews_rating ON reviews;
CREATE TRIGGER reviews_rating AFTER INSERT OR UPDATE OF rating, hidden_at OR DELETE ON reviews
FOR EACH ROW EXECUTE FUNCTION reviews_refresh_rating();
