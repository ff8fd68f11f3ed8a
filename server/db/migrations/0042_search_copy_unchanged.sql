-- Issue 20 (approving an invitation): a statement updating users without changing what user_search copies (a grant bumps
-- the person's version; a profile's phone number) wrote nothing there, but still ran an UPDATE of user_search, which fired
-- user_search's own statement triggers (the counts of short strings, within roles, the words) each for no row: 0.6 ms of
-- an approval at 32 connections. Now the copy returns before its UPDATE when no copied field changed.
-- Runs on PostgreSQL 15 and PGlite.

CREATE OR REPLACE FUNCTION copy_changed_users() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off SET jit = off AS $$
BEGIN
  IF NOT EXISTS (SELECT id, first_name, last_name, email, is_active, last_login_at FROM new_rows
                 EXCEPT SELECT id, first_name, last_name, email, is_active, last_login_at FROM old_rows) THEN
    RETURN NULL;
  END IF;
  UPDATE user_search AS s
  SET is_active = n.is_active, name = search_fold(n.first_name || ' ' || n.last_name), email = search_fold(n.email), folded = true,
      name_key = lower(n.last_name || n.first_name), email_key = lower(n.email), last_login_at = n.last_login_at
  FROM (SELECT id, first_name, last_name, email, is_active, last_login_at FROM new_rows
        EXCEPT SELECT id, first_name, last_name, email, is_active, last_login_at FROM old_rows) AS n
  WHERE s.id = n.id;
  RETURN NULL;
END $$;
