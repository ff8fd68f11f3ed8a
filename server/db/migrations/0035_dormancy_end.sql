-- Issue 24, the account lifecycle's last unrecorded moves: a sign-in that ends a dormancy warning is a journal entry
-- 'user.dormancy.end' about that person, by that person, whose changes keep the warning's moment
-- ({"dormancyWarnedAt": {"before": …, "after": null}}), written in the transaction that clears it
-- (server/features/session/session.service.ts). A person's deletion records the warning in its own entry's changes:
-- no schema change for it.
-- The check only widens, as 0024's: it keeps what the migrations before it allow (read from the check itself), adds
-- the new action, and is not validated again (every existing row passed the narrower check): no scan of a large
-- journal while its lock is held. Runs on PostgreSQL 15 and PGlite alike.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') AS m
   WHERE c.conname = 'audit_log_action_check' AND c.conrelid = 'audit_log'::regclass;
  allowed := array_append(array_remove(allowed, 'user.dormancy.end'), 'user.dormancy.end');
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s)) NOT VALID', (SELECT string_agg(quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
