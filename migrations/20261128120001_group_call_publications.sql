-- What each member publishes in a session's call, as Janus reported it when it accepted their last
-- offer: the mids of their audio streams. The mentor's mute moderates every one of them, wherever
-- the offer put its audio (issue 29, point 3); a new join clears the row until the member publishes.
CREATE TABLE group_call_publications (
    group_session_id uuid NOT NULL REFERENCES group_sessions (id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    audio_mids       text[] NOT NULL,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (group_session_id, user_id)
);
