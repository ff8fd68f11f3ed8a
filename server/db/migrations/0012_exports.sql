-- Issue 21: an export of a list is itself a journal entry (who exported which list, with which filters, how many
-- rows): action 'users.export' or 'journal.export', entity_type 'export', entity_id the list ('users', 'journal').
-- Both constraints only widen: every existing row satisfies them.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (
  'user.create', 'user.update', 'user.roles', 'user.deactivate', 'user.reactivate', 'user.delete',
  'user.email.request', 'user.email.confirm',
  'invitation.create', 'invitation.approve', 'invitation.reject',
  'users.export', 'journal.export'
));

ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_type_check CHECK (entity_type IN ('user', 'invitation', 'export'));
