-- Issue 23, a person's data on request: each download of a person's data (GET /api/v2/users/{id}/personal-data,
-- /users/me/personal-data) is a journal entry 'personal-data.exported' about that person (entity_type 'user').
-- The check only widens: it keeps what the migrations before it allow, whatever they are (read from the check
-- itself), adds the new action, and is not validated again (every existing row passed the narrower check): no scan
-- of a large journal while its lock is held. Runs on PostgreSQL 15 and PGlite alike.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') AS m
   WHERE c.conname = 'audit_log_action_check' AND c.conrelid = 'audit_log'::regclass;
  allowed := array_append(array_remove(allowed, 'personal-data.exported'), 'personal-data.exported');
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s)) NOT VALID', (SELECT string_agg(quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;

-- A person's e-mails are found by their address: the outbox had no index on it (its rows are kept for the outbox's
-- retention only, so that the table stays small enough to index inside the migration's transaction).
CREATE INDEX IF NOT EXISTS outbox_recipient_lower_idx ON outbox (lower(recipient));
-- The requests made for a person's account (whatever address it had then): none indexed them by it.
CREATE INDEX IF NOT EXISTS invitations_invitee_user_idx ON invitations (invitee_user_id) WHERE invitee_user_id IS NOT NULL;
