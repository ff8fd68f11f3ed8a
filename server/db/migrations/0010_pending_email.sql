-- Issue 19: a changed e-mail waits for its owner's confirmation. users.email (and the sign-in identity) stay
-- as they are; the new address waits in users.pending_email until the person opens the single-use link sent
-- there (email_change_tokens: only the SHA-256 of the link's random token is kept, for 24 hours).
ALTER TABLE users ADD COLUMN pending_email text NULL;

CREATE TABLE email_change_tokens (
  token_hash text PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The address the link was sent to: the confirmation applies it only while it is still the pending one.
  email      text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_change_tokens_user_idx ON email_change_tokens (user_id);

ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (
  'user.create', 'user.update', 'user.roles', 'user.deactivate', 'user.reactivate', 'user.delete',
  'user.email.request', 'user.email.confirm',
  'invitation.create', 'invitation.approve', 'invitation.reject'
));

ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (
  'account.invitation', 'invitation.approved', 'invitation.rejected', 'email.change.confirm', 'email.change.notice'
));
