-- Issue 21: a deep page of the whole journal without walking millions of index entries. The journal's entries
-- are counted per day (UTC), by triggers in the transactions that write, purge or re-date them, one row per
-- connection as audit_counts does (no lock shared by writers). A page at offset N then finds its day from
-- these few hundred rows and skips only within that day (server/features/audit/audit-list.repository.ts):
-- page 400,000 of 1,000,000 read 4,000,000 index entries (616 ms alone); it now reads at most a day's.
-- Runs on PostgreSQL 15 and on PGlite.
CREATE TABLE audit_day_counts (
  day     date NOT NULL,
  backend integer NOT NULL,
  n       bigint NOT NULL,
  PRIMARY KEY (day, backend)
);

CREATE FUNCTION count_audit_days_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_day_counts AS c (day, backend, n)
    SELECT (at AT TIME ZONE 'UTC')::date, pg_backend_pid(), count(*) FROM new_rows GROUP BY 1
  ON CONFLICT (day, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE FUNCTION count_audit_days_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_day_counts AS c (day, backend, n)
    SELECT (at AT TIME ZONE 'UTC')::date, pg_backend_pid(), -count(*) FROM old_rows GROUP BY 1
  ON CONFLICT (day, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
-- An entry is never re-dated by the portal; an operator (or a test) who does moves its count with it.
CREATE FUNCTION count_audit_days_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_day_counts AS c (day, backend, n)
    SELECT day, pg_backend_pid(), sum(d) FROM (
      SELECT (o.at AT TIME ZONE 'UTC')::date AS day, -1 AS d FROM old_rows o JOIN new_rows w ON w.id = o.id WHERE o.at IS DISTINCT FROM w.at
      UNION ALL
      SELECT (w.at AT TIME ZONE 'UTC')::date, 1 FROM old_rows o JOIN new_rows w ON w.id = o.id WHERE o.at IS DISTINCT FROM w.at
    ) AS moved GROUP BY day
  ON CONFLICT (day, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- The triggers come before the first count: creating them locks audit_log until the end of this migration.
CREATE TRIGGER audit_log_day_count_insert AFTER INSERT ON audit_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_audit_days_inserted();
CREATE TRIGGER audit_log_day_count_delete AFTER DELETE ON audit_log REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_audit_days_deleted();
CREATE TRIGGER audit_log_day_count_update AFTER UPDATE ON audit_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_audit_days_moved();

INSERT INTO audit_day_counts (day, backend, n) SELECT (at AT TIME ZONE 'UTC')::date, 0, count(*) FROM audit_log GROUP BY 1;

-- Start-up's folding (server/main.ts) now covers the journal's counters too: the rows of connections that are
-- gone, and every connection's rows of the days before yesterday (no entry is written on them any more), go
-- into row 0, sums unchanged; days whose count fell to zero (purged) go.
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
$$;
