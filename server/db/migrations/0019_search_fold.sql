-- Issue 20: the users' search ignores accents and case ('helene' finds Hélène, 'LEFEVRE' finds Lefèvre, 'oe'
-- finds œ), and the total of a search of one to three characters is read from counts kept by triggers instead
-- of counting a large part of the users (a one- or two-letter term took over a second at a million users: no
-- trigram index serves it).
-- Online: nothing here rewrites a large table. user_search's rows are folded afterwards, in short batches, by
-- the job search.backfill (server/jobs/search-backfill.ts); until it is through, the search keeps its former
-- meaning as well (server/features/users/users-search.repository.ts), and the counts are not used.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).

-- ---------------------------------------------------------------------------------------------
-- 1. The folding: composed first (NFC: an 'e' followed by a combining accent, as some sources write names, is
-- 'é'), lower case, the accents of Latin letters dropped, ligatures spelt out, the Greek final sigma as any sigma
-- (JavaScript and PostgreSQL lower a capital sigma differently). Its mirror in
-- TypeScript (server/core/search-fold.ts) folds the term; a test holds the two equal on every Latin letter.
-- Upper and lower case are both in the table: a database whose lower() knows only ASCII folds them alike.

CREATE FUNCTION search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT replace(replace(replace(replace(replace(replace(lower(translate(normalize($1, NFC),
    'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžĐđŁłØøĦħı',
    'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzddlloohhi')),
    'œ', 'oe'), 'Œ', 'oe'), 'æ', 'ae'), 'Æ', 'ae'), 'ß', 'ss'), 'ς', 'σ')
$$;

-- ---------------------------------------------------------------------------------------------
-- 2. user_search holds the folded full name and e-mail. A row written from now on is folded (the triggers of
-- section 4); the rows already there are folded by the backfill, which marks each one.

ALTER TABLE user_search ADD COLUMN folded boolean NOT NULL DEFAULT false;
-- The list's sort keys, as users' sort indexes hold them, written with the folding: a page of a term's matches is
-- sorted out of user_search alone, without looking each match up in users (the lookups took most of the time).
ALTER TABLE user_search ADD COLUMN name_key text;
ALTER TABLE user_search ADD COLUMN email_key text;
ALTER TABLE user_search ADD COLUMN last_login_at timestamptz;

-- Where the backfill stands: the last id it folded (ids in order), and whether it is through.
CREATE TABLE user_search_backfill (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  after_id uuid,
  done     boolean NOT NULL
);
INSERT INTO user_search_backfill (after_id, done) SELECT NULL, NOT EXISTS (SELECT 1 FROM user_search);

-- ---------------------------------------------------------------------------------------------
-- 3. The number of users whose folded name or e-mail holds each string of one to three characters: of every user
-- (inactive_only false) and of the inactive ones (true), so that a deactivation moves one count per string, not two;
-- the active ones are the difference. One row per connection as user_counts does (writers never wait for one
-- another). Only folded rows are counted: once the backfill is through, the sums of a gram's rows are exact, in any
-- transaction.

CREATE TABLE user_search_gram_counts (
  gram      text NOT NULL,
  inactive_only boolean NOT NULL,
  backend       integer NOT NULL,
  n             bigint NOT NULL,
  PRIMARY KEY (gram, inactive_only, backend)
);

-- The distinct strings of one to three characters of a name and an e-mail (none across the two).
CREATE FUNCTION search_grams(name text, email text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT substr(v.s, i, k)
  FROM (VALUES (name), (email)) AS v (s)
  CROSS JOIN generate_series(1, 3) AS k
  CROSS JOIN LATERAL generate_series(1, length(v.s) - k + 1) AS i
$$;

-- The counts a row makes (once folded): each of its strings once for everyone, once more if the user is inactive.
-- Plain SQL, inlined where it is called: the triggers' statements are planned once per connection (a statement built
-- with EXECUTE was planned at every write, about 0.5 ms more per user written).
CREATE FUNCTION search_gram_rows(name text, email text, is_active boolean, OUT gram text, OUT inactive_only boolean)
RETURNS SETOF record LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT g, k.inactive_only FROM search_grams(name, email) AS g CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
  WHERE NOT k.inactive_only OR NOT is_active
