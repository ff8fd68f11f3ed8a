-- Issue 21: a deep page of the whole journal skips within an hour, not within a day. Migration 0017 counts the
-- entries per day: a page finds its day from those few hundred rows, then skipped on average half a day of the time
-- index (11,800 entries for page 372,172 of a 10-million-entry journal, most of the page's work). The entries are now
-- counted per hour too (UTC), by triggers in the transactions that write, purge or re-date them, one row per
-- connection as the days' counts: the page finds its day, then its hour among that day's 24, and skips within the
-- hour (server/features/audit/audit-list.repository.ts idsSeekingTheHour).
-- The hours are counted once here, after the triggers exist (creating them locks audit_log until this migration
-- ends): an index-only read of audit_log_at_idx, a few seconds for 10 million entries. Runs on PostgreSQL 15 and
-- PGlite.
CREATE TABLE audit_hour_counts (
  hour    timestamp NOT NULL,
  backend integer NOT NULL,
  n       bigint NOT NULL,
  PRIMARY KEY (hour, backend)
);

CREATE FUNCTION count_audit_hours_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_hour_counts AS c (hour, backend, n)
    SELECT date_trunc('hour', at AT TIME ZONE 'UTC'), pg_backend_pid(), count(*) FROM new_rows GROUP BY 1
  ON CONFLICT (hour, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE FUNCTION count_audit_hours_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_hour_counts AS c (hour, backend, n)
    SELECT date_trunc('hour', at AT TIME ZONE 'UTC'), pg_backend_pid(), -count(*) FROM old_rows GROUP BY 1
  ON CONFLICT (hour, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
-- An entry is never re-dated by the portal; an operator (or a test) who does moves its count with it.
CREATE FUNCTION count_audit_hours_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_hour_counts AS c (hour, backend, n)
    SELECT hour, pg_backend_pid(), sum(d) FROM (
      SELECT date_trunc('hour', o.at AT TIME ZONE 'UTC') AS hour, -1 AS d FROM old_rows o JOIN new_rows w ON w.id = o.id WHERE o.at IS DISTINCT FROM w.at
      UNION ALL
      SELECT date_trunc('hour', w.at AT TIME ZONE 'UTC'), 1 FROM old_rows o JOIN new_rows w ON w.id = o.id WHERE o.at IS DISTINCT FROM w.at
    ) AS moved GROUP BY hour
  ON CONFLICT (hour, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

CREATE TRIGGER audit_log_hour_count_insert AFTER INSERT ON audit_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_audit_hours_inserted();
CREATE TRIGGER audit_log_hour_count_delete AFTER DELETE ON audit_log REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_audit_hours_deleted();
CREATE TRIGGER audit_log_hour_count_update AFTER UPDATE ON audit_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_audit_hours_moved();

INSERT INTO audit_hour_counts (hour, backend, n) SELECT date_trunc('hour', at AT TIME ZONE 'UTC'), 0, count(*) FROM audit_log GROUP BY 1;

-- Start-up's folding (server/main.ts) and the retention's (hourly) do what they did, then the same for the hours:
-- the rows of connections that are gone, and every connection's rows of hours more than a day old, go into row 0,
-- sums unchanged; hours whose count fell to zero (purged) go. A row a writer holds is left to the next folding
-- (as 0031's), and row 0 is written in the order of the hours.
ALTER FUNCTION compact_list_totals() RENAME TO compact_list_totals_until_0037;
CREATE FUNCTION compact_list_totals() RETURNS void LANGUAGE sql AS $$
  SELECT compact_list_totals_until_0037();
  WITH taken AS (
    SELECT hour, backend FROM audit_hour_counts WHERE backend <> 0
      AND (hour < (now() AT TIME ZONE 'UTC') - interval '1 day' OR backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL))
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM audit_hour_counts AS c USING taken WHERE c.hour = taken.hour AND c.backend = taken.backend RETURNING c.hour, c.n)
  INSERT INTO audit_hour_counts AS c (hour, backend, n) SELECT hour, 0, sum(n) FROM gone GROUP BY hour ORDER BY hour
  ON CONFLICT (hour, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM audit_hour_counts WHERE backend = 0 AND n = 0;
$$;
