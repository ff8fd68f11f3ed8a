-- An organization caller's users list (the users of their reach, migration 0004): each user of the reach is read
-- from users_id_name_idx for its sort key, an index-only read. The list's condition that an organization caller
-- never sees a back-office account (users.user_type, added with the reach's conditions since) is not in that
-- index, so each user's row was read as well: 709 heap reads a page for the clinic's administrator at 1M users,
-- half of that page's work; and a page in e-mail or last sign-in order read every row for its sort key. The same
-- index, holding the type and the three sort keys' columns, reads them from the index alone.
-- Not CONCURRENTLY (the runner applies a file in a transaction; about 3 s for a million users, holding the users'
-- writes): on a large database, build it beforehand with CREATE INDEX CONCURRENTLY IF NOT EXISTS under this name.
-- Runs on PostgreSQL 15 and PGlite.
CREATE INDEX IF NOT EXISTS users_id_name_type_idx ON users (id) INCLUDE (last_name, first_name, is_active, user_type, email, last_login_at);
DROP INDEX IF EXISTS users_id_name_idx;
