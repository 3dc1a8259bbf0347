-- Announcements from the admins: one system_announcement notification for every active user of the
-- audience, written by the worker in batches.
CREATE TABLE announcements (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    audience        text NOT NULL CHECK (audience IN ('all', 'seekers', 'mentors')),
    title           text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 100),
    message         text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 1000),
    created_by      uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- Notifications written so far (each batch adds its own in its transaction).
    delivered_count integer NOT NULL DEFAULT 0,
    completed_at    timestamptz
);
CREATE INDEX announcements_created_idx ON announcements (created_at DESC);

-- Each user gets an announcement at most once, however often its task runs.
ALTER TABLE notifications ADD COLUMN announcement_id uuid REFERENCES announcements (id) ON DELETE SET NULL;
CREATE UNIQUE INDEX notifications_one_per_announcement ON notifications (announcement_id, user_id)
    WHERE announcement_id IS NOT NULL;
