-- Issue 33 §5: a mentor's buffers around this platform's sessions and their daily cap.
ALTER TABLE mentors
    ADD COLUMN buffer_before_minutes integer NOT NULL DEFAULT 0
        CONSTRAINT mentors_buffer_before_range CHECK (buffer_before_minutes BETWEEN 0 AND 120),
    ADD COLUMN buffer_after_minutes integer NOT NULL DEFAULT 0
        CONSTRAINT mentors_buffer_after_range CHECK (buffer_after_minutes BETWEEN 0 AND 120),
    -- NULL: no cap. Counted in the mentor's local day; a group session counts once.
    ADD COLUMN max_bookings_per_day integer
        CONSTRAINT mentors_max_bookings_per_day_range CHECK (max_bookings_per_day BETWEEN 1 AND 50);
