-- Issue 20: a search within a role (the users list's 'Rôle' filter) found as a search alone is, from the users' words
-- and the counts kept of them, instead of counting every holder of the role that holds the term. At a million users
-- 'le' within Ressource humaine (208,551 of its 365,176 holders) took 3.2 s to count, 'Martin' there 0.76 s.
-- Each user's roles (the ids of the roles they hold anywhere, sorted) are kept on their user_search row and on each of
-- their words (migration 0039), by triggers on role_assignments, in the transaction that grants or removes the role;
-- how many users hold each string of one to three characters within each role, and each word and phrase within each
-- role, are kept beside the counts of migrations 0019 and 0039, by triggers on those rows.
-- Online: the users already there get their roles afterwards in short batches by the job search.backfill
-- (server/jobs/search-backfill.ts), after the folding (0019) and the words (0039); until it is through, a search within
-- a role is counted as before. The two indexes of the words are rebuilt with the roles (not CONCURRENTLY: the runner
-- applies a file in a transaction; about a minute for a million users, holding the words' writes): on a large
-- database, build them beforehand with CREATE INDEX CONCURRENTLY IF NOT EXISTS under these names.
-- Runs on PostgreSQL 15 and PGlite.

-- ---------------------------------------------------------------------------------------------
-- 1. The roles a user holds: their ids, sorted, each once ('{}' for none). Instant columns (a constant default).
ALTER TABLE user_search ADD COLUMN roles integer[] NOT NULL DEFAULT '{}';
ALTER TABLE user_search_words ADD COLUMN roles integer[] NOT NULL DEFAULT '{}';

CREATE INDEX IF NOT EXISTS user_search_words_name_roles_idx ON user_search_words (word, name_key, id) INCLUDE (is_active, roles);
CREATE INDEX IF NOT EXISTS user_search_words_email_roles_idx ON user_search_words (word, email_key, id) INCLUDE (is_active, roles);
DROP INDEX IF EXISTS user_search_words_name_idx;
DROP INDEX IF EXISTS user_search_words_email_idx;

CREATE FUNCTION search_roles_of(user_id uuid) RETURNS integer[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT ra.role_id ORDER BY ra.role_id), '{}') FROM role_assignments AS ra WHERE ra.user_id = search_roles_of.user_id
$$;

-- The users whose assignments a statement changed get their roles again: their rows locked first, in id order (two
-- grants to one user at once: the second waits for the first, then reads both in a new snapshot).
CREATE FUNCTION search_roles_follow(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM user_search WHERE id = ANY (ids) ORDER BY id FOR UPDATE;
  UPDATE user_search AS s SET roles = x.roles
  FROM (SELECT u.id, search_roles_of(u.id) AS roles FROM unnest(ids) AS u (id)) AS x
  WHERE s.id = x.id AND s.roles IS DISTINCT FROM x.roles;
END $$;

CREATE FUNCTION search_roles_of_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  PERFORM search_roles_follow(array(SELECT DISTINCT r.user_id FROM changed_rows AS r));
  RETURN NULL;
END $$;

CREATE FUNCTION search_roles_of_moved_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  ids := array(
    SELECT x.user_id FROM (
      SELECT r.user_id, r.role_id FROM new_rows AS r UNION ALL SELECT o.user_id, o.role_id FROM old_rows AS o
      EXCEPT ALL
      SELECT r.user_id, r.role_id FROM new_rows AS r JOIN old_rows AS o USING (id) WHERE (r.user_id, r.role_id) = (o.user_id, o.role_id)
      EXCEPT ALL
      SELECT o.user_id, o.role_id FROM new_rows AS r JOIN old_rows AS o USING (id) WHERE (r.user_id, r.role_id) = (o.user_id, o.role_id)) AS x
    GROUP BY x.user_id);
  IF cardinality(ids) > 0 THEN PERFORM search_roles_follow(ids); END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION search_roles_cleared() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_roles_follow(array(SELECT id FROM user_search WHERE roles <> '{}'));
  RETURN NULL;
END $$;

CREATE TRIGGER role_assignments_search_insert AFTER INSERT ON role_assignments REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_roles_of_assignments();
CREATE TRIGGER role_assignments_search_delete AFTER DELETE ON role_assignments REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_roles_of_assignments();
CREATE TRIGGER role_assignments_search_update AFTER UPDATE ON role_assignments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_roles_of_moved_assignments();
CREATE TRIGGER role_assignments_search_truncate AFTER TRUNCATE ON role_assignments
  FOR EACH STATEMENT EXECUTE FUNCTION search_roles_cleared();

-- ---------------------------------------------------------------------------------------------
-- 2. The words carry their user's roles: written with them, rewritten when the roles change (0039's functions, with roles).
CREATE OR REPLACE FUNCTION index_search_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles)
  SELECT w, r.id, r.is_active, r.name_key, r.email_key, r.roles
  FROM changed_rows AS r CROSS JOIN LATERAL search_words(r.name, r.email) AS w
  WHERE r.folded;
  RETURN NULL;
