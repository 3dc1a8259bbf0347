-- The zone a user's browser last reported: e-mails and notifications state times in it.
ALTER TABLE users ADD COLUMN time_zone text;
