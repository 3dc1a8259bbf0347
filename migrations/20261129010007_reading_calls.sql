-- Issue 36, §3: a video reading uses the one-to-one call path, bound to the reading as calls are bound
-- to bookings. A call placed in the pair's conversation while their video reading is active names it.
ALTER TABLE calls ADD COLUMN instant_session_id uuid REFERENCES instant_sessions (id);

CREATE FUNCTION calls_tag_reading() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.instant_session_id IS NULL THEN
        SELECT s.id INTO NEW.instant_session_id FROM instant_sessions s
          JOIN conversations c ON c.mentor_id = s.mentor_id AND c.user_id = s.seeker_id
         WHERE c.id = NEW.conversation_id AND s.status = 'active' AND s.mode = 'video'
         LIMIT 1;
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER calls_tag_reading BEFORE INSERT ON calls
    FOR EACH ROW EXECUTE FUNCTION calls_tag_reading();
