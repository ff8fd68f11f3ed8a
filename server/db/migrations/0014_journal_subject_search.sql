-- Issue 21 (found by the attacker review): an organization caller's search of the journal must not find an entry
-- through its author when the author is a person they may not know (another company's administrator acting on an
-- employee of both companies, whose name the page already hides). The search text of the person or request an
-- entry concerns is kept apart (subject_search_text): search_text (author and subject) still finds the entries
-- through its trigram index, and for an organization caller an entry found only through its author is kept when
-- that author is one they may know (server/features/audit/audit-list.repository.ts authorKnown).
-- Runs on PostgreSQL 15 and on PGlite.
--
-- Instant on a journal of any size: the column is added empty (NULL: not yet computed; such an entry is found
-- through its author alone, never wrongly through it), and the existing entries are filled in by the scheduled
-- job 'audit.backfill' (server/jobs/audit-backfill.ts) in batches of short transactions, oldest first. Filled in
-- here, 10 million entries held every audited write of the portal for more than half an hour.
ALTER TABLE audit_log ADD COLUMN subject_search_text text NULL;

-- How far the job has gone: every entry up to this id has been filled in.
CREATE TABLE audit_backfills (
  name         text PRIMARY KEY,
  done_through bigint NOT NULL
);
INSERT INTO audit_backfills (name, done_through) VALUES ('subject_search_text', 0);

-- One batch: the entries with an id in (after, upto] not yet filled in get the person's name as recorded, their
-- e-mail of today, the e-mail the change recorded, or the invitee's (a request's subject_name), normalized as
-- server/features/audit/audit.model.ts searchable() does (PGlite has no unaccent). Answers how many it filled.
CREATE FUNCTION backfill_audit_subject_search(after bigint, upto bigint) RETURNS bigint LANGUAGE sql AS $$
  WITH filled AS (
    UPDATE audit_log a SET subject_search_text = replace(replace(lower(translate(concat_ws(' ',
        a.subject_name,
        (SELECT u.email FROM users u
          WHERE a.entity_type = 'user' AND a.entity_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' AND u.id = a.entity_id::uuid),
        coalesce(a.changes #>> '{email,before}', a.changes ->> 'email'),
        a.changes #>> '{email,after}'),
      'ÀÂÄÁÃÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸàâäáãçéèêëíìîïñóòôöõúùûüýÿ', 'AAAAACEEEEIIIINOOOOOUUUUYYaaaaaceeeeiiiinooooouuuuyy')), 'œ', 'oe'), 'æ', 'ae')
    WHERE a.id > after AND a.id <= upto AND a.subject_search_text IS NULL
    RETURNING 1)
  SELECT count(*) FROM filled;
$$;
