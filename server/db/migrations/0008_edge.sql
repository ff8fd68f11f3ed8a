-- The business limit of creations per person (server/features/audit/creation-limit.service.ts) counts, in the
-- creating transaction, the audit entries of one actor and one action in the last hour: this index serves it
-- (an index range of that actor's recent creations, never a scan of the journal).
-- Not CONCURRENTLY: the migration runner applies each file in a transaction; on a very large audit_log, build it
-- beforehand with CREATE INDEX CONCURRENTLY IF NOT EXISTS under this name and this file then does nothing.
CREATE INDEX IF NOT EXISTS audit_log_actor_action_idx ON audit_log (actor_id, action, at DESC);
