-- What a visitor can trust: a mentor's "From" price is their cheapest active service (NULL: no
-- active service, so not listed), and a minimum notice below which no time is offered or accepted.

ALTER TABLE mentors ADD COLUMN from_price_cents bigint;

CREATE FUNCTION mentors_refresh_from_price(target uuid) RETURNS void LANGUAGE sql AS $$
    UPDATE mentors SET from_price_cents = (SELECT min(price_cents) FROM services WHERE mentor_id = target AND is_active)
    WHERE id = target;
$$;

CREATE FUNCTION services_refresh_from_price() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM mentors_refresh_from_price(OLD.mentor_id);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW.mentor_id IS DISTINCT FROM OLD.mentor_id) THEN
        PERFORM mentors_refresh_from_price(NEW.mentor_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER services_from_price AFTER INSERT OR DELETE OR UPDATE OF price_cents, is_active, mentor_id ON services
FOR EACH ROW EXECUTE FUNCTION services_refresh_from_price();

UPDATE mentors m SET from_price_cents = (SELECT min(price_cents) FROM services s WHERE s.mentor_id = m.id AND s.is_active);

CREATE INDEX mentors_from_price_idx ON mentors (from_price_cents, rating DESC, review_count DESC, total_sessions DESC, created_at, id)
    WHERE is_active AND from_price_cents IS NOT NULL;

ALTER TABLE mentors ADD COLUMN minimum_notice_minutes integer NOT NULL DEFAULT 120
    CHECK (minimum_notice_minutes BETWEEN 0 AND 10080);
