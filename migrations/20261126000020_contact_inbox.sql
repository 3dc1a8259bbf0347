-- The contact inbox of the admin console: a message is open until an admin marks it answered.
ALTER TABLE contact_messages ADD COLUMN answered_at timestamptz;
ALTER TABLE contact_messages ADD COLUMN answered_by uuid REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX contact_messages_open_idx ON contact_messages (created_at DESC) WHERE answered_at IS NULL;
