-- Issues 23 and 24: the kept totals of the users list's states that move with the clock ('Comptes dormants',
-- 'Lien d'activation expiré'; server/db/list-totals.ts TotalClock). Measured at 1M users (npm run bench, 14:39): an
-- employer administrator's Accueil counted their dormant users on every request (709 users, 5 to 16 ms of the
-- database each time), p95 712 ms under 32 connections. Such a total is now kept like the others, until the clock
-- brings its next user in or the data changes. Runs on PostgreSQL 15 and on PGlite. Online: no row is rewritten.
--
-- Whether a user is dormant depends on columns the users list's version does not follow: the sign-in
-- (last_login_at), the reactivation, the creation and the warning. Any statement that may write one of them moves
-- the 'dormancy' version, which a dormant total adds to the users list's. A sign-in, which writes the first and
-- clears the last, thus moves it: a kept dormant total is counted again after a sign-in anywhere.
ALTER TABLE list_versions DROP CONSTRAINT list_versions_list_check;
ALTER TABLE list_versions ADD CONSTRAINT list_versions_list_check CHECK (list IN ('users', 'invitations', 'journal', 'organizations', 'dormancy'));

CREATE TRIGGER users_dormancy_version AFTER UPDATE OF last_login_at, created_at, reactivated_at, dormancy_warned_at ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('dormancy');
