-- Issue 20: the organizations' search (the SIREN and SIRET comboboxes, 100 a page) ignores accents and case, and
-- its totals are not counted on every request.
-- Why a copy and not an index on search_fold(name): search_fold costs about 16 µs a name (its translate()), so an
-- index on it rechecks each candidate by folding its name again ('clinique', 17,348 matches: 308 ms against 27 ms
-- before) and a term of one or two letters, which no trigram serves, folds every name (3.4 s at 200,000). The folded
-- names are stored once, in organization_search, and read from there.
-- Online: nothing here rewrites organizations' rows. At 200,000 organizations (a copy of portail_bench, 2026-11-27,
-- load average 4) it took 17 s: the copy and its counts 15.0 s (search_fold and search_grams of every name), the indexes
-- 1.9 s; writes to organizations wait meanwhile (reads do not).
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).

-- ---------------------------------------------------------------------------------------------
-- 1. The copy searched: the folded name, the code and the filters of the list (type, member, parent), one row per
-- organization, kept by the triggers of section 3 in the same transactions.

CREATE TABLE organization_search (
  id        uuid PRIMARY KEY,
  code      text NOT NULL,
  name      text NOT NULL,
  type      text NOT NULL,
  member    boolean NOT NULL,
  parent_id uuid
);

-- ---------------------------------------------------------------------------------------------
-- 2. The unfiltered totals (by type and membership, the comboboxes' filters), one row per connection as user_counts.

CREATE TABLE organization_counts (
  backend integer NOT NULL,
  type    text NOT NULL,
  member  boolean NOT NULL,
  n       bigint NOT NULL,
  PRIMARY KEY (backend, type, member)
);

-- The number of organizations whose folded name or code holds each string of one to three characters, by type and
-- membership (the comboboxes' filters), one row per connection: the total of a one- to three-character term is a few
-- rows (no trigram serves such a term: its count read every row, 25 ms at 200,000, and a generic plan of it 140 ms).
CREATE TABLE organization_gram_counts (
  gram    text NOT NULL,
  type    text NOT NULL,
  member  boolean NOT NULL,
  backend integer NOT NULL,
  n       bigint NOT NULL,
  PRIMARY KEY (gram, type, member, backend)
);

ALTER TABLE list_versions DROP CONSTRAINT list_versions_list_check;
ALTER TABLE list_versions ADD CONSTRAINT list_versions_list_check CHECK (list IN ('users', 'invitations', 'journal', 'organizations'));

-- ---------------------------------------------------------------------------------------------
-- 3. The triggers, before the copy and the count: creating them locks organizations until the end of this
-- migration, so that neither misses a concurrent change.

CREATE FUNCTION copy_inserted_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_search (id, code, name, type, member, parent_id)
  SELECT id, code, search_fold(name), type, member, parent_id FROM new_rows;
  INSERT INTO organization_counts AS c (backend, type, member, n)
  SELECT pg_backend_pid(), type, member, count(*) FROM new_rows GROUP BY type, member
  ON CONFLICT (backend, type, member) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION drop_deleted_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM organization_search AS s USING old_rows AS o WHERE s.id = o.id;
  INSERT INTO organization_counts AS c (backend, type, member, n)
  SELECT pg_backend_pid(), type, member, -count(*) FROM old_rows GROUP BY type, member
  ON CONFLICT (backend, type, member) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION copy_changed_organization() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organization_search
  SET id = NEW.id, code = NEW.code, name = CASE WHEN OLD.name = NEW.name THEN name ELSE search_fold(NEW.name) END,
      type = NEW.type, member = NEW.member, parent_id = NEW.parent_id
  WHERE id = OLD.id;
  IF (OLD.type, OLD.member) IS DISTINCT FROM (NEW.type, NEW.member) THEN
    INSERT INTO organization_counts AS c (backend, type, member, n)
    VALUES (pg_backend_pid(), OLD.type, OLD.member, -1), (pg_backend_pid(), NEW.type, NEW.member, 1)
    ON CONFLICT (backend, type, member) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

-- The strings of the rows of organization_search inserted (argument 1) or deleted (-1), as the transition table
-- `changed_rows`; a change, as old_rows and new_rows (search_grams: migration 0019).
CREATE FUNCTION count_organization_grams() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_gram_counts AS c (gram, type, member, backend, n)
  SELECT g, r.type, r.member, pg_backend_pid(), TG_ARGV[0]::integer * count(*) FROM changed_rows AS r CROSS JOIN LATERAL search_grams(r.name, r.code) AS g
  GROUP BY 1, 2, 3
  ON CONFLICT (gram, type, member, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION count_organization_grams_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_gram_counts AS c (gram, type, member, backend, n)
  SELECT gram, type, member, pg_backend_pid(), sum(d) FROM (
    SELECT g AS gram, r.type, r.member, 1 AS d FROM new_rows AS r CROSS JOIN LATERAL search_grams(r.name, r.code) AS g
    UNION ALL
    SELECT g, r.type, r.member, -1 FROM old_rows AS r CROSS JOIN LATERAL search_grams(r.name, r.code) AS g) AS delta
  GROUP BY 1, 2, 3 HAVING sum(d) <> 0
  ON CONFLICT (gram, type, member, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- The copy and the counts from scratch: after a TRUNCATE, and after a load that bypassed the triggers (the benchmark seed).
CREATE FUNCTION recount_organizations() RETURNS void LANGUAGE sql AS $$
  DELETE FROM organization_search;
  INSERT INTO organization_search (id, code, name, type, member, parent_id)
  SELECT id, code, search_fold(name), type, member, parent_id FROM organizations;
  DELETE FROM organization_counts;
  INSERT INTO organization_counts (backend, type, member, n) SELECT 0, type, member, count(*) FROM organizations GROUP BY type, member;
  DELETE FROM organization_gram_counts;
  INSERT INTO organization_gram_counts (gram, type, member, backend, n)
  SELECT g, s.type, s.member, 0, count(*) FROM organization_search AS s CROSS JOIN LATERAL search_grams(s.name, s.code) AS g GROUP BY 1, 2, 3;
  INSERT INTO list_versions AS v (list, backend, version) VALUES ('organizations', 0, 1)
  ON CONFLICT (list, backend) DO UPDATE SET version = v.version + 1;
$$;

CREATE FUNCTION recount_organizations_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM recount_organizations();
  RETURN NULL;
END $$;

CREATE TRIGGER organizations_search_insert AFTER INSERT ON organizations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION copy_inserted_organizations();
CREATE TRIGGER organizations_search_delete AFTER DELETE ON organizations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION drop_deleted_organizations();
CREATE TRIGGER organizations_search_update AFTER UPDATE OF id, code, name, type, member, parent_id ON organizations
  FOR EACH ROW WHEN ((OLD.id, OLD.code, OLD.name, OLD.type, OLD.member, OLD.parent_id) IS DISTINCT FROM (NEW.id, NEW.code, NEW.name, NEW.type, NEW.member, NEW.parent_id))
  EXECUTE FUNCTION copy_changed_organization();
CREATE TRIGGER organizations_search_truncate AFTER TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION recount_organizations_after_truncate();
-- What a filtered total counts: the rows, their codes, names, types, membership and parents.
CREATE TRIGGER organizations_organizations_list_version AFTER INSERT OR DELETE OR UPDATE OF id, code, name, type, member, parent_id OR TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('organizations');

-- The seed bypasses the triggers (session_replication_role): its recount covers the organizations too (as in 0004, plus them).
CREATE OR REPLACE FUNCTION recount_list_totals() RETURNS void LANGUAGE sql AS $$
  DELETE FROM user_counts;
  INSERT INTO user_counts (backend, is_active, n) SELECT 0, is_active, count(*) FROM users GROUP BY is_active;
  DELETE FROM invitation_counts;
  INSERT INTO invitation_counts (backend, status, n) SELECT 0, status, count(*) FROM invitations GROUP BY status;
  INSERT INTO list_versions AS v (list, backend, version) VALUES ('users', 0, 1), ('invitations', 0, 1)
  ON CONFLICT (list, backend) DO UPDATE SET version = v.version + 1;
  SELECT recount_organizations();
$$;

SELECT recount_organizations();

-- The strings' counts follow the copy (created after the first recount, which counts them itself; a recount
-- refills the copy then replaces every count, what its triggers counted meanwhile included).
CREATE TRIGGER organization_search_grams_insert AFTER INSERT ON organization_search REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_organization_grams('1');
CREATE TRIGGER organization_search_grams_delete AFTER DELETE ON organization_search REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_organization_grams('-1');
CREATE TRIGGER organization_search_grams_update AFTER UPDATE ON organization_search REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_organization_grams_updated();

-- ---------------------------------------------------------------------------------------------
-- 4. The copy's indexes: its folded names and codes by trigram, its code order (a page of a common term walks it),
-- its parents (the SIRETs of a SIREN). The former trigram indexes on organizations serve nothing any more.

CREATE INDEX organization_search_name_trgm_idx ON organization_search USING gin (name gin_trgm_ops);
CREATE INDEX organization_search_code_trgm_idx ON organization_search USING gin (code gin_trgm_ops);
CREATE UNIQUE INDEX organization_search_code_idx ON organization_search (code, id);
CREATE INDEX organization_search_parent_idx ON organization_search (parent_id, code);
DROP INDEX organizations_name_trgm_idx;
DROP INDEX organizations_code_trgm_idx;
ANALYZE organization_search;

-- ---------------------------------------------------------------------------------------------
-- 5. The counts of connections that are gone fold into row 0 like the others (0019's, with the organizations').

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
  WITH gone AS (
    DELETE FROM organization_counts WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
    RETURNING type, member, n)
  INSERT INTO organization_counts AS c (backend, type, member, n) SELECT 0, type, member, sum(n) FROM gone GROUP BY type, member
  ON CONFLICT (backend, type, member) DO UPDATE SET n = c.n + excluded.n;
  WITH gone AS (
    DELETE FROM organization_gram_counts WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
    RETURNING gram, type, member, n)
  INSERT INTO organization_gram_counts AS c (gram, type, member, backend, n) SELECT gram, type, member, 0, sum(n) FROM gone GROUP BY gram, type, member
  ON CONFLICT (gram, type, member, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM organization_gram_counts WHERE backend = 0 AND n = 0;
$$;
