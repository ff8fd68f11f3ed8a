-- Issue 22: a person whose action keeps failing with an error no rule foresaw (the database refusing the change,
-- the identity provider failing for that account) no longer holds the whole job back for ever: each such failure
-- is counted, and after three the person is reported as refused with that reason while the others go on
-- (server/features/users/users-bulk.service.ts). Instant: a constant default writes no row.
ALTER TABLE bulk_action_targets ADD COLUMN failures integer NOT NULL DEFAULT 0;

-- One running job per person (security review: a person queueing jobs of 10,000 unknown ids held every other
-- company's jobs back). The service answers 429 when one runs; this index settles two starts at the same moment.
CREATE UNIQUE INDEX bulk_actions_one_running_idx ON bulk_actions (actor_user_id) WHERE status = 'running';
