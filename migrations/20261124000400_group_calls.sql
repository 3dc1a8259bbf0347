-- Participants a mentor removed from a group session's call: they get no call token again.
CREATE TABLE group_call_removals (
    group_session_id uuid NOT NULL REFERENCES group_sessions (id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id),
    removed_by       uuid NOT NULL REFERENCES users (id),
    removed_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (group_session_id, user_id)
);