END $$;

-- A grant or a removal alone (no name nor e-mail changed) rewrites the words' roles only.
CREATE OR REPLACE FUNCTION index_search_words_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  renamed boolean;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  -- Counted, not EXISTS: a semi-join of the two transition tables was planned as a nested loop (8,000 users: 5 s).
  renamed := (SELECT count(*) FROM new_rows AS r JOIN old_rows AS o USING (id) WHERE (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)) > 0;
  IF renamed THEN
  DELETE FROM user_search_words AS p USING (
    SELECT o.id, w FROM old_rows AS o JOIN new_rows AS r USING (id) CROSS JOIN LATERAL search_words(o.name, o.email) AS w
    WHERE o.folded AND (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)
    EXCEPT
    SELECT r.id, w FROM new_rows AS r JOIN old_rows AS o USING (id) CROSS JOIN LATERAL search_words(r.name, r.email) AS w
    WHERE r.folded AND (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)) AS gone (id, word)
  WHERE p.id = gone.id AND p.word = gone.word;
  END IF;
  -- The changed users' words found by their ids in the primary key (a join on the transition tables was planned as a
  -- hash of every word: 8,000 grants at once, 7.5 s).
  UPDATE user_search_words AS p SET is_active = r.is_active, name_key = r.name_key, email_key = r.email_key, roles = r.roles
  FROM new_rows AS r
  WHERE p.id = ANY (array(
      SELECT c.id FROM new_rows AS c JOIN old_rows AS o USING (id)
      WHERE (c.is_active, c.name_key, c.email_key, c.roles) IS DISTINCT FROM (o.is_active, o.name_key, o.email_key, o.roles)))
    AND p.id = r.id AND (r.is_active, r.name_key, r.email_key, r.roles) IS DISTINCT FROM (p.is_active, p.name_key, p.email_key, p.roles);
  IF renamed THEN
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles)
  SELECT w, r.id, r.is_active, r.name_key, r.email_key, r.roles
  FROM new_rows AS r JOIN old_rows AS o USING (id) CROSS JOIN LATERAL search_words(r.name, r.email) AS w
  WHERE r.folded AND (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)
  ON CONFLICT (id, word) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION backfill_search_words(after uuid, size integer) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  last_id uuid;
BEGIN
  SELECT batch.id INTO last_id FROM (
    SELECT id FROM user_search WHERE after IS NULL OR id > after ORDER BY id LIMIT size) AS batch
  ORDER BY batch.id DESC LIMIT 1;
  IF last_id IS NULL THEN
    UPDATE user_search_words_backfill SET done = true;
    RETURN NULL;
  END IF;
  PERFORM 1 FROM user_search WHERE (after IS NULL OR id > after) AND id <= last_id ORDER BY id FOR UPDATE;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles)
  SELECT w, s.id, s.is_active, s.name_key, s.email_key, s.roles
  FROM user_search AS s CROSS JOIN LATERAL search_words(s.name, s.email) AS w
  WHERE (after IS NULL OR s.id > after) AND s.id <= last_id AND s.folded
  ON CONFLICT (id, word) DO NOTHING;
  UPDATE user_search_words_backfill SET after_id = last_id;
  RETURN last_id;
