-- A mentor's name gets its own weight (D) in the search vector, apart from the specialties (A),
-- so a search can tell a word found in the name from one found in what the mentor offers:
-- a typo-tolerant match on the name alone ('tarot' ~ 'Tariq') must not list a mentor when
-- other mentors match in their services, specialties or bio (domain/src/catalogue/search.rs).
-- Ranking is unchanged: searches rank with weight D at 1.0, as A ({D,C,B,A} = {1.0,0.2,0.4,1.0}).
CREATE OR REPLACE FUNCTION mentors_refresh_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    titles text;
BEGIN
    SELECT coalesce(string_agg(title, ' '), '') INTO titles
    FROM services WHERE mentor_id = NEW.id AND is_active;
    NEW.search_text := concat_ws(' ', NEW.display_name, array_to_string(NEW.specialties, ' '), titles, NEW.bio);
    NEW.search_vector :=
        setweight(to_tsvector('english', NEW.display_name), 'D') ||
        setweight(to_tsvector('english', array_to_string(NEW.specialties, ' ')), 'A') ||
        setweight(to_tsvector('english', titles), 'B') ||
        setweight(to_tsvector('english', NEW.bio), 'C');
    INSERT INTO search_words (word)
    SELECT DISTINCT lower(w) FROM regexp_split_to_table(NEW.search_text, '[^[:alnum:]]+') AS w
    WHERE char_length(w) BETWEEN 3 AND 40
    ON CONFLICT DO NOTHING;
    RETURN NEW;
END $$;

-- Recompute every mentor's vector through the trigger.
UPDATE mentors SET display_name = display_name;
