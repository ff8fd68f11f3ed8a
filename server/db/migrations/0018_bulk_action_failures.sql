-- Issue 22: a person whose action keeps failing with an error no rule foresaw (the database refusing the change,
-- the identity provider failing for that account) no longer holds the whole job back for ever: each such failure
-- is counted, and after three the person is reported as refused with that reason while the others go on
-- (server/features/users/users-bulk.service.ts). Instant: a constant default writes no row.
ALTER TABLE bulk_action_targets ADD COLUMN failures integer NOT NULL DEFAULT 0;