END $$;

-- From scratch (0039's, with the roles the users' rows hold: rebuild_search_roles writes them first).
CREATE OR REPLACE FUNCTION rebuild_search_words() RETURNS void LANGUAGE sql AS $$
  TRUNCATE user_search_words;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles)
  SELECT w, s.id, s.is_active, s.name_key, s.email_key, s.roles
  FROM user_search AS s CROSS JOIN LATERAL search_words(s.name, s.email) AS w WHERE s.folded;
  DELETE FROM user_search_word_counts;
  INSERT INTO user_search_word_counts (word, inactive_only, backend, n)
  SELECT p.word, k.inactive_only, 0, count(*) FROM user_search_words AS p CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
  WHERE NOT k.inactive_only OR NOT p.is_active GROUP BY 1, 2;
  UPDATE user_search_words_backfill SET after_id = NULL, done = true;
$$;

-- ---------------------------------------------------------------------------------------------
-- 3. How many users hold each string of one to three characters within each role (as user_search_gram_counts: of
-- every holder, and of the inactive ones; one row per connection), kept by triggers on user_search; and each word and
-- phrase within each role (as user_search_word_counts), kept by triggers on user_search_words. A word's text reaches
-- these counts only while its holders do (forget_search_words, below). Half-filled pages: a grant adds one to each of
-- its person's hundred or so strings, and an update that finds room on its page writes no index entry (HOT).
CREATE TABLE user_search_gram_role_counts (
  gram          text NOT NULL,
  role_id       integer NOT NULL,
  inactive_only boolean NOT NULL,
  backend       integer NOT NULL,
  n             bigint NOT NULL,
  PRIMARY KEY (gram, role_id, inactive_only, backend)
) WITH (fillfactor = 50);

CREATE TABLE user_search_word_role_counts (
  word          text NOT NULL,
  role_id       integer NOT NULL,
  inactive_only boolean NOT NULL,
  backend       integer NOT NULL,
  n             bigint NOT NULL,
  PRIMARY KEY (word, role_id, inactive_only, backend)
) WITH (fillfactor = 50);

