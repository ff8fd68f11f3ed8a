-- Issue 22, the bulk actions' speed: what triggers keep of the users on an UPDATE (the search copy of migration 0019,
-- the totals by status and the name ranges of migration 0004) is written once per statement instead of once per user.
-- A batch of a bulk action deactivates 50 persons in one UPDATE: the row trigger users_search_update updated user_search
-- once a person, and each of those statements moved the counts of the strings (user_search_grams_update) again: 643 ms
-- of a 1.06 s batch on the 1M-user database under load. Now one UPDATE of user_search for the whole statement, one
-- change of the counts by status, one pass over the name ranges.
-- Statement triggers reading the statement's rows (transition tables: old_rows, new_rows). PostgreSQL allows neither a
-- column list (UPDATE OF …) nor a WHEN on OLD and NEW with them, so they fire on every UPDATE of users, and each keeps
-- only the rows whose fields it copies changed: the new rows EXCEPT the old ones (EXCEPT compares nulls as equal: a
-- row is kept when any of those fields IS DISTINCT FROM before), which reads each set once, whatever their size (no
-- join of the two, whose plan, kept for the connection, is chosen at its first use). An UPDATE that changes none of them
-- (a version moved, a dormancy warning, a sign-in for the counts and the ranges) writes nothing.
-- A plan of a trigger's statement is made at its first run on a connection and kept, sized for that run's rows. So
-- that a first large UPDATE (thousands of users) does not leave every later one with its plan, the functions whose
-- plans went wrong are given settings of their own (measured on a copy of the 100k-user database): the search copy is
-- always written through its primary key (no hash or merge join: after a first UPDATE of 20,000 users, each sign-in
-- then read all of user_search, 32 to 45 ms instead of 0.3), and neither it nor the counts of the strings is compiled
-- (JIT) at each run (after a first UPDATE of 2,000 users, a plan estimated above jit_above_cost was compiled at every
-- sign-in: 17 to 47 ms).
-- Same meaning as the triggers replaced; the functions they ran are dropped. Nothing here rewrites a row.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).

-- ---------------------------------------------------------------------------------------------
-- 1. The search copy (was copy_changed_user, one row at a time): the users whose name, e-mail, status or last sign-in
-- changed, written folded as copy_inserted_users writes them.

CREATE FUNCTION copy_changed_users() RETURNS trigger LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off SET jit = off AS $$
BEGIN
  UPDATE user_search AS s
  SET is_active = n.is_active, name = search_fold(n.first_name || ' ' || n.last_name), email = search_fold(n.email), folded = true,
      name_key = lower(n.last_name || n.first_name), email_key = lower(n.email), last_login_at = n.last_login_at
  FROM (SELECT id, first_name, last_name, email, is_active, last_login_at FROM new_rows
        EXCEPT SELECT id, first_name, last_name, email, is_active, last_login_at FROM old_rows) AS n
  WHERE s.id = n.id;
  RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------------------------
-- 2. The totals by status (was count_user_status_change, two counts a user): the statement's users by their new
-- status less the same by their old one; a status no user left or joined moves nothing.

CREATE FUNCTION count_users_status_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_counts AS c (backend, is_active, n)
  SELECT pg_backend_pid(), x.is_active, sum(x.d)
  FROM (SELECT is_active, 1 AS d FROM new_rows UNION ALL SELECT is_active, -1 FROM old_rows) AS x
  GROUP BY x.is_active HAVING sum(x.d) <> 0
  ON CONFLICT (backend, is_active) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------------------------
-- 3. The name ranges (was range_changed_user, a pass a user): the users whose name or status changed leave their old
-- range and join their new one; each range's sizes move once by the sum, in key order as every writer locks them, and
-- a range whose sum is nought is not written.

