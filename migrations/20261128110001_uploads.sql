-- Uploads belong to their uploader: a profile picture (a user's or a mentor's) must be an upload of
-- the same user. Files already shown as someone's picture are theirs (the user's own picture first,
-- then the mentor profile's, each path once).
CREATE TABLE uploads (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    path text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX uploads_owner_idx ON uploads (owner);

INSERT INTO uploads (owner, path)
SELECT id, profile_image_url FROM users WHERE profile_image_url LIKE '/uploads/%'
ON CONFLICT (path) DO NOTHING;

INSERT INTO uploads (owner, path)
SELECT user_id, profile_image_url FROM mentors WHERE profile_image_url LIKE '/uploads/%'
ON CONFLICT (path) DO NOTHING;
