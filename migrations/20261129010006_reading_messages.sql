-- Issue 36, §3: a chat reading happens in the pair's conversation, and its messages carry the
-- reading's id. Whatever path stores a message (REST, the socket's batches), the database tags it
-- with the conversation's active chat reading, if any; messaging outside readings stays as it was.
ALTER TABLE messages ADD COLUMN instant_session_id uuid REFERENCES instant_sessions (id);
CREATE INDEX instant_sessions_active_conversation_idx ON instant_sessions (conversation_id) WHERE status = 'active';

CREATE FUNCTION messages_tag_reading() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.instant_session_id IS NULL THEN
        SELECT id INTO NEW.instant_session_id FROM instant_sessions
         WHERE conversation_id = NEW.conversation_id AND status = 'active' AND mode = 'chat'
         LIMIT 1;
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER messages_tag_reading BEFORE INSERT ON messages
    FOR EACH ROW EXECUTE FUNCTION messages_tag_reading();