CREATE FUNCTION range_changed_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d record;
BEGIN
  FOR d IN SELECT g.start_key, g.start_id, sum(c.a) AS a, sum(c.i) AS i
           FROM (SELECT lower(n.last_name || n.first_name) AS key, n.id, n.is_active::int AS a, (NOT n.is_active)::int AS i
                 FROM (SELECT id, first_name, last_name, is_active FROM new_rows
                       EXCEPT SELECT id, first_name, last_name, is_active FROM old_rows) AS n
                 UNION ALL
                 SELECT lower(o.last_name || o.first_name), o.id, -o.is_active::int, -(NOT o.is_active)::int
                 FROM (SELECT id, first_name, last_name, is_active FROM old_rows
                       EXCEPT SELECT id, first_name, last_name, is_active FROM new_rows) AS o) AS c (key, id, a, i)
           CROSS JOIN LATERAL user_name_range(c.key, c.id) AS g
           GROUP BY 1, 2 HAVING sum(c.a) <> 0 OR sum(c.i) <> 0 ORDER BY 1, 2 LOOP
    UPDATE user_name_ranges SET n_active = n_active + d.a, n_inactive = n_inactive + d.i WHERE start_key = d.start_key AND start_id = d.start_id;
  END LOOP;
  RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------------------------
-- 4. The counts of the strings of one to three characters (migration 0019), now moved once for a whole batch: the
-- users of a deactivation share most of their strings, so each count is written once, not once a person. Same counts
-- as before, written with less work (the delta of 0019's function, split by what it counts):
--   every user's counts (inactive_only false) move only for the rows whose name, e-mail or folding changed: a change of
--   status alone left them as they were (its strings out, then in again), and they are no longer read for it;
--   the inactive users' counts (true) move for the rows that were inactive before or are after.
-- Rows are paired by EXCEPT, not by a join of the old and new rows: see the top of this file.

CREATE OR REPLACE FUNCTION count_search_grams_updated() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO user_search_gram_counts AS c (gram, inactive_only, backend, n)
  SELECT x.gram, x.inactive_only, pg_backend_pid(), sum(x.d)
  FROM (
    SELECT g.gram, false AS inactive_only, r.d
    FROM (SELECT s.name, s.email, 1 AS d
          FROM (SELECT id, name, email, folded FROM new_rows EXCEPT SELECT id, name, email, folded FROM old_rows) AS s WHERE s.folded
          UNION ALL
          SELECT s.name, s.email, -1
          FROM (SELECT id, name, email, folded FROM old_rows EXCEPT SELECT id, name, email, folded FROM new_rows) AS s WHERE s.folded) AS r
    CROSS JOIN LATERAL search_grams(r.name, r.email) AS g (gram)
    UNION ALL
    SELECT g.gram, true, r.d
    FROM (SELECT s.name, s.email, 1 AS d
          FROM (SELECT id, name, email, is_active, folded FROM new_rows EXCEPT SELECT id, name, email, is_active, folded FROM old_rows) AS s
          WHERE s.folded AND NOT s.is_active
          UNION ALL
          SELECT s.name, s.email, -1
          FROM (SELECT id, name, email, is_active, folded FROM old_rows EXCEPT SELECT id, name, email, is_active, folded FROM new_rows) AS s
          WHERE s.folded AND NOT s.is_active) AS r
    CROSS JOIN LATERAL search_grams(r.name, r.email) AS g (gram)) AS x
  GROUP BY 1, 2 HAVING sum(x.d) <> 0
  ON CONFLICT (gram, inactive_only, backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------------------------
-- 5. The row triggers replaced by statement triggers under the same names, and the functions they ran dropped.

DROP TRIGGER users_search_update ON users;
DROP TRIGGER users_count_status ON users;
DROP TRIGGER users_range_update ON users;
DROP FUNCTION copy_changed_user();
DROP FUNCTION count_user_status_change();
DROP FUNCTION range_changed_user();
CREATE TRIGGER users_search_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION copy_changed_users();
CREATE TRIGGER users_count_status AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_users_status_changes();
CREATE TRIGGER users_range_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION range_changed_users();
