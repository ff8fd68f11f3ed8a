-- Audit trail of every change, and the outbox of the e-mails the portal sends.
-- Both are written in the transaction of the change they record: nothing is lost, nothing half-done.

CREATE TABLE audit_log (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at              timestamptz NOT NULL DEFAULT now(),
  -- Who: kept as text too, so that a deleted actor's entries stay readable.
  actor_id        uuid NULL,
  actor_email     text NULL,
  action          text NOT NULL,
  entity_type     text NOT NULL,
  entity_id       text NOT NULL,
  -- The organization the change concerns, when there is one (filter of the audit screen).
  organization_id uuid NULL,
  -- Before/after of the changed fields: { field: { before, after } }, or a description of the change.
  changes         jsonb NOT NULL DEFAULT '{}'::jsonb,
  CONSTRAINT audit_log_action_check CHECK (action IN (
    'user.create', 'user.update', 'user.roles', 'user.deactivate', 'user.reactivate', 'user.delete',
    'invitation.create', 'invitation.approve', 'invitation.reject'
  )),
  CONSTRAINT audit_log_entity_type_check CHECK (entity_type IN ('user', 'invitation'))
);

CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id, at DESC);
CREATE INDEX audit_log_organization_idx ON audit_log (organization_id, at DESC) WHERE organization_id IS NOT NULL;
CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC);

CREATE TABLE outbox (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_at  timestamptz NOT NULL DEFAULT now(),
  kind        text NOT NULL,
  recipient   text NOT NULL,
  subject     text NOT NULL,
  body        text NOT NULL,
  status      text NOT NULL DEFAULT 'PENDING',
  attempts    integer NOT NULL DEFAULT 0,
  sent_at     timestamptz NULL,
  last_error  text NULL,
  CONSTRAINT outbox_kind_check CHECK (kind IN ('account.invitation', 'invitation.approved', 'invitation.rejected')),
  CONSTRAINT outbox_status_check CHECK (status IN ('PENDING', 'SENT', 'FAILED'))
);

CREATE INDEX outbox_pending_idx ON outbox (created_at, id) WHERE status = 'PENDING';
