-- A mentor's changes to their weekly windows on one date of their own calendar (in their zone):
-- a day off (that date's weekly windows are not offered), extra hours (a range offered on top of
-- them), or both on one row (only the extra hours are offered). Existing bookings are never
-- touched by an override.
CREATE TABLE availability_overrides (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    mentor_id    uuid NOT NULL REFERENCES mentors (id) ON DELETE CASCADE,
    date         date NOT NULL,
    is_day_off   boolean NOT NULL DEFAULT false,
    start_minute integer CHECK (start_minute BETWEEN 0 AND 1410 AND start_minute % 30 = 0),
    end_minute   integer CHECK (end_minute BETWEEN 30 AND 1440 AND end_minute % 30 = 0),
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- Extra hours are a whole range that ends after it starts.
    CHECK ((start_minute IS NULL) = (end_minute IS NULL)),
    CHECK (end_minute > start_minute),
    -- A row that changes nothing is not an override.
    CHECK (is_day_off OR start_minute IS NOT NULL),
    CONSTRAINT availability_overrides_no_overlap
        EXCLUDE USING gist (mentor_id WITH =, date WITH =, int4range(start_minute, end_minute) WITH &&)
        WHERE (start_minute IS NOT NULL)
);

-- A date is a day off once.
CREATE UNIQUE INDEX availability_overrides_one_day_off ON availability_overrides (mentor_id, date) WHERE is_day_off;
CREATE INDEX availability_overrides_by_mentor_date ON availability_overrides (mentor_id, date);
