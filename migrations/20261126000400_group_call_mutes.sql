-- A participant the mentor muted stays muted in that session's call until the mentor unmutes them:
-- a reload or a reconnection joins them muted again (issue 19, point 4).
CREATE TABLE group_call_mutes (
    group_session_id uuid NOT NULL REFERENCES group_sessions (id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (group_session_id, user_id)
);
