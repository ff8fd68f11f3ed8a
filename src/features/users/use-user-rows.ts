// The users list's rows, as the table draws them, from the page of users and the roles' names.
import { useMemo } from 'react';
import type { UserListItem as User } from '../../api/users';
import type { Role } from '../../api/roles';
import type { SessionProfile } from '../../machines/session/session.machine';
import { refusalKind } from '../../domain/user-actions';
import { roleDisplayLabel, roleTone } from '../../../rules/roles';
import { formatDate, formatDateTime } from '../../domain/dates';
import type { UserRow } from '../../ui/users/users-table';

function toRow(actor: SessionProfile, user: User, roleNames: Map<string, string>): UserRow {
  const name = `${user.firstName} ${user.lastName}`.trim();
  const target = { id: user.id, isActive: user.isActive, roles: user.roles, organizations: user.organizations };
  return {
    id: user.id,
    name,
    email: user.email,
    lastLogin: formatDateTime(user.lastLoginAt),
    invitationSentOn: user.lastLoginAt ? null : formatDate(user.invitationSentAt),
    isActive: user.isActive,
    inactiveSince: user.dormantSince ? formatDate(user.dormantSince) : null,
    roles: user.roles.map((code) => ({ code, label: roleDisplayLabel(roleNames.get(code) ?? code), tone: roleTone(code) })),
    // What the caller may do is the server's (allowedActions); only the words of a refusal are chosen here.
    allowed: {
      edit: user.allowedActions.includes('edit'),
      changeActivation: user.allowedActions.includes(user.isActive ? 'deactivate' : 'reactivate'),
      deletePermanently: user.allowedActions.includes('delete'),
      resendInvitation: user.allowedActions.includes('resendInvitation'),
      refusal: refusalKind(actor, target),
    },
  };
}

export function useUserRows(actor: SessionProfile, users: readonly User[] | undefined, roles: readonly Role[] | undefined): UserRow[] {
  return useMemo(() => {
    const roleNames = new Map((roles ?? []).map((r) => [r.code, r.name]));
    return (users ?? []).map((u) => toRow(actor, u, roleNames));
  }, [actor, users, roles]);
}
