-- Issue 24: the request lifecycle's figures are kept between requests (server/db/kept-answers.ts) while the
-- invitations list's version stays the same. The figures read the moments of the requests (made, moved) and their
-- requester, which the application writes only with a status (that moves the version already); any statement that
-- writes one of them alone (a data repair, a test setting known times) moves it too. Runs on PostgreSQL 15 and on
-- PGlite. Online: no row is rewritten.
CREATE TRIGGER invitations_list_version_moments AFTER UPDATE OF created_at, processed_at, sender_user_id ON invitations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('invitations');
