-- Marketing e-mails are opt-in from now on (an unticked box at registration). Accounts that exist
-- already keep what they had: a missing row meant "on" until now, so it is written down as such.
INSERT INTO email_preferences (user_id, marketing_emails)
SELECT u.id, true FROM users u
WHERE NOT EXISTS (SELECT 1 FROM email_preferences p WHERE p.user_id = u.id);
ALTER TABLE email_preferences ALTER COLUMN marketing_emails SET DEFAULT false;

-- Sign-ins: the user's latest, and with each session the one before it, so the app can greet a
-- first-time user with 'Welcome' and everyone after with 'Welcome back'.
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;
ALTER TABLE sessions ADD COLUMN previous_sign_in_at timestamptz;
UPDATE users u SET last_sign_in_at = (SELECT max(s.created_at) FROM sessions s WHERE s.user_id = u.id);
UPDATE sessions s SET previous_sign_in_at =
    (SELECT max(o.created_at) FROM sessions o WHERE o.user_id = s.user_id AND o.created_at < s.created_at);
