-- Issue 24: the users list's filter 'État du compte' (accountState) and the Accueil's counts (GET /api/v2/home).
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18). Online: nothing here rewrites users' rows.
--
-- 1. The users whose account set-up link was sent and who never signed in ('Invitation non acceptée'), by when the
--    link was sent ('Lien d'activation expiré': sent 7 days ago or more). Partial: only those users are in it, so its
--    counts read a few index pages, and the planner knows how few they are.
--    Not CONCURRENTLY (the runner applies a file in a transaction): on a very large table, build it beforehand with
--    CREATE INDEX CONCURRENTLY IF NOT EXISTS under this name, and this statement then does nothing.
CREATE INDEX IF NOT EXISTS users_invitation_not_accepted_idx ON users (invitation_sent_at, id) INCLUDE (is_active, user_type)
  WHERE last_login_at IS NULL AND invitation_sent_at IS NOT NULL;

-- 2. Only users who never signed in are sent links: the two conditions go together, and the planner, taking them
--    apart, counted 7 times fewer such users than there are (a copy of portail_bench_100k, 15 % never signed in). It
--    then scanned the whole index for an administrator's few users (12.7 ms) instead of looking their 222 users up
--    (1.1 ms). Statistics of the conditions together give it the true number.
CREATE STATISTICS IF NOT EXISTS users_account_state_stats (mcv) ON (last_login_at IS NULL), (invitation_sent_at IS NOT NULL), is_active FROM users;
ANALYZE users;

-- 3. A kept total of the users list (server/db/list-totals.ts) filtered by accountState changes when a user signs in
--    for the first time or is sent a link: those updates bump the users list's version too. Any later sign-in
--    (last_login_at already set) bumps nothing and costs nothing more than before.
CREATE TRIGGER users_list_version_account_state AFTER UPDATE OF last_login_at, invitation_sent_at ON users
  FOR EACH ROW WHEN ((OLD.last_login_at IS NULL) <> (NEW.last_login_at IS NULL) OR OLD.invitation_sent_at IS DISTINCT FROM NEW.invitation_sent_at)
  EXECUTE FUNCTION bump_list_version('users');
