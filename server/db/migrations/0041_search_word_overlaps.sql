-- Issue 20: a term's exact total from its words' kept counts, without reading their holders. A term of four characters
-- or more is found in the users' words (0039); its users are those holding one of the words that contain it, each
-- counted once. Counting them once hashed every holder: 'Martin' at a million users, 60,255 users in 47 words and
-- 64,372 holders, 29 ms of PostgreSQL alone, the slowest first request of the benchmark (35 to 58 ms, 5× page 1 is 20).
-- A user holding two words that contain the term shares at least four characters between those two words; flagged
-- here (user_search_words.overlapping: the word shares four characters in a row with another word of the same user, 13 %
-- of users hold such words, 0.27 words a user at 1M), the total is the sum of the words' kept counts less, for each
-- user holding several of them, the holdings beyond the first, read from the flagged words alone ('Martin': a few
-- thousand instead of 64,372). Whether a word overlaps another depends only on its user's name and e-mail: written with the word,
-- written again when the name or the e-mail changes, never by a grant or a status.
-- Online: an instant column (a constant default), a partial index that holds nothing yet, and a fourth phase of the job
-- search.backfill (server/jobs/search-backfill.ts) flagging the words already there in batches of users; until it is
-- through, a total is counted as before. The index, though empty, reads the whole words table while the ALTER holds it:
-- on a large database run both beforehand, the column first (ALTER TABLE user_search_words ADD COLUMN IF NOT EXISTS
-- overlapping boolean NOT NULL DEFAULT false: instant), then the index with CREATE INDEX CONCURRENTLY IF NOT EXISTS under
-- this name and definition (the runner applies a file in a transaction).
-- Runs on PostgreSQL 15 and PGlite.

ALTER TABLE user_search_words ADD COLUMN IF NOT EXISTS overlapping boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS user_search_words_overlaps_idx ON user_search_words (word, id) INCLUDE (is_active, roles) WHERE overlapping;

-- The words already there: where the job stands, done at once only when there is no user (a write waiting on this
-- migration's lock runs the former trigger once it commits, unflagged: the pass over every user flags its words too).
CREATE TABLE user_search_overlaps_backfill (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  after_id uuid,
  done     boolean NOT NULL
);
INSERT INTO user_search_overlaps_backfill (after_id, done) SELECT NULL, NOT EXISTS (SELECT 1 FROM user_search);

-- The texts of search_words(name, email), each with whether it is a word (not a phrase) of four characters or more that
-- shares four characters in a row with another such word of the same texts. Four: one more than the strings the counts
-- of 0019 hold (COUNTED_GRAM_LENGTH, server/core/search-fold.ts), the shortest term looked for in the words.
CREATE FUNCTION search_words_flagged(name text, email text) RETURNS TABLE (word text, overlapping boolean)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  WITH t AS (SELECT x AS word, NOT search_phrase(x) AND length(x) >= 4 AS long_word FROM search_words(name, email) AS x)
  SELECT t.word, t.long_word AND EXISTS (
    SELECT 1 FROM t AS v
    WHERE v.long_word AND v.word <> t.word
      AND EXISTS (SELECT 1 FROM generate_series(1, length(t.word) - 3) AS i WHERE strpos(v.word, substr(t.word, i, 4)) > 0))
  FROM t
$$;

-- 0040's writers of the words, with the flag.
CREATE OR REPLACE FUNCTION index_search_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM changed_rows) THEN RETURN NULL; END IF;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles, overlapping)
  SELECT f.word, r.id, r.is_active, r.name_key, r.email_key, r.roles, f.overlapping
  FROM changed_rows AS r CROSS JOIN LATERAL search_words_flagged(r.name, r.email) AS f
  WHERE r.folded;
  RETURN NULL;
END $$;

-- A grant or a removal alone (no name nor e-mail changed) rewrites the words' roles only; a changed name or e-mail also
-- flags again the words it kept (one may have lost, or found, its overlapping neighbour).
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
  UPDATE user_search_words AS p SET overlapping = f.overlapping
  FROM (SELECT r.id, x.word, x.overlapping FROM new_rows AS r JOIN old_rows AS o USING (id) CROSS JOIN LATERAL search_words_flagged(r.name, r.email) AS x
        WHERE r.folded AND (r.name, r.email, r.folded) IS DISTINCT FROM (o.name, o.email, o.folded)) AS f
  WHERE p.id = f.id AND p.word = f.word AND p.overlapping <> f.overlapping;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles, overlapping)
  SELECT f.word, r.id, r.is_active, r.name_key, r.email_key, r.roles, f.overlapping
  FROM new_rows AS r JOIN old_rows AS o USING (id) CROSS JOIN LATERAL search_words_flagged(r.name, r.email) AS f
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
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles, overlapping)
  SELECT f.word, s.id, s.is_active, s.name_key, s.email_key, s.roles, f.overlapping
  FROM user_search AS s CROSS JOIN LATERAL search_words_flagged(s.name, s.email) AS f
  WHERE (after IS NULL OR s.id > after) AND s.id <= last_id AND s.folded
  ON CONFLICT (id, word) DO NOTHING;
  UPDATE user_search_words_backfill SET after_id = last_id;
  RETURN last_id;
END $$;

CREATE OR REPLACE FUNCTION rebuild_search_words() RETURNS void LANGUAGE sql AS $$
  TRUNCATE user_search_words;
  INSERT INTO user_search_words (word, id, is_active, name_key, email_key, roles, overlapping)
  SELECT f.word, s.id, s.is_active, s.name_key, s.email_key, s.roles, f.overlapping
  FROM user_search AS s CROSS JOIN LATERAL search_words_flagged(s.name, s.email) AS f WHERE s.folded;
  DELETE FROM user_search_word_counts;
  INSERT INTO user_search_word_counts (word, inactive_only, backend, n)
  SELECT p.word, k.inactive_only, 0, count(*) FROM user_search_words AS p CROSS JOIN (VALUES (false), (true)) AS k (inactive_only)
  WHERE NOT k.inactive_only OR NOT p.is_active GROUP BY 1, 2;
  UPDATE user_search_words_backfill SET after_id = NULL, done = true;
  UPDATE user_search_overlaps_backfill SET after_id = NULL, done = true;
$$;

-- One batch: the words of the next `size` user_search rows after `after` in id order flagged, those rows locked first
-- (a rename waits, or is waited for); answers the last id it passed, null when none was left.
CREATE FUNCTION backfill_search_overlaps(after uuid, size integer) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  last_id uuid;
BEGIN
  SELECT batch.id INTO last_id FROM (
    SELECT id FROM user_search WHERE after IS NULL OR id > after ORDER BY id LIMIT size) AS batch
  ORDER BY batch.id DESC LIMIT 1;
  IF last_id IS NULL THEN
    UPDATE user_search_overlaps_backfill SET done = true;
    RETURN NULL;
  END IF;
  PERFORM 1 FROM user_search WHERE (after IS NULL OR id > after) AND id <= last_id ORDER BY id FOR UPDATE;
  UPDATE user_search_words AS p SET overlapping = f.overlapping
  FROM (SELECT s.id, x.word, x.overlapping FROM user_search AS s CROSS JOIN LATERAL search_words_flagged(s.name, s.email) AS x
        WHERE (after IS NULL OR s.id > after) AND s.id <= last_id AND s.folded) AS f
  WHERE p.id = f.id AND p.word = f.word AND p.overlapping <> f.overlapping;
  UPDATE user_search_overlaps_backfill SET after_id = last_id;
  RETURN last_id;
END $$;
