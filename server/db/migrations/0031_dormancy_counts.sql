-- Issues 23 and 24: the back office's 'Comptes dormants' total (the users list's, and the Accueil's dormantUsers) without
-- counting half a million dormant accounts on every request. Dormancy moves with the clock, so no counter can hold the
-- total itself; it holds what the total is made of. Active accounts are counted by the UTC day of their activity (the
-- latest of the sign-in, the creation and the reactivation, as users-dormancy.repository.ts ACTIVITY), and the warned
-- ones apart, on the day '-infinity' (before every cut-off: a warned account is dormant whatever the time). The total
-- at a cut-off is then the sum of the days before the cut-off's day, plus the accounts of that day up to the cut-off,
-- read from the partial index users_dormancy_activity_idx of migration 0022 (a day's range: a few hundred entries at a
-- million users); with the warning off (no cut-off), the day '-infinity' alone (users-dormancy.repository.ts
-- countDormant).
-- One row per connection and day, as user_counts and audit_day_counts are (migrations 0004, 0017): concurrent writers
-- never wait for one another, and the sum read in the statement that reads the day's range is of the same snapshot.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).

CREATE TABLE user_dormancy_day_counts (
  day     date NOT NULL,
  backend integer NOT NULL,
  n       bigint NOT NULL,
  PRIMARY KEY (day, backend)
);

-- Where an account counts: nowhere when inactive, on '-infinity' when warned, else on its activity's UTC day.
CREATE FUNCTION user_dormancy_day(is_active boolean, warned_at timestamptz, last_login_at timestamptz, created_at timestamptz, reactivated_at timestamptz)
RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN NOT is_active THEN NULL
              WHEN warned_at IS NOT NULL THEN '-infinity'::date
              ELSE (greatest(last_login_at, created_at, reactivated_at) AT TIME ZONE 'UTC')::date END
$$;

-- Rows inserted or deleted, as the transition table `changed_rows`.
CREATE FUNCTION count_dormancy_days_of_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_dormancy_day_counts AS c (day, backend, n)
  SELECT d.day, pg_backend_pid(), CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END * count(*)
  FROM changed_rows AS r
  CROSS JOIN LATERAL (SELECT user_dormancy_day(r.is_active, r.dormancy_warned_at, r.last_login_at, r.created_at, r.reactivated_at) AS day) AS d
  WHERE d.day IS NOT NULL GROUP BY d.day
  ON CONFLICT (day, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- Every UPDATE of users (a column list would forbid the transition tables): only the rows whose day changed move a
-- count, so an edit of a name, or a sign-in on the day of the previous one, writes nothing.
CREATE FUNCTION count_dormancy_days_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_dormancy_day_counts AS c (day, backend, n)
  SELECT day, pg_backend_pid(), sum(d)
  FROM (SELECT user_dormancy_day(o.is_active, o.dormancy_warned_at, o.last_login_at, o.created_at, o.reactivated_at) AS old_day,
               user_dormancy_day(r.is_active, r.dormancy_warned_at, r.last_login_at, r.created_at, r.reactivated_at) AS new_day
        FROM new_rows AS r JOIN old_rows AS o USING (id)) AS changed
  CROSS JOIN LATERAL (VALUES (changed.old_day, -1), (changed.new_day, 1)) AS delta (day, d)
  WHERE changed.old_day IS DISTINCT FROM changed.new_day AND delta.day IS NOT NULL
  GROUP BY day HAVING sum(d) <> 0
  ON CONFLICT (day, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- The triggers come before the first count: creating them locks users until the end of this migration, so the count
-- misses no concurrent change.
CREATE TRIGGER users_dormancy_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_dormancy_days_of_rows();
CREATE TRIGGER users_dormancy_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_dormancy_days_of_rows();
CREATE TRIGGER users_dormancy_count_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_dormancy_days_updated();

-- From scratch: here, after a truncate of users (recount_after_truncate calls recount_list_totals), and after a load
-- that bypassed the triggers (the benchmark seed calls recount_list_totals).
CREATE FUNCTION recount_dormancy_days() RETURNS void LANGUAGE sql AS $$
  DELETE FROM user_dormancy_day_counts;
  INSERT INTO user_dormancy_day_counts (day, backend, n)
  SELECT d.day, 0, count(*)
  FROM users AS u CROSS JOIN LATERAL (SELECT user_dormancy_day(u.is_active, u.dormancy_warned_at, u.last_login_at, u.created_at, u.reactivated_at) AS day) AS d
  WHERE u.is_active GROUP BY d.day;
$$;

-- recount_list_totals and compact_list_totals do what they did (whatever the migrations before this one made of them),
-- then the same for the days' counts: the previous ones are kept under another name and called first.
ALTER FUNCTION recount_list_totals() RENAME TO recount_list_totals_until_0031;
CREATE FUNCTION recount_list_totals() RETURNS void LANGUAGE sql AS $$
  SELECT recount_list_totals_until_0031();
  SELECT recount_dormancy_days();
$$;

SELECT recount_dormancy_days();

-- Start-up's folding (server/main.ts), plus the days' counts: the rows of connections that are gone, and every
-- connection's rows of days before yesterday (a sign-in takes an account off an old day, so old days keep being
-- written, by every connection in turn: folding them keeps the table about a row per day), go into row 0, sums
-- unchanged; days whose count fell to zero go. A row a writer holds (its transaction not ended) is left to the next
-- folding rather than waited for: the writer may be waiting for a row this folding took, and neither would end. Row 0
-- is written in the order of the days, so that two foldings (two nodes starting) never wait for each other in a circle.
ALTER FUNCTION compact_list_totals() RENAME TO compact_list_totals_until_0031;
CREATE FUNCTION compact_list_totals() RETURNS void LANGUAGE sql AS $$
  SELECT compact_list_totals_until_0031();
  WITH taken AS (
    SELECT day, backend FROM user_dormancy_day_counts WHERE backend <> 0
      AND (day < (now() AT TIME ZONE 'UTC')::date - 1 OR backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL))
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM user_dormancy_day_counts AS c USING taken WHERE c.day = taken.day AND c.backend = taken.backend RETURNING c.day, c.n)
  INSERT INTO user_dormancy_day_counts AS c (day, backend, n) SELECT day, 0, sum(n) FROM gone GROUP BY day ORDER BY day
  ON CONFLICT (day, backend) DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM user_dormancy_day_counts WHERE backend = 0 AND n = 0;
$$;
