-- Issue 20, noticed in the review of 0040: compaction's net for the words' counts (0039) grouped only the rows of all
-- holders, so a word left with rows of its inactive holders alone (a deactivation writes no other), summing to nought,
-- kept its text in user_search_word_counts until its connection ended (a phrase is a person's name or e-mail). It now
-- forgets a word whose rows sum to nought for all holders and for the inactive ones alike, as 0040's net does within
-- roles (forget_search_words checks that nobody holds it). 0039's compaction, otherwise as it was.
-- Runs on PostgreSQL 15 and PGlite.

CREATE OR REPLACE FUNCTION compact_list_totals_until_0040() RETURNS void LANGUAGE sql AS $$
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
  SELECT forget_search_words(array(
    SELECT g.word FROM (SELECT c.word, sum(c.n) AS n FROM user_search_word_counts AS c GROUP BY c.word, c.inactive_only) AS g
    GROUP BY g.word HAVING bool_and(g.n = 0) ORDER BY 1));
$$;
