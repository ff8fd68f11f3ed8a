-- Issue 22, requests that do not rot: a pending request expires (EXPIRED) after INVITATION_EXPIRY_DAYS, or is
-- cancelled (CANCELLED) by the person who made it or the back office. Which move is allowed is decided by the
-- request-lifecycle machine (rules/request-lifecycle.machine.ts); these checks keep the rows' shape.
-- Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).
--
-- 1. Who cancelled, and why (optional). processed_at is the moment of any move out of PENDING: the decision, the
--    cancellation, or the expiry (created_at + the period then in force).
ALTER TABLE invitations ADD COLUMN cancelled_by_user_id uuid NULL REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE invitations ADD COLUMN cancelled_by_email text NULL;
ALTER TABLE invitations ADD COLUMN cancellation_reason text NULL;
-- The requester's reminder before expiry, sent once (server/jobs/invitation-reminders.ts).
ALTER TABLE invitations ADD COLUMN expiry_reminder_sent_at timestamptz NULL;

-- The checks are replaced in the file's one transaction: the table is locked while they are checked, one scan of
-- invitations (200,000 rows in the benchmark database). Every existing row satisfies them.
ALTER TABLE invitations DROP CONSTRAINT invitations_status_check;
ALTER TABLE invitations ADD CONSTRAINT invitations_status_check
  CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'));

-- A pending request has no outcome; a decided one its date and validator; an expired one its date only; a
-- cancelled one its date and who cancelled it.
ALTER TABLE invitations DROP CONSTRAINT invitations_decision_shape;
ALTER TABLE invitations ADD CONSTRAINT invitations_decision_shape CHECK (
  (status = 'PENDING' AND processed_at IS NULL AND validator_email IS NULL AND validator_user_id IS NULL AND cancelled_by_email IS NULL)
  OR (status IN ('APPROVED', 'REJECTED') AND processed_at IS NOT NULL AND validator_email IS NOT NULL AND cancelled_by_email IS NULL)
  OR (status = 'EXPIRED' AND processed_at IS NOT NULL AND validator_email IS NULL AND cancelled_by_email IS NULL)
  OR (status = 'CANCELLED' AND processed_at IS NOT NULL AND validator_email IS NULL AND cancelled_by_email IS NOT NULL)
);
ALTER TABLE invitations ADD CONSTRAINT invitations_cancellation_reason
  CHECK (cancellation_reason IS NULL OR (status = 'CANCELLED' AND length(cancellation_reason) <= 2000));

-- 2. 'Mes demandes' (GET /api/v2/invitations/mine): the requests one person made, newest first.
-- Not CONCURRENTLY (the runner applies a file in a transaction): on a very large table, build it beforehand with
-- CREATE INDEX CONCURRENTLY IF NOT EXISTS under this name, and this statement then does nothing.
CREATE INDEX IF NOT EXISTS invitations_sender_created_idx ON invitations (sender_user_id, created_at, id) WHERE sender_user_id IS NOT NULL;

-- 3. The back office's daily digest of requests pending too long: one row per day (Europe/Paris) it was sent.
CREATE TABLE invitation_digests (
  day        date PRIMARY KEY,
  sent_at    timestamptz NOT NULL,
  requests   integer NOT NULL,
  recipients integer NOT NULL
);

-- 4. The journal's new actions and the outbox's new e-mails. Both checks only widen: each keeps what the
--    migrations before it allow, whatever they are (read from the check itself), adds these, and is not validated
--    again (every existing row passed the narrower check): no scan of a large journal while its lock is held.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') AS m
   WHERE c.conname = 'audit_log_action_check' AND c.conrelid = 'audit_log'::regclass;
  allowed := array_cat(array(SELECT unnest(allowed) EXCEPT SELECT unnest(ARRAY['invitation.cancel', 'invitation.expire'])), ARRAY['invitation.cancel', 'invitation.expire']);
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s)) NOT VALID', (SELECT string_agg(quote_literal(a), ', ') FROM unnest(allowed) AS a));

  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') AS m
   WHERE c.conname = 'outbox_kind_check' AND c.conrelid = 'outbox'::regclass;
  allowed := array_cat(array(SELECT unnest(allowed) EXCEPT SELECT unnest(ARRAY['invitation.pending.digest', 'invitation.expiring'])), ARRAY['invitation.pending.digest', 'invitation.expiring']);
  ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
  EXECUTE format('ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (%s)) NOT VALID', (SELECT string_agg(quote_literal(k), ', ') FROM unnest(allowed) AS k));
END $$;
