-- Every api process keeps the public catalogue (listings, mentor and service pages) in memory and
-- forgets it when anything those pages show changes, in any process: each statement that changes
-- such a row announces it on the channel `catalogue_changed` (delivered at commit; several in one
-- transaction arrive as one).
CREATE FUNCTION announce_catalogue_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('catalogue_changed', '');
    RETURN NULL;
END $$;

CREATE TRIGGER mentors_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mentors
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();
CREATE TRIGGER services_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON services
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();
CREATE TRIGGER reviews_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reviews
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();
CREATE TRIGGER availability_slots_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON availability_slots
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();
CREATE TRIGGER availability_overrides_announce_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON availability_overrides
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();
-- A mentor card shows its user's name and picture and hides a deactivated user.
CREATE TRIGGER users_announce_change AFTER UPDATE OF first_name, last_name, profile_image_url, is_active OR DELETE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();
