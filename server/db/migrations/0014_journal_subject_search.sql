-- Issue 21 (found by the attacker review): an organization caller's search of the journal must not find an entry
-- through its author when the author is a person they may not know (another company's administrator acting on an
-- employee of both companies, whose name the page already hides). The search text of the person or request an
-- entry concerns is kept apart (subject_search_text): search_text (author and subject) still finds the entries
-- through its trigram index, and for an organization caller an entry found only through its author is kept when
-- that author is one they may know (server/features/audit/audit-list.repository.ts authorKnown).
-- Runs on PostgreSQL 15 and on PGlite.
ALTER TABLE audit_log ADD COLUMN subject_search_text text NOT NULL DEFAULT '';

-- Existing entries: the person's name as recorded, their e-mail of today, the e-mail the change recorded, or the
-- invitee's e-mail (a request's subject_name), normalized as server/features/audit/audit.model.ts searchable() does.
UPDATE audit_log a SET subject_search_text = replace(replace(lower(translate(concat_ws(' ',
    a.subject_name,
    (SELECT u.email FROM users u
      WHERE a.entity_type = 'user' AND a.entity_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' AND u.id = a.entity_id::uuid),
    coalesce(a.changes #>> '{email,before}', a.changes ->> 'email'),
    a.changes #>> '{email,after}'),
  'ÀÂÄÁÃÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸàâäáãçéèêëíìîïñóòôöõúùûüýÿ', 'AAAAACEEEEIIIINOOOOOUUUUYYaaaaaceeeeiiiinooooouuuuyy')), 'œ', 'oe'), 'æ', 'ae')
WHERE a.subject_name IS NOT NULL OR a.entity_type = 'user';