CREATE FUNCTION count_search_gram_roles_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_search_gram_role_counts AS c (gram, role_id, inactive_only, backend, n)
  SELECT x.gram, ro.role_id, x.inactive_only, pg_backend_pid(), CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END * count(*)
  FROM changed_rows AS r CROSS JOIN LATERAL unnest(r.roles) AS ro (role_id) CROSS JOIN LATERAL search_gram_rows(r.name, r.email, r.is_active) AS x
  WHERE r.folded AND r.roles <> '{}' GROUP BY 1, 2, 3
  ON CONFLICT (gram, role_id, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- Only the rows whose counted fields changed: a sign-in, or a change of name for a user without a role, reads nothing;
-- a grant or a removal alone (name, e-mail and status the same), only the roles that came or went.
CREATE FUNCTION count_search_gram_roles_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_search_gram_role_counts AS c (gram, role_id, inactive_only, backend, n)
  SELECT gram, role_id, inactive_only, pg_backend_pid(), sum(d)
  FROM (SELECT r.name, r.email, r.is_active, r.folded, r.roles, o.name AS old_name, o.email AS old_email, o.is_active AS old_active,
               o.folded AS old_folded, o.roles AS old_roles,
               (r.name, r.email, r.is_active, r.folded) IS NOT DISTINCT FROM (o.name, o.email, o.is_active, o.folded) AS same
        FROM new_rows AS r JOIN old_rows AS o USING (id)
        WHERE (r.roles <> '{}' OR o.roles <> '{}')
          AND (r.name, r.email, r.is_active, r.folded, r.roles) IS DISTINCT FROM (o.name, o.email, o.is_active, o.folded, o.roles)) AS changed
  CROSS JOIN LATERAL (
    SELECT x.gram, ro.role_id, x.inactive_only, 1 AS d
    FROM unnest(changed.roles) AS ro (role_id) CROSS JOIN LATERAL search_gram_rows(changed.name, changed.email, changed.is_active) AS x
    WHERE changed.folded AND NOT (changed.same AND ro.role_id = ANY (changed.old_roles))
    UNION ALL
    SELECT x.gram, ro.role_id, x.inactive_only, -1
    FROM unnest(changed.old_roles) AS ro (role_id) CROSS JOIN LATERAL search_gram_rows(changed.old_name, changed.old_email, changed.old_active) AS x
    WHERE changed.old_folded AND NOT (changed.same AND ro.role_id = ANY (changed.roles))) AS delta
  GROUP BY 1, 2, 3 HAVING sum(d) <> 0
  ON CONFLICT (gram, role_id, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION clear_search_gram_roles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_search_gram_role_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER user_search_gram_roles_insert AFTER INSERT ON user_search REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_gram_roles_of_rows();
CREATE TRIGGER user_search_gram_roles_delete AFTER DELETE ON user_search REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_gram_roles_of_rows();
CREATE TRIGGER user_search_gram_roles_update AFTER UPDATE ON user_search REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_gram_roles_updated();
CREATE TRIGGER user_search_gram_roles_truncate AFTER TRUNCATE ON user_search
  FOR EACH STATEMENT EXECUTE FUNCTION clear_search_gram_roles();

-- The words' counts within roles. Named so that they fire after 0039's counts of the same rows (triggers of one event
-- fire in the order of their names): a writer that holds a word again waits first for the transaction forgetting it
-- (forget_search_words locks that word's counts), and only then writes its counts within roles.
CREATE FUNCTION count_search_word_roles_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unheld text[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  INSERT INTO user_search_word_role_counts AS c (word, role_id, inactive_only, backend, n)
  SELECT r.word, ro.role_id, k.inactive_only, pg_backend_pid(), CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END * count(*)
  FROM changed_rows AS r CROSS JOIN LATERAL unnest(r.roles) AS ro (role_id) CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
  WHERE NOT k.inactive_only OR NOT r.is_active
  GROUP BY 1, 2, 3
  ON CONFLICT (word, role_id, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  IF TG_OP = 'DELETE' THEN
    -- The words nobody holds any more leave these counts too (their last holders' transaction holds the advisory lock of
    -- 0039's trigger, which fired first): their rows locked first, then deleted in a new snapshot (forget_search_words),
    -- never a row another connection is moving for a new holder (review of 0040: a plain DELETE waited for it, then
    -- deleted it with its holder).
    unheld := array(SELECT DISTINCT r.word FROM changed_rows AS r WHERE r.roles <> '{}' AND NOT EXISTS (SELECT 1 FROM user_search_words AS p WHERE p.word = r.word) ORDER BY 1);
    IF cardinality(unheld) > 0 THEN PERFORM forget_search_words(unheld); END IF;
  END IF;
  RETURN NULL;
END $$;

-- Only the rows whose roles or status changed (a changed name or e-mail deletes its words and inserts the new ones).
CREATE FUNCTION count_search_word_roles_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  INSERT INTO user_search_word_role_counts AS c (word, role_id, inactive_only, backend, n)
  SELECT delta.word, delta.role_id, delta.inactive_only, pg_backend_pid(), sum(delta.d)
  FROM (SELECT r.word, r.roles, r.is_active, o.roles AS old_roles, o.is_active AS old_active
        FROM new_rows AS r JOIN old_rows AS o USING (id, word)
        WHERE (r.roles, r.is_active) IS DISTINCT FROM (o.roles, o.is_active) AND (r.roles <> '{}' OR o.roles <> '{}')) AS changed
  CROSS JOIN LATERAL (
    SELECT changed.word, ro.role_id, k.inactive_only, 1 AS d FROM unnest(changed.roles) AS ro (role_id) CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
    WHERE NOT k.inactive_only OR NOT changed.is_active
    UNION ALL
    SELECT changed.word, ro.role_id, k.inactive_only, -1 FROM unnest(changed.old_roles) AS ro (role_id) CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
    WHERE NOT k.inactive_only OR NOT changed.old_active) AS delta
  GROUP BY 1, 2, 3 HAVING sum(delta.d) <> 0
  ON CONFLICT (word, role_id, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION clear_search_word_roles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_search_word_role_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER user_search_words_role_count_insert AFTER INSERT ON user_search_words REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_word_roles_of_rows();
CREATE TRIGGER user_search_words_role_count_delete AFTER DELETE ON user_search_words REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_word_roles_of_rows();
CREATE TRIGGER user_search_words_role_count_update AFTER UPDATE ON user_search_words REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_word_roles_updated();
CREATE TRIGGER user_search_words_role_count_truncate AFTER TRUNCATE ON user_search_words
  FOR EACH STATEMENT EXECUTE FUNCTION clear_search_word_roles();

-- A word forgotten (0039) leaves the counts within roles with the others: its rows there sum to nought too. Their rows
-- are locked after the others' (writers write them in that order: their triggers' names).
CREATE OR REPLACE FUNCTION forget_search_words(words text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM user_search_word_counts WHERE word = ANY (words) ORDER BY word, inactive_only, backend FOR UPDATE;
  PERFORM 1 FROM user_search_word_role_counts WHERE word = ANY (words) ORDER BY word, role_id, inactive_only, backend FOR UPDATE;
  DELETE FROM user_search_word_counts AS c WHERE c.word = ANY (words) AND NOT EXISTS (SELECT 1 FROM user_search_words AS p WHERE p.word = c.word);
  DELETE FROM user_search_word_role_counts AS c WHERE c.word = ANY (words) AND NOT EXISTS (SELECT 1 FROM user_search_words AS p WHERE p.word = c.word);
END $$;

-- ---------------------------------------------------------------------------------------------
-- 4. The users already there: where the job stands, done at once when nobody holds a role (everyone's '{}' is right).
CREATE TABLE user_search_roles_backfill (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  after_id uuid,
  done     boolean NOT NULL
);
INSERT INTO user_search_roles_backfill (after_id, done) SELECT NULL, NOT EXISTS (SELECT 1 FROM role_assignments);

-- One batch: the roles of the next `size` user_search rows after `after` in id order (the triggers above count them and
-- write them on the words), those rows locked first; answers the last id it passed, null when none was left.
CREATE FUNCTION backfill_search_roles(after uuid, size integer) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  last_id uuid;
BEGIN
  SELECT batch.id INTO last_id FROM (
    SELECT id FROM user_search WHERE after IS NULL OR id > after ORDER BY id LIMIT size) AS batch
  ORDER BY batch.id DESC LIMIT 1;
  IF last_id IS NULL THEN
    UPDATE user_search_roles_backfill SET done = true;
    RETURN NULL;
  END IF;
  PERFORM 1 FROM user_search WHERE (after IS NULL OR id > after) AND id <= last_id ORDER BY id FOR UPDATE;
  UPDATE user_search AS s SET roles = search_roles_of(s.id)
  WHERE (after IS NULL OR s.id > after) AND s.id <= last_id AND s.roles IS DISTINCT FROM search_roles_of(s.id);
  UPDATE user_search_roles_backfill SET after_id = last_id;
  RETURN last_id;
END $$;

-- From scratch, after a load that bypassed the triggers (the benchmark seed, which runs with them off): the roles of
-- every user and of their words, then every count within roles.
CREATE FUNCTION rebuild_search_roles() RETURNS void LANGUAGE sql AS $$
  UPDATE user_search AS s SET roles = coalesce(x.roles, '{}')
  FROM user_search AS t
  LEFT JOIN (SELECT ra.user_id, array_agg(DISTINCT ra.role_id ORDER BY ra.role_id) AS roles FROM role_assignments AS ra GROUP BY 1) AS x ON x.user_id = t.id
  WHERE s.id = t.id AND s.roles IS DISTINCT FROM coalesce(x.roles, '{}');
  UPDATE user_search_words AS p SET roles = s.roles FROM user_search AS s WHERE s.id = p.id AND p.roles IS DISTINCT FROM s.roles;
  DELETE FROM user_search_gram_role_counts;
  INSERT INTO user_search_gram_role_counts (gram, role_id, inactive_only, backend, n)
  SELECT x.gram, ro.role_id, x.inactive_only, 0, count(*)
  FROM user_search AS s CROSS JOIN LATERAL unnest(s.roles) AS ro (role_id) CROSS JOIN LATERAL search_gram_rows(s.name, s.email, s.is_active) AS x
  WHERE s.folded GROUP BY 1, 2, 3;
  DELETE FROM user_search_word_role_counts;
  INSERT INTO user_search_word_role_counts (word, role_id, inactive_only, backend, n)
  SELECT p.word, ro.role_id, k.inactive_only, 0, count(*)
  FROM user_search_words AS p CROSS JOIN LATERAL unnest(p.roles) AS ro (role_id) CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
  WHERE NOT k.inactive_only OR NOT p.is_active GROUP BY 1, 2, 3;
  UPDATE user_search_roles_backfill SET after_id = NULL, done = true;
$$;

-- ---------------------------------------------------------------------------------------------
-- 5. The counts of connections that are gone fold into row 0, as the others do; rows left at nought go.
ALTER FUNCTION compact_list_totals() RENAME TO compact_list_totals_until_0040;
CREATE FUNCTION compact_list_totals() RETURNS void LANGUAGE sql AS $$
  SELECT compact_list_totals_until_0040();
  WITH taken AS (
    SELECT gram, role_id, inactive_only, backend FROM user_search_gram_role_counts
    WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM user_search_gram_role_counts AS c USING taken
    WHERE (c.gram, c.role_id, c.inactive_only, c.backend) = (taken.gram, taken.role_id, taken.inactive_only, taken.backend)
    RETURNING c.gram, c.role_id, c.inactive_only, c.n)
  INSERT INTO user_search_gram_role_counts AS c (gram, role_id, inactive_only, backend, n)
  SELECT gram, role_id, inactive_only, 0, sum(n) FROM gone GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (gram, role_id, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM user_search_gram_role_counts WHERE backend = 0 AND n = 0;
  WITH taken AS (
    SELECT word, role_id, inactive_only, backend FROM user_search_word_role_counts
    WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM user_search_word_role_counts AS c USING taken
    WHERE (c.word, c.role_id, c.inactive_only, c.backend) = (taken.word, taken.role_id, taken.inactive_only, taken.backend)
    RETURNING c.word, c.role_id, c.inactive_only, c.n)
  INSERT INTO user_search_word_role_counts AS c (word, role_id, inactive_only, backend, n)
  SELECT word, role_id, inactive_only, 0, sum(n) FROM gone GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (word, role_id, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM user_search_word_role_counts WHERE backend = 0 AND n = 0;
  -- A word nobody holds whose rows within roles were left (a connection's row written after its holders went): its rows
  -- there sum to nought for every role, of every holder and of the inactive ones alike (a deactivation writes only the
  -- latter); forget_search_words checks that nobody holds it.
  SELECT forget_search_words(array(
    SELECT g.word FROM (SELECT c.word, sum(c.n) AS n FROM user_search_word_role_counts AS c GROUP BY c.word, c.role_id, c.inactive_only) AS g
    GROUP BY g.word HAVING bool_and(g.n = 0) AND NOT EXISTS (SELECT 1 FROM user_search_words AS p WHERE p.word = g.word) ORDER BY 1));
$$;
