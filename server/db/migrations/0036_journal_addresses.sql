-- Issue 21, the journal searched by an e-mail: the addresses of each entry's search text, indexed as the users'
-- e-mail parts are (migration 0004). A term 'before@after' can only occur where an '@' of the search text has
-- `before` at the end of the text running back to the previous '@' or space, and `after` at the start of the text
-- running on to the next '@' or space (audit.model.ts addressParts trims a term to those parts). Those two texts,
-- for the first and for the second '@' of the search text, are indexed (the first reversed, so that "ends with"
-- reads as a prefix); an entry holding three '@' or more (an e-mail change names both addresses) is found by the
-- trigram index of those entries alone. A full e-mail then reads its own entries, a few index pages, where its
-- rarest trigrams read the posting lists of every entry sharing them (24 ms for 11 entries of a 10-million-entry
-- journal, and most of the database's work under load).
-- The functions are immutable (they read only their arguments) and the indexes are kept by PostgreSQL itself, in
-- the transaction of every write, erasure and purge: nothing to backfill, nothing to keep in step.
-- Not CONCURRENTLY (the runner applies a file in a transaction, and the build holds the journal's writes while it
-- reads every entry: about two minutes for 10 million entries): on a large journal, run this file's CREATE
-- FUNCTION statements, then each CREATE INDEX CONCURRENTLY IF NOT EXISTS under its name, beforehand; this file
-- then only replaces the functions by themselves. Runs on PostgreSQL 15 and PGlite alike.

-- The text before the k-th '@' of `t`, back to the previous '@' or space, reversed; null when `t` has fewer '@'.
CREATE OR REPLACE FUNCTION journal_address_local(t text, k integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN length(t) - length(replace(t, '@', '')) >= k
    THEN reverse(substring(split_part(t, '@', k) FROM '[^[:space:]]*$')) END
$$;

-- The text after the k-th '@' of `t`, up to the next '@' or space; null when `t` has fewer '@'.
CREATE OR REPLACE FUNCTION journal_address_domain(t text, k integer) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN length(t) - length(replace(t, '@', '')) >= k
    THEN substring(split_part(t, '@', k + 1) FROM '^[^[:space:]]*') END
$$;

CREATE INDEX IF NOT EXISTS audit_log_address_1_idx ON audit_log
  (journal_address_local(search_text, 1) text_pattern_ops, journal_address_domain(search_text, 1) text_pattern_ops)
  WHERE search_text LIKE '%@%';
CREATE INDEX IF NOT EXISTS audit_log_address_2_idx ON audit_log
  (journal_address_local(search_text, 2) text_pattern_ops, journal_address_domain(search_text, 2) text_pattern_ops)
  WHERE search_text LIKE '%@%@%';
CREATE INDEX IF NOT EXISTS audit_log_address_more_idx ON audit_log USING gin (search_text gin_trgm_ops)
  WHERE search_text LIKE '%@%@%@%';
