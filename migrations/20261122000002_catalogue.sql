-- The catalogue: mentor profiles, their services, favourites, reviews and contact messages.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE mentors (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    display_name      text NOT NULL CHECK (char_length(display_name) BETWEEN 2 AND 100),
    bio               text NOT NULL CHECK (char_length(bio) BETWEEN 50 AND 500),
    specialties       text[] NOT NULL CHECK (cardinality(specialties) BETWEEN 1 AND 14),
    base_price_cents  bigint NOT NULL CHECK (base_price_cents >= 0),
    profile_image_url text,
    time_zone         text NOT NULL DEFAULT 'UTC',
    rating            numeric(3, 2) NOT NULL DEFAULT 0,
    review_count      integer NOT NULL DEFAULT 0,
    total_sessions    integer NOT NULL DEFAULT 0,
    is_active         boolean NOT NULL DEFAULT true,
    -- maintained by triggers below: what search matches against
    search_text       text NOT NULL DEFAULT '',
    search_vector     tsvector NOT NULL DEFAULT ''::tsvector,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT mentors_user_id_key UNIQUE (user_id)
);
CREATE INDEX mentors_search_vector_idx ON mentors USING gin (search_vector);

-- Every word that appears in any mentor's search text. Typo tolerance looks up the words
-- similar to each query word here (a small table with a trigram index), then searches the
-- full-text index for any of them: fast at any catalogue size.
CREATE TABLE search_words (
    word text PRIMARY KEY
);
CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);

-- OR and AND over many tsquery values, for building a query from word alternatives.
CREATE AGGREGATE tsquery_or_agg(tsquery) (SFUNC = tsquery_or, STYPE = tsquery);
CREATE AGGREGATE tsquery_and_agg(tsquery) (SFUNC = tsquery_and, STYPE = tsquery);
-- The default order of the listing, so its first page is read straight off the index.
CREATE INDEX mentors_rating_idx ON mentors (rating DESC, review_count DESC, total_sessions DESC, created_at, id) WHERE is_active;
CREATE INDEX mentors_price_idx ON mentors (base_price_cents) WHERE is_active;

CREATE TABLE services (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id        uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    title            text NOT NULL CHECK (char_length(title) BETWEEN 3 AND 120),
    description      text NOT NULL CHECK (char_length(description) BETWEEN 20 AND 2000),
    service_type     text NOT NULL CHECK (service_type IN ('astrology', 'tarot', 'energy_healing',
                                          'mystical_practices', 'relationship_guidance', 'meditation')),
    price_cents      bigint NOT NULL CHECK (price_cents >= 0),
    duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 15 AND 480),
    is_active        boolean NOT NULL DEFAULT true,
    is_group_session boolean NOT NULL DEFAULT false,
    max_participants integer CHECK (max_participants BETWEEN 2 AND 20),
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (NOT is_group_session OR max_participants IS NOT NULL)
);
CREATE INDEX services_mentor_id_idx ON services (mentor_id);
CREATE INDEX services_type_price_idx ON services (service_type, price_cents) WHERE is_active;

CREATE TABLE favorites (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mentor_id  uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, mentor_id)
);
CREATE INDEX favorites_mentor_id_idx ON favorites (mentor_id);

CREATE TABLE reviews (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id  uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- one review per booking (bookings arrive with the booking work)
    booking_id uuid,
    rating     smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment    text CHECK (char_length(comment) <= 2000),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT reviews_booking_id_key UNIQUE (booking_id)
);
CREATE INDEX reviews_mentor_id_idx ON reviews (mentor_id, created_at DESC);

CREATE TABLE contact_messages (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id    uuid REFERENCES users (id) ON DELETE SET NULL,
    name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    email      text NOT NULL CHECK (char_length(email) <= 254),
    subject    text NOT NULL DEFAULT '' CHECK (char_length(subject) <= 200),
    category   text NOT NULL DEFAULT 'general' CHECK (category IN ('general', 'technical', 'billing', 'mentor',
                                                                  'report', 'partnership', 'feedback')),
    message    text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 5000),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A user is a mentor when a mentor profile exists: the role stays derived.
CREATE OR REPLACE VIEW user_accounts AS
SELECT u.*,
       CASE WHEN u.is_admin THEN 'admin'
            WHEN EXISTS (SELECT 1 FROM mentors m WHERE m.user_id = u.id) THEN 'mentor'
            ELSE 'user' END AS role
FROM users u;

-- Search text: name and specialties weigh most, then active service titles, then the bio.
CREATE FUNCTION mentors_refresh_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    titles text;
BEGIN
    SELECT coalesce(string_agg(title, ' '), '') INTO titles
    FROM services WHERE mentor_id = NEW.id AND is_active;
    NEW.search_text := concat_ws(' ', NEW.display_name, array_to_string(NEW.specialties, ' '), titles, NEW.bio);
    NEW.search_vector :=
        setweight(to_tsvector('english', NEW.display_name), 'A') ||
        setweight(to_tsvector('english', array_to_string(NEW.specialties, ' ')), 'A') ||
        setweight(to_tsvector('english', titles), 'B') ||
        setweight(to_tsvector('english', NEW.bio), 'C');
    INSERT INTO search_words (word)
    SELECT DISTINCT lower(w) FROM regexp_split_to_table(NEW.search_text, '[^[:alnum:]]+') AS w
    WHERE char_length(w) BETWEEN 3 AND 40
    ON CONFLICT DO NOTHING;
    RETURN NEW;
END $$;

CREATE TRIGGER mentors_search BEFORE INSERT OR UPDATE OF display_name, bio, specialties ON mentors
FOR EACH ROW EXECUTE FUNCTION mentors_refresh_search();

CREATE FUNCTION services_touch_mentor_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE mentors SET display_name = display_name WHERE id = OLD.mentor_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        UPDATE mentors SET display_name = display_name WHERE id = NEW.mentor_id;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER services_search AFTER INSERT OR DELETE OR UPDATE OF title, is_active, mentor_id ON services
FOR EACH ROW EXECUTE FUNCTION services_touch_mentor_search();

-- A mentor's rating is the average of their reviews, kept with the reviews.
CREATE FUNCTION reviews_refresh_rating() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    target uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.mentor_id ELSE NEW.mentor_id END;
BEGIN
    UPDATE mentors m SET
        rating = coalesce((SELECT round(avg(rating), 2) FROM reviews WHERE mentor_id = target), 0),
        review_count = (SELECT count(*) FROM reviews WHERE mentor_id = target)
    WHERE m.id = target;
    RETURN NULL;
END $$;

CREATE TRIGGER reviews_rating AFTER INSERT OR UPDATE OF rating OR DELETE ON reviews
FOR EACH ROW EXECUTE FUNCTION reviews_refresh_rating();
