-- Issue 22, set-up links sent again and actions on many users. Runs on PostgreSQL 15 and on PGlite 0.5 (PostgreSQL 18).
--
-- 1. When a user's latest account set-up link was sent (creation, approval of a request creating them, a resend):
--    shown while they have never signed in. A link made before this moment no longer sets the account up
--    (server/dev-idp/account-setup.ts compares it with the link's own time). Null for the users made before this
--    migration: their links keep working until they expire, as before. Adding a nullable column rewrites nothing.
ALTER TABLE users ADD COLUMN invitation_sent_at timestamptz NULL;

-- 2. A job of one action on many users (POST /api/v2/users/bulk-actions): who started it, the action, and the
--    lease of the node working through it (server/jobs/bulk-actions-worker.ts). Its progress is counted from its targets.
CREATE TABLE bulk_actions (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  actor_user_id  uuid NOT NULL,
  action         text NOT NULL,
  status         text NOT NULL DEFAULT 'running',
  total          integer NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz NULL,
  lease_owner    text NULL,
  lease_until    timestamptz NULL,
  CONSTRAINT bulk_actions_action_check CHECK (action IN ('deactivate', 'reactivate', 'resendInvitation', 'delete')),
  CONSTRAINT bulk_actions_status_check CHECK (status IN ('running', 'completed')),
  CONSTRAINT bulk_actions_finished_check CHECK ((status = 'completed') = (finished_at IS NOT NULL))
);
-- The workers look for unfinished jobs; a person reads their own.
CREATE INDEX bulk_actions_running_idx ON bulk_actions (created_at) WHERE status = 'running';
CREATE INDEX bulk_actions_actor_idx ON bulk_actions (actor_user_id, created_at);

-- 3. The resolved selection of a job, one row per person (no foreign key: a person deleted meanwhile stays a target,
--    and is refused as not found). outcome is written in the same transaction as the person's change, and only
--    while it is null: each person is done once. name and email: as the starter may see them, for the report.
CREATE TABLE bulk_action_targets (
  bulk_action_id uuid NOT NULL REFERENCES bulk_actions (id) ON DELETE CASCADE,
  position       integer NOT NULL,
  user_id        uuid NOT NULL,
  outcome        text NULL,
  reason         text NULL,
  name           text NULL,
  email          text NULL,
  done_at        timestamptz NULL,
  PRIMARY KEY (bulk_action_id, position),
  CONSTRAINT bulk_action_targets_person_key UNIQUE (bulk_action_id, user_id),
  CONSTRAINT bulk_action_targets_outcome_check CHECK (outcome IS NULL OR outcome IN ('succeeded', 'refused')),
  CONSTRAINT bulk_action_targets_reason_check CHECK ((outcome = 'refused') = (reason IS NOT NULL))
);
CREATE INDEX bulk_action_targets_pending_idx ON bulk_action_targets (bulk_action_id, position) WHERE outcome IS NULL;

-- 4. The journal's new action. The check only widens; it keeps every action the migrations before this one allow,
--    whatever they are (read from the check itself), and adds this one.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([^'']+)''', 'g') AS m
   WHERE c.conname = 'audit_log_action_check' AND c.conrelid = 'audit_log'::regclass;
  allowed := array_append(array_remove(allowed, 'user.invitation.resend'), 'user.invitation.resend');
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  -- Not validated again: every existing row passed the narrower check, and a scan of a large journal would hold its lock.
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s)) NOT VALID', (SELECT string_agg(quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