$$;

-- Rows inserted or deleted, as the transition table `changed_rows`.
CREATE FUNCTION count_search_grams_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_search_gram_counts AS c (gram, inactive_only, backend, n)
  SELECT x.gram, x.inactive_only, pg_backend_pid(), CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END * count(*)
  FROM changed_rows AS r CROSS JOIN LATERAL search_gram_rows(r.name, r.email, r.is_active) AS x
  WHERE r.folded GROUP BY 1, 2
  ON CONFLICT (gram, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- Only the rows whose counted fields changed: a sign-in moves last_login_at alone, and its strings are not read.
CREATE FUNCTION count_search_grams_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_search_gram_counts AS c (gram, inactive_only, backend, n)
  SELECT gram, inactive_only, pg_backend_pid(), sum(d)
  FROM (SELECT r.name, r.email, r.is_active, r.folded, o.name AS old_name, o.email AS old_email, o.is_active AS old_active, o.folded AS old_folded
        FROM new_rows AS r JOIN old_rows AS o USING (id)
        WHERE (r.name, r.email, r.is_active, r.folded) IS DISTINCT FROM (o.name, o.email, o.is_active, o.folded)) AS changed
  CROSS JOIN LATERAL (
    SELECT x.gram, x.inactive_only, 1 AS d FROM search_gram_rows(changed.name, changed.email, changed.is_active) AS x WHERE changed.folded
    UNION ALL
    SELECT x.gram, x.inactive_only, -1 FROM search_gram_rows(changed.old_name, changed.old_email, changed.old_active) AS x WHERE changed.old_folded) AS delta
  GROUP BY 1, 2 HAVING sum(d) <> 0
  ON CONFLICT (gram, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION clear_search_grams() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_search_gram_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER user_search_grams_insert AFTER INSERT ON user_search REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_grams_of_rows();
CREATE TRIGGER user_search_grams_delete AFTER DELETE ON user_search REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_grams_of_rows();
CREATE TRIGGER user_search_grams_update AFTER UPDATE ON user_search REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_grams_updated();
CREATE TRIGGER user_search_grams_truncate AFTER TRUNCATE ON user_search
  FOR EACH STATEMENT EXECUTE FUNCTION clear_search_grams();

-- From scratch, after a load that bypassed the triggers (the benchmark seed).
CREATE FUNCTION recount_search_grams() RETURNS void LANGUAGE sql AS $$
  DELETE FROM user_search_gram_counts;
  INSERT INTO user_search_gram_counts (gram, inactive_only, backend, n)
  SELECT x.gram, x.inactive_only, 0, count(*) FROM user_search AS s CROSS JOIN LATERAL search_gram_rows(s.name, s.email, s.is_active) AS x
  WHERE s.folded GROUP BY 1, 2;
$$;

-- ---------------------------------------------------------------------------------------------
-- 4. The copies from users are written folded (they replace those of migration 0004).

CREATE OR REPLACE FUNCTION copy_inserted_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_search (id, is_active, name, email, folded, name_key, email_key, last_login_at)
  SELECT id, is_active, search_fold(first_name || ' ' || last_name), search_fold(email), true,
         lower(last_name || first_name), lower(email), last_login_at
  FROM new_rows;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION copy_changed_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_search
  SET is_active = NEW.is_active, name = search_fold(NEW.first_name || ' ' || NEW.last_name), email = search_fold(NEW.email), folded = true,
      name_key = lower(NEW.last_name || NEW.first_name), email_key = lower(NEW.email), last_login_at = NEW.last_login_at
  WHERE id = NEW.id;
  RETURN NULL;
END $$;

-- A sign-in moves the last-login sort key too.
DROP TRIGGER users_search_update ON users;
CREATE TRIGGER users_search_update AFTER UPDATE OF first_name, last_name, email, is_active, last_login_at ON users
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
                     OR OLD.email IS DISTINCT FROM NEW.email OR OLD.is_active IS DISTINCT FROM NEW.is_active
                     OR OLD.last_login_at IS DISTINCT FROM NEW.last_login_at)
  EXECUTE FUNCTION copy_changed_user();

-- One batch of the backfill: the next `size` rows after `after` in id order, folded and marked; answers the
-- last id it passed (null when none was left: the backfill is through, and says so in the same transaction).
CREATE FUNCTION backfill_user_search(after uuid, size integer) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  last_id uuid;
BEGIN
  SELECT batch.id INTO last_id FROM (
    SELECT id FROM user_search WHERE after IS NULL OR id > after ORDER BY id LIMIT size) AS batch
  ORDER BY batch.id DESC LIMIT 1;
  IF last_id IS NULL THEN
    UPDATE user_search_backfill SET done = true;
    RETURN NULL;
  END IF;
  UPDATE user_search AS s
  SET name = search_fold(u.first_name || ' ' || u.last_name), email = search_fold(u.email), folded = true,
      name_key = lower(u.last_name || u.first_name), email_key = lower(u.email), last_login_at = u.last_login_at
  FROM users AS u
  WHERE u.id = s.id AND (after IS NULL OR s.id > after) AND s.id <= last_id AND NOT s.folded;
  UPDATE user_search_backfill SET after_id = last_id;
  RETURN last_id;
END $$;

-- ---------------------------------------------------------------------------------------------
-- 5. The counts of connections that are gone fold into row 0 like the others (as in 0017, with the grams).

CREATE OR REPLACE FUNCTION compact_list_totals() RETURNS void LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM user_counts WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL) RETURNING is_active, n)
  INSERT INTO user_counts AS c (backend, is_active, n) SELECT 0, is_active, sum(n) FROM gone GROUP BY is_active
  ON CONFLICT (backend, is_active) DO UPDATE SET n = c.n + excluded.n;
  WITH gone AS (
    DELETE FROM invitation_counts WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL) RETURNING status, n)
  INSERT INTO invitation_counts AS c (backend, status, n) SELECT 0, status, sum(n) FROM gone GROUP BY status
  ON CONFLICT (backend, status) DO UPDATE SET n = c.n + excluded.n;
  WITH gone AS (
    DELETE FROM list_versions WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL) RETURNING list, version)
  INSERT INTO list_versions AS v (list, backend, version) SELECT list, 0, sum(version) FROM gone GROUP BY list
  ON CONFLICT (list, backend) DO UPDATE SET version = v.version + excluded.version;
  WITH gone AS (
    DELETE FROM audit_counts WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL) RETURNING n)
  INSERT INTO audit_counts AS c (backend, n) SELECT 0, sum(n) FROM gone HAVING count(*) > 0
  ON CONFLICT (backend) DO UPDATE SET n = c.n + excluded.n;
  WITH gone AS (
    DELETE FROM audit_day_counts WHERE backend <> 0
      AND (day < (now() AT TIME ZONE 'UTC')::date - 1 OR backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL))
    RETURNING day, n)
  INSERT INTO audit_day_counts AS c (day, backend, n) SELECT day, 0, sum(n) FROM gone GROUP BY day
  ON CONFLICT (day, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM audit_day_counts WHERE backend = 0 AND n = 0;
  WITH gone AS (
    DELETE FROM user_search_gram_counts WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
    RETURNING gram, inactive_only, n)
  INSERT INTO user_search_gram_counts AS c (gram, inactive_only, backend, n) SELECT gram, inactive_only, 0, sum(n) FROM gone GROUP BY gram, inactive_only
  ON CONFLICT (gram, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM user_search_gram_counts WHERE backend = 0 AND n = 0;
$$;
