-- Issue 21, the journal ('Journal des modifications'): who may read an entry, how it is filtered and found.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18). Leaves the action and entity_type checks alone
-- (0012_exports.sql widens them).
--
-- 1. Every organization an entry concerns, written in the entry's transaction (server/features/audit/audit.repository.ts):
--    for an entry about a user, each organization the user belonged to before or after the change; for a
--    request, its organization. siren_id is the organization's SIREN (itself for a SIREN), so that a filter on
--    a SIREN finds its SIRETs' entries. `at` repeats the entry's time, so that the journal of an organization
--    reads newest first from the index alone. The scope of an organization caller is the organizations where
--    they hold USER_LIST: an entry is theirs when one of its rows is.
CREATE TABLE audit_log_organizations (
  audit_id        bigint NOT NULL REFERENCES audit_log (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  siren_id        uuid NOT NULL,
  at              timestamptz NOT NULL,
  PRIMARY KEY (audit_id, organization_id)
);
CREATE INDEX audit_log_organizations_org_idx ON audit_log_organizations (organization_id, at DESC, audit_id DESC);
CREATE INDEX audit_log_organizations_siren_idx ON audit_log_organizations (siren_id, at DESC, audit_id DESC);

-- An entry's time is never changed by the portal; should an operator (or a test) change it, the copies follow.
CREATE FUNCTION audit_log_at_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE audit_log_organizations SET at = NEW.at WHERE audit_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER audit_log_at_follows AFTER UPDATE OF at ON audit_log FOR EACH ROW WHEN (OLD.at IS DISTINCT FROM NEW.at) EXECUTE FUNCTION audit_log_at_follows();

-- 2. What the journal shows and searches, kept with the entry at write time: the author's and the person's
--    names as they were (a deleted person's entries stay readable), and the search text (author's and
--    person's names and e-mails, the invitee's e-mail), lower-case and without accents (normalized in
--    TypeScript: PGlite has no unaccent), searched by substring through a trigram index.
ALTER TABLE audit_log ADD COLUMN actor_name text NULL;
ALTER TABLE audit_log ADD COLUMN subject_name text NULL;
ALTER TABLE audit_log ADD COLUMN search_text text NOT NULL DEFAULT '';

-- 3. Indexes for the filters, newest first with the id as tie-break.
CREATE INDEX audit_log_search_trgm_idx ON audit_log USING gin (search_text gin_trgm_ops);
CREATE INDEX audit_log_actor_at_idx ON audit_log (actor_id, at DESC, id DESC) WHERE actor_id IS NOT NULL;
CREATE INDEX audit_log_action_at_idx ON audit_log (action, at DESC, id DESC);
CREATE INDEX audit_log_entity_at_idx ON audit_log (entity_type, entity_id, at DESC, id DESC);
DROP INDEX IF EXISTS audit_log_action_idx;
DROP INDEX IF EXISTS audit_log_entity_idx;

-- 4. The existing entries (an existing database's journal): names from the users of today, the search text
--    with the accents of French removed, and their organizations: the one recorded, a user's current
--    assignments, and those named by the roles' before/after of a 'user.roles' or 'user.delete' entry. The
--    entry's text ids are cast (where they have the shape) so that the users' and requests' keys serve the lookups.
CREATE TEMPORARY TABLE journal_backfill ON COMMIT DROP AS
SELECT a.id,
       CASE WHEN a.entity_type = 'user' AND a.entity_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN a.entity_id::uuid END AS user_id,
       CASE WHEN a.entity_type = 'invitation' AND a.entity_id ~ '^[0-9]{1,18}$' THEN a.entity_id::bigint END AS invitation_id
FROM audit_log a;
CREATE INDEX ON journal_backfill (id);
ANALYZE journal_backfill;

UPDATE audit_log a SET
  actor_name = (SELECT u.first_name || ' ' || u.last_name FROM users u WHERE u.id = a.actor_id),
  subject_name = CASE
    WHEN a.entity_type = 'user' THEN coalesce(
      (SELECT u.first_name || ' ' || u.last_name FROM users u WHERE u.id = b.user_id),
      nullif(concat_ws(' ', coalesce(a.changes #>> '{firstName,before}', a.changes #>> '{firstName,after}', a.changes ->> 'firstName'),
                            coalesce(a.changes #>> '{lastName,before}', a.changes #>> '{lastName,after}', a.changes ->> 'lastName')), ''))
    WHEN a.entity_type = 'invitation' THEN coalesce(a.changes ->> 'inviteeEmail', (SELECT i.invitee_email FROM invitations i WHERE i.id = b.invitation_id))
    ELSE NULL END
FROM journal_backfill b WHERE b.id = a.id;
UPDATE audit_log a SET search_text = replace(replace(lower(translate(concat_ws(' ',
    a.actor_name, a.actor_email, a.subject_name,
    (SELECT u.email FROM users u WHERE u.id = b.user_id),
    coalesce(a.changes #>> '{email,before}', a.changes ->> 'email')),
  'ÀÂÄÁÃÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸàâäáãçéèêëíìîïñóòôöõúùûüýÿ', 'AAAAACEEEEIIIINOOOOOUUUUYYaaaaaceeeeiiiinooooouuuuyy')), 'œ', 'oe'), 'æ', 'ae')
FROM journal_backfill b WHERE b.id = a.id;

INSERT INTO audit_log_organizations (audit_id, organization_id, siren_id, at)
SELECT DISTINCT concerned.audit_id, o.id, CASE WHEN o.type = 'SIRET' THEN coalesce(o.parent_id, o.id) ELSE o.id END, concerned.at
FROM (
  SELECT a.id AS audit_id, a.at, a.organization_id AS organization_id, NULL::text AS code FROM audit_log a WHERE a.organization_id IS NOT NULL
  UNION ALL
  SELECT a.id, a.at, ra.organization_id, NULL FROM audit_log a JOIN journal_backfill b ON b.id = a.id JOIN role_assignments ra ON ra.user_id = b.user_id
  UNION ALL
  SELECT a.id, a.at, NULL, split_part(r.value, ' ', 1)
  FROM audit_log a
  CROSS JOIN LATERAL (
    SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(a.changes #> '{assignments,before}') = 'array' THEN a.changes #> '{assignments,before}' ELSE '[]'::jsonb END)
    UNION ALL
    SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(a.changes #> '{assignments,after}') = 'array' THEN a.changes #> '{assignments,after}' ELSE '[]'::jsonb END)
  ) AS r(value)
  WHERE a.entity_type = 'user'
) AS concerned
JOIN organizations o ON o.id = concerned.organization_id OR o.code = concerned.code;

-- 5. Exact totals of the journal without counting ten million rows each time (server/db/list-totals.ts): the
--    unfiltered total is kept by triggers (one row per connection, as user_counts), a filtered one is kept per
--    process while the 'journal' list version stays the same.
CREATE TABLE audit_counts (
  backend integer PRIMARY KEY,
  n       bigint NOT NULL
);
INSERT INTO audit_counts (backend, n) SELECT 0, count(*) FROM audit_log;

CREATE FUNCTION count_inserted_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_counts AS c (backend, n) SELECT pg_backend_pid(), count(*) FROM new_rows
  ON CONFLICT (backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE FUNCTION count_deleted_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_counts AS c (backend, n) SELECT pg_backend_pid(), -count(*) FROM old_rows
  ON CONFLICT (backend) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE TRIGGER audit_log_count_insert AFTER INSERT ON audit_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_audit();
CREATE TRIGGER audit_log_count_delete AFTER DELETE ON audit_log REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_audit();

ALTER TABLE list_versions DROP CONSTRAINT list_versions_list_check;
ALTER TABLE list_versions ADD CONSTRAINT list_versions_list_check CHECK (list IN ('users', 'invitations', 'journal'));
-- Entries written or purged, their organizations, and what their sentences show (users' names, organizations).
CREATE TRIGGER audit_log_journal_version AFTER INSERT OR DELETE OR UPDATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('journal');
CREATE TRIGGER audit_log_organizations_journal_version AFTER INSERT OR DELETE OR UPDATE ON audit_log_organizations FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('journal');
