-- Issue 24, the account lifecycle's figures on /workflows (GET /api/v2/workflows/account-lifecycle/figures): the
-- warnings of the last 7, 30 or 90 days still on record (dormancy_warned_at; a sign-in or a reactivation clears it,
-- a deactivation keeps it), active or deactivated, with what dates the time before them (the dormancy clock).
-- users_dormancy_warned_idx (0022) holds only the active ones. Few rows: only warned accounts are in it.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18). Online: nothing here rewrites users' rows.
-- Not CONCURRENTLY (the runner applies a file in a transaction): on a very large table, build it beforehand with
-- CREATE INDEX CONCURRENTLY IF NOT EXISTS under this name, and this statement then does nothing.
CREATE INDEX IF NOT EXISTS users_dormancy_warned_at_idx ON users (dormancy_warned_at) INCLUDE (last_login_at, created_at, reactivated_at)
  WHERE dormancy_warned_at IS NOT NULL;
