-- Catalogue changes name the mentors they touch, so an api process forgets only the cached pages
-- a change can have altered instead of all of them (api/src/catalogue_cache/). The payload on
-- `catalogue_changed` is a space-separated list of `<class><mentor id>`, one per mentor touched:
--   o  what lists the mentor, or where, may have changed (listed or not, price, rating, reviews
--      counted, sessions, service types, creation time, the user's active flag): every listing;
--   t  the mentor's search text changed (name, specialties, service titles, bio): every search,
--      and every page that shows the mentor;
--   v  only what the mentor's pages and cards show (image, time zone, notice, a service's
--      description, price or duration, availability, reviews' texts): the pages that show them.
-- An empty payload (a TRUNCATE, or more than 100 mentors in one statement) means everything.
-- Notifications are delivered at commit; identical payloads of one transaction arrive once.

CREATE FUNCTION catalogue_announce(changes text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    payload text;
    touched int;
BEGIN
    -- One entry per mentor with its widest class ('o' < 't' < 'v' as text).
    SELECT count(*), string_agg(c, ' ' ORDER BY c) INTO touched, payload
    FROM (SELECT min(left(x, 1)) || substr(x, 2) AS c FROM unnest(changes) AS x
          WHERE x IS NOT NULL GROUP BY substr(x, 2)) t;
    IF touched = 0 THEN
        RETURN;
    END IF;
    IF touched > 100 THEN
        payload := '';
    END IF;
    PERFORM pg_notify('catalogue_changed', payload);
END $$;

CREATE FUNCTION mentors_announce_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM catalogue_announce(ARRAY(SELECT 'o' || id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM catalogue_announce(ARRAY(SELECT 'o' || id FROM old_rows));
    ELSE
        PERFORM catalogue_announce(ARRAY(
            SELECT CASE
                WHEN o.id IS NULL OR n.id IS NULL THEN 'o'
                WHEN (o.is_active, o.approval_status, o.from_price_cents, o.rating, o.review_count, o.total_sessions,
                      o.created_at, o.user_id)
                     IS DISTINCT FROM
                     (n.is_active, n.approval_status, n.from_price_cents, n.rating, n.review_count, n.total_sessions,
                      n.created_at, n.user_id) THEN 'o'
                WHEN o.search_vector IS DISTINCT FROM n.search_vector THEN 't'
                ELSE 'v' END || coalesce(n.id, o.id)
            FROM old_rows o FULL JOIN new_rows n ON n.id = o.id));
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION services_announce_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM catalogue_announce(ARRAY(SELECT 'o' || mentor_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM catalogue_announce(ARRAY(SELECT 'o' || mentor_id FROM old_rows));
    ELSE
        -- A new price or title reaches the mentor's row (from_price_cents, search_vector), whose
        -- own trigger announces it as 'o' or 't'.
        PERFORM catalogue_announce(ARRAY(
            SELECT CASE
                WHEN o.id IS NULL OR n.id IS NULL THEN 'o'
                WHEN (o.is_active, o.service_type, o.mentor_id) IS DISTINCT FROM (n.is_active, n.service_type, n.mentor_id)
                    THEN 'o'
                ELSE 'v' END || m
            FROM old_rows o FULL JOIN new_rows n ON n.id = o.id,
                 LATERAL (VALUES (o.mentor_id), (n.mentor_id)) AS t (m)
            WHERE m IS NOT NULL));
    END IF;
    RETURN NULL;
END $$;

-- Reviews, weekly availability and date overrides: their mentor's pages ('v'); a review's
-- effect on the rating reaches the mentor's row, which announces it as 'o'.
CREATE FUNCTION mentor_rows_announce_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM catalogue_announce(ARRAY(SELECT 'v' || mentor_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM catalogue_announce(ARRAY(SELECT 'v' || mentor_id FROM old_rows));
    ELSE
        PERFORM catalogue_announce(ARRAY(
            SELECT 'v' || mentor_id FROM old_rows UNION ALL SELECT 'v' || mentor_id FROM new_rows));
    END IF;
    RETURN NULL;
END $$;

-- A mentor card shows its user's name and picture, and a deactivated user's mentor is not listed.
CREATE FUNCTION users_announce_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM catalogue_announce(ARRAY(SELECT 'o' || m.id FROM old_rows o JOIN mentors m ON m.user_id = o.id));
    ELSE
        PERFORM catalogue_announce(ARRAY(
            SELECT CASE WHEN o.is_active IS DISTINCT FROM n.is_active THEN 'o' ELSE 'v' END || m.id
            FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN mentors m ON m.user_id = n.id
            WHERE (o.first_name, o.last_name, o.profile_image_url, o.is_active)
                  IS DISTINCT FROM (n.first_name, n.last_name, n.profile_image_url, n.is_active)));
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER mentors_announce_change ON mentors;
DROP TRIGGER services_announce_change ON services;
DROP TRIGGER reviews_announce_change ON reviews;
DROP TRIGGER availability_slots_announce_change ON availability_slots;
DROP TRIGGER availability_overrides_announce_change ON availability_overrides;
DROP TRIGGER users_announce_change ON users;

-- Transition tables take one event per trigger.
CREATE TRIGGER mentors_announce_insert AFTER INSERT ON mentors REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentors_announce_changes();
CREATE TRIGGER mentors_announce_update AFTER UPDATE ON mentors REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentors_announce_changes();
CREATE TRIGGER mentors_announce_delete AFTER DELETE ON mentors REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentors_announce_changes();
CREATE TRIGGER mentors_announce_truncate AFTER TRUNCATE ON mentors
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();

CREATE TRIGGER services_announce_insert AFTER INSERT ON services REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION services_announce_changes();
CREATE TRIGGER services_announce_update AFTER UPDATE ON services REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION services_announce_changes();
CREATE TRIGGER services_announce_delete AFTER DELETE ON services REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION services_announce_changes();
CREATE TRIGGER services_announce_truncate AFTER TRUNCATE ON services
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();

CREATE TRIGGER reviews_announce_insert AFTER INSERT ON reviews REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER reviews_announce_update AFTER UPDATE ON reviews REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER reviews_announce_delete AFTER DELETE ON reviews REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER reviews_announce_truncate AFTER TRUNCATE ON reviews
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();

CREATE TRIGGER availability_slots_announce_insert AFTER INSERT ON availability_slots REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER availability_slots_announce_update AFTER UPDATE ON availability_slots
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER availability_slots_announce_delete AFTER DELETE ON availability_slots REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER availability_slots_announce_truncate AFTER TRUNCATE ON availability_slots
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();

CREATE TRIGGER availability_overrides_announce_insert AFTER INSERT ON availability_overrides
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER availability_overrides_announce_update AFTER UPDATE ON availability_overrides
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER availability_overrides_announce_delete AFTER DELETE ON availability_overrides
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION mentor_rows_announce_changes();
CREATE TRIGGER availability_overrides_announce_truncate AFTER TRUNCATE ON availability_overrides
    FOR EACH STATEMENT EXECUTE FUNCTION announce_catalogue_change();

CREATE TRIGGER users_announce_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION users_announce_changes();
CREATE TRIGGER users_announce_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION users_announce_changes();
