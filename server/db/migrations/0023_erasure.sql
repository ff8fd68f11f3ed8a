-- Issue 23, erasure that keeps the journal honest: a permanent delete (by a person or by the dormant accounts'
-- job) replaces, in the delete's own transaction, every personal field of the deleted person kept elsewhere
-- (the journal's entries and their before/after values, the requests, the outbox, the reports of actions on
-- many users) with a stable pseudonym 'Utilisateur supprimé n° {number}' (server/features/users/users-erasure.*).
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).

-- 1. The pseudonym's number of each deleted person: drawn from a sequence (never derived from the id or the
--    e-mail), recorded so that the same person always gets the same number (a second erasure of the same id,
--    the job's after a manual attempt, finds it). The id is the one the journal's entries keep as entity_id.
CREATE SEQUENCE erased_person_numbers;
CREATE TABLE erased_persons (
  user_id   uuid PRIMARY KEY,
  number    bigint NOT NULL UNIQUE,
  erased_at timestamptz NOT NULL DEFAULT now()
);

-- 2. An entry's changes with each personal field replaced: `replacements` maps a field ('firstName', 'email'…)
--    to what replaces its value; a value recorded as { before, after } has each non-null side replaced, a plain
--    value is replaced, null stays null (nothing was there). Other fields are left as they are.
CREATE FUNCTION erase_personal_changes(changes jsonb, replacements jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(e.key, CASE
      WHEN NOT (replacements ? e.key) OR jsonb_typeof(e.value) = 'null' THEN e.value
      WHEN jsonb_typeof(e.value) = 'object' THEN (
        SELECT coalesce(jsonb_object_agg(v.key, CASE WHEN jsonb_typeof(v.value) = 'null' THEN v.value ELSE replacements -> e.key END), '{}'::jsonb)
        FROM jsonb_each(e.value) AS v)
      ELSE replacements -> e.key
    END), '{}'::jsonb)
  FROM jsonb_each(changes) AS e
$$;

-- 3. What finds a person's rows without a scan. The journal's are there already (audit_log_actor_at_idx,
--    audit_log_entity_at_idx), as are the requests' by invitee e-mail and by requester. The requests' deciders
--    and cancellers are also what a delete of any user sets to null (their foreign keys): indexed, that no longer
--    scans the requests either. Not CONCURRENTLY (the runner applies a file in a transaction): on very large
--    tables, build them beforehand with CREATE INDEX CONCURRENTLY IF NOT EXISTS under these names, and these
--    statements then do nothing. The outbox and the actions' reports are kept short by their retention jobs.
CREATE INDEX IF NOT EXISTS invitations_invitee_user_idx ON invitations (invitee_user_id) WHERE invitee_user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS invitations_validator_user_idx ON invitations (validator_user_id) WHERE validator_user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS invitations_cancelled_by_user_idx ON invitations (cancelled_by_user_id) WHERE cancelled_by_user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS outbox_recipient_idx ON outbox (lower(recipient));
CREATE INDEX IF NOT EXISTS bulk_action_targets_user_idx ON bulk_action_targets (user_id);
