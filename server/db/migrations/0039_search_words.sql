-- Issue 20: a search finds its page among the users holding its words, in the list's order, instead of walking the
-- whole list or reading every match. At a million users a surname took 0.1 to 0.4 s: in name order its holders sit
-- side by side far down the list (a walk reads most of it), and reading its thousands of matches through the trigram
-- indexes is a random read of user_search per match.
-- The words of each user (the folded name and e-mail, cut at the separators below) and its phrases (the folded name,
-- the e-mail's part before its '@' and the part from it) are kept here with the list's sort keys, by triggers on
-- user_search, in the transaction that writes the user. A term without a separator is in a name or an e-mail exactly
-- when it is in one of its words; a term with separators but no '@' between two characters, exactly when it is in one
-- of its phrases. The few words or phrases that hold a term are found in their counts (a trigram index on distinct texts),
-- then each one's holders are read in the list's order from an index, ten at a time for a page of ten
-- (server/features/users/users-search-words.repository.ts).
-- Online: the users already there are indexed afterwards in short batches by the job search.backfill
-- (server/jobs/search-backfill.ts); until it is through the search works as before. Runs on PostgreSQL 15 and PGlite.

-- ---------------------------------------------------------------------------------------------
-- 1. The words of a folded name and e-mail (the text cut at spaces and . @ _ ' ’ + -, and where digits meet other
-- characters: 'dupont2' gives 'dupont' and '2', so that the e-mail's variants of a name add no words of their own), and
-- its phrases: the name, the e-mail's part before its first '@' with that '@', and the rest from that '@' on. A term
-- with no separator and no such meeting is in a name or an e-mail exactly when it is in one of its words; any other
-- with no '@' between two characters, exactly when it is in one of its phrases. Their mirror in TypeScript
-- (searchTexts) tells which a term is looked for in; a test holds the two equal.
CREATE FUNCTION search_words(name text, email text) RETURNS SETOF text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT DISTINCT w FROM (
    SELECT string_to_table(translate(
      regexp_replace(regexp_replace(name || ' ' || email, '([0-9])([^0-9])', '\1 \2', 'g'), '([^0-9])([0-9])', '\1 \2', 'g'),
      '.@_''’+-', '       '), ' ')
    UNION ALL SELECT name
    UNION ALL SELECT split_part(email, '@', 1) || '@' WHERE strpos(email, '@') > 0
    UNION ALL SELECT substr(email, strpos(email, '@')) WHERE strpos(email, '@') > 0
  ) AS t (w)
  WHERE w <> ''
$$;

-- Whether a text of search_words is a phrase: it holds a separator, or digits meeting other characters (a word never
-- does; a name may be a phrase without a separator: 'a1b').
CREATE FUNCTION search_phrase(word text) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT translate(word, ' .@_''’+-', '') <> word OR word ~ '[0-9][^0-9]|[^0-9][0-9]'
$$;

-- 2. Who holds each word and phrase, with the sort keys of the list's name and e-mail orders (migration 0019's copies) and
-- whether the user is active. A sign-in changes none of it.
CREATE TABLE user_search_words (
  word      text NOT NULL,
  id        uuid NOT NULL,
  is_active boolean NOT NULL,
  name_key  text NOT NULL,
  email_key text NOT NULL,
  PRIMARY KEY (id, word)
);
CREATE INDEX user_search_words_name_idx ON user_search_words (word, name_key, id) INCLUDE (is_active);
CREATE INDEX user_search_words_email_idx ON user_search_words (word, email_key, id) INCLUDE (is_active);

-- 3. How many users hold each word or phrase (inactive_only: how many inactive ones), one row per connection as
-- user_search_gram_counts (writers never wait for one another), kept by triggers on user_search_words. The trigram
-- indexes find the words, and apart the phrases, holding a term of three characters or more.
CREATE TABLE user_search_word_counts (
  word          text NOT NULL,
  inactive_only boolean NOT NULL,
  backend       integer NOT NULL,
  n             bigint NOT NULL,
  PRIMARY KEY (word, inactive_only, backend)
);
CREATE INDEX user_search_word_counts_trgm_idx ON user_search_word_counts USING gin (word gin_trgm_ops) WHERE NOT search_phrase(word);
CREATE INDEX user_search_phrase_counts_trgm_idx ON user_search_word_counts USING gin (word gin_trgm_ops) WHERE search_phrase(word);

-- The words and phrases nobody holds any more leave the counts with their text: a phrase is a person's name or e-mail,
-- which must not outlive them (README, 'Erasure of a deleted person'). Every row of such a word is locked first, in
-- one order, waiting for a writer of one to end; then, in a new snapshot, a word no user holds is held by nobody, and
-- its rows sum to nought (the counts are exact), so that removing them all leaves every total as it was. A writer that
-- holds the word again meanwhile inserts its own row, or waits for this one and writes its row again.
CREATE FUNCTION forget_search_words(words text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM user_search_word_counts WHERE word = ANY (words) ORDER BY word, inactive_only, backend FOR UPDATE;
  DELETE FROM user_search_word_counts AS c WHERE c.word = ANY (words) AND NOT EXISTS (SELECT 1 FROM user_search_words AS p WHERE p.word = c.word);
END $$;

CREATE FUNCTION count_search_words_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unheld text[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  INSERT INTO user_search_word_counts AS c (word, inactive_only, backend, n)
  SELECT r.word, k.inactive_only, pg_backend_pid(), CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END * count(*)
  FROM changed_rows AS r CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
  WHERE NOT k.inactive_only OR NOT r.is_active
  GROUP BY 1, 2
  ON CONFLICT (word, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  IF TG_OP = 'DELETE' THEN
    -- One transaction at a time looks for a word's last holders, until it ends: two that remove its last two holders at
    -- once each saw the other's still there, and the text stayed until the next compaction (review R11). The second
    -- now waits for the first, and then sees its removal.
    PERFORM pg_advisory_xact_lock(39, d.key) FROM (SELECT DISTINCT hashtext(r.word) AS key FROM changed_rows AS r ORDER BY 1) AS d;
    unheld := array(SELECT DISTINCT r.word FROM changed_rows AS r WHERE NOT EXISTS (SELECT 1 FROM user_search_words AS p WHERE p.word = r.word) ORDER BY 1);
    IF cardinality(unheld) > 0 THEN PERFORM forget_search_words(unheld); END IF;
  END IF;
  RETURN NULL;
END $$;

-- Only is_active is ever updated in place (a changed name or e-mail deletes its words and inserts the new ones).
CREATE FUNCTION count_search_words_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  INSERT INTO user_search_word_counts AS c (word, inactive_only, backend, n)
  SELECT r.word, true, pg_backend_pid(), sum(CASE WHEN r.is_active THEN -1 ELSE 1 END)
  FROM new_rows AS r JOIN old_rows AS o USING (id, word)
  WHERE r.is_active <> o.is_active
  GROUP BY 1
  ON CONFLICT (word, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION clear_search_word_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM user_search_word_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER user_search_words_count_insert AFTER INSERT ON user_search_words REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_words_of_rows();
CREATE TRIGGER user_search_words_count_delete AFTER DELETE ON user_search_words REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_words_of_rows();
CREATE TRIGGER user_search_words_count_update AFTER UPDATE ON user_search_words REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_words_updated();
CREATE TRIGGER user_search_words_count_truncate AFTER TRUNCATE ON user_search_words
  FOR EACH STATEMENT EXECUTE FUNCTION clear_search_word_counts();

-- ---------------------------------------------------------------------------------------------
-- 4. The words follow user_search, once a row is folded (migration 0019): written with it, gone with it, written
-- again when its name, e-mail or keys change, their is_active moved when only that changes. A statement that wrote no
-- row costs one look at its transition table (every UPDATE of users, a request's approval bumping a user's version
-- too, updates user_search, most often no row of it), and writes nothing that would fire the counts' triggers.
CREATE FUNCTION index_search_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key)
  SELECT w, r.id, r.is_active, r.name_key, r.email_key
  FROM changed_rows AS r CROSS JOIN LATERAL search_words(r.name, r.email) AS w
  WHERE r.folded;
  RETURN NULL;
END $$;

CREATE FUNCTION index_search_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  DELETE FROM user_search_words WHERE id IN (SELECT r.id FROM changed_rows AS r);
  RETURN NULL;
END $$;

-- A changed user keeps the words they still hold, their keys and status rewritten; only the words they no longer hold
-- go (and with the last holder, their text: forget_search_words), and only the new ones come.
CREATE FUNCTION index_search_words_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  DELETE FROM user_search_words AS p USING (
    SELECT o.id, w FROM old_rows AS o JOIN new_rows AS r USING (id) CROSS JOIN LATERAL search_words(o.name, o.email) AS w
    WHERE o.folded AND (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)
    EXCEPT
    SELECT r.id, w FROM new_rows AS r JOIN old_rows AS o USING (id) CROSS JOIN LATERAL search_words(r.name, r.email) AS w
    WHERE r.folded AND (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)) AS gone (id, word)
  WHERE p.id = gone.id AND p.word = gone.word;
  UPDATE user_search_words AS p SET is_active = r.is_active, name_key = r.name_key, email_key = r.email_key
  FROM new_rows AS r JOIN old_rows AS o USING (id)
  WHERE p.id = r.id AND (r.is_active, r.name_key, r.email_key) IS DISTINCT FROM (o.is_active, o.name_key, o.email_key)
    AND (r.is_active, r.name_key, r.email_key) IS DISTINCT FROM (p.is_active, p.name_key, p.email_key);
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key)
  SELECT w, r.id, r.is_active, r.name_key, r.email_key
  FROM new_rows AS r JOIN old_rows AS o USING (id) CROSS JOIN LATERAL search_words(r.name, r.email) AS w
  WHERE r.folded AND (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)
  ON CONFLICT (id, word) DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION clear_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE user_search_words;
  RETURN NULL;
END $$;

CREATE TRIGGER user_search_words_insert AFTER INSERT ON user_search REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION index_search_words_inserted();
CREATE TRIGGER user_search_words_delete AFTER DELETE ON user_search REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION index_search_words_deleted();
CREATE TRIGGER user_search_words_update AFTER UPDATE ON user_search REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION index_search_words_updated();
CREATE TRIGGER user_search_words_truncate AFTER TRUNCATE ON user_search
  FOR EACH STATEMENT EXECUTE FUNCTION clear_search_words();

-- ---------------------------------------------------------------------------------------------
-- 5. The users already there: where the job stands (the last id it indexed, ids in order), done at once when there
-- is nobody yet (a new database).
CREATE TABLE user_search_words_backfill (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  after_id uuid,
  done     boolean NOT NULL
);
INSERT INTO user_search_words_backfill (after_id, done) SELECT NULL, NOT EXISTS (SELECT 1 FROM user_search);

-- One batch: the words of the next `size` rows after `after` in id order, those rows locked first (a writer of one of
-- them waits, or has written its words already: they are kept); answers the last id it passed, null when none was
-- left (the backfill is through, and says so in the same transaction).
CREATE FUNCTION backfill_search_words(after uuid, size integer) RETURNS uuid LANGUAGE plpgsql AS $$
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
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key)
  SELECT w, s.id, s.is_active, s.name_key, s.email_key
  FROM user_search AS s CROSS JOIN LATERAL search_words(s.name, s.email) AS w
  WHERE (after IS NULL OR s.id > after) AND s.id <= last_id AND s.folded
  ON CONFLICT (id, word) DO NOTHING;
  UPDATE user_search_words_backfill SET after_id = last_id;
  RETURN last_id;
END $$;

-- From scratch, after a load that bypassed the triggers (the benchmark seed, which runs with them off): the words,
-- then their counts (recounted whether the triggers ran or not).
CREATE FUNCTION rebuild_search_words() RETURNS void LANGUAGE sql AS $$
  TRUNCATE user_search_words;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key)
  SELECT w, s.id, s.is_active, s.name_key, s.email_key
  FROM user_search AS s CROSS JOIN LATERAL search_words(s.name, s.email) AS w WHERE s.folded;
  DELETE FROM user_search_word_counts;
  INSERT INTO user_search_word_counts (word, inactive_only, backend, n)
  SELECT p.word, k.inactive_only, 0, count(*) FROM user_search_words AS p CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
  WHERE NOT k.inactive_only OR NOT p.is_active GROUP BY 1, 2;
  UPDATE user_search_words_backfill SET after_id = NULL, done = true;
$$;

-- ---------------------------------------------------------------------------------------------
-- 6. The counts of connections that are gone fold into row 0, as the grams' do (0019), a row a writer holds left to
-- the next folding; words nobody holds any more go.
ALTER FUNCTION compact_list_totals() RENAME TO compact_list_totals_until_0039;
CREATE FUNCTION compact_list_totals() RETURNS void LANGUAGE sql AS $$
  SELECT compact_list_totals_until_0039();
  WITH taken AS (
    SELECT word, inactive_only, backend FROM user_search_word_counts
    WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM user_search_word_counts AS c USING taken
    WHERE c.word = taken.word AND c.inactive_only = taken.inactive_only AND c.backend = taken.backend
    RETURNING c.word, c.inactive_only, c.n)
  INSERT INTO user_search_word_counts AS c (word, inactive_only, backend, n)
  SELECT word, inactive_only, 0, sum(n) FROM gone GROUP BY word, inactive_only ORDER BY word, inactive_only
  ON CONFLICT (word, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM user_search_word_counts WHERE backend = 0 AND n = 0;
  -- A word whose counts were left at nought otherwise (a connection's row written after its holders went): its rows sum to
  -- nought (the counts are exact), which a pass over the counts finds (0.3 s at a million users, against 1.4 s to look
  -- for every word's holders); forget_search_words checks that nobody holds it.
  SELECT forget_search_words(array(
    SELECT c.word FROM user_search_word_counts AS c WHERE NOT c.inactive_only GROUP BY c.word HAVING sum(c.n) = 0 ORDER BY 1));
$$;
