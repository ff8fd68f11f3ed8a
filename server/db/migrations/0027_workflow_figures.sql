-- Issue 24, the figures of /workflows: the moves of the requests over a period (GET /api/v2/workflows/request-lifecycle/
-- figures). A move out of PENDING is dated by processed_at; the figures read the moves of the last 7, 30 or 90 days and
-- the time each request had been pending (processed_at - created_at), from the index alone.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).
-- Not CONCURRENTLY (the runner applies a file in a transaction): on a very large table, build them beforehand with
-- CREATE INDEX CONCURRENTLY IF NOT EXISTS under these names, and these statements then do nothing.

-- The back office's figures: the requests that reached each status in the period, one range of the index per status
-- (the median is computed per status; reading each status's rows apart spares sorting them all by status first).
CREATE INDEX IF NOT EXISTS invitations_status_processed_idx ON invitations (status, processed_at) INCLUDE (created_at)
  WHERE processed_at IS NOT NULL;

-- An employer administrator's figures: the requests they made ('Mes demandes'), moved in the period.
CREATE INDEX IF NOT EXISTS invitations_sender_processed_idx ON invitations (sender_user_id, processed_at) INCLUDE (status, created_at, organization_code)
  WHERE sender_user_id IS NOT NULL AND processed_at IS NOT NULL;
