-- Issue 20 (the organizations' search): the SIREN combobox looks for a term among the SIRENs (a quarter of the
-- organizations), but the trigram index of every name gave it every SIRET holding the term's strings too, each read and
-- checked: `ehpad les` (3,276 SIRENs, 13,271 names holding its strings) took 24 ms at 200,000 organizations, 20 ms on
-- its first request against 18 allowed (5× page 1). The SIRENs' names have a trigram index of their own: 3.2 ms.
-- The statements name the type as a literal (organizations-list.repository.ts), so that every plan may use it.
-- On a large database build it beforehand with CREATE INDEX CONCURRENTLY IF NOT EXISTS under this name (0.3 s at
-- 200,000 organizations; the runner applies a file in a transaction).
-- Runs on PostgreSQL 15 and PGlite.

CREATE INDEX IF NOT EXISTS organization_search_siren_name_trgm_idx ON organization_search USING gin (name gin_trgm_ops) WHERE type = 'SIREN';
