// The pure rules of issue 22's resend and actions on many users: who may start which action, the selection's
// form and limit, the reader of a job, when a set-up link may be sent again, what an action on many refuses.
import { describe, expect, it } from 'vitest';
import { statusOf as httpStatusOf } from '../../server/api/errors.ts';
import type { Actor } from '../../server/core/actor.ts';
import { DomainError } from '../../server/core/errors.ts';
import { createAccountSetupToken, readAccountSetupClaims } from '../../server/identity/account-setup-links.ts';
import { bulkActionCommand } from '../../server/features/users/users-bulk.input.ts';
import { MAX_SELECTION_BY_FILTERS, requireBulkActionStarter, requireCanStartBulkAction, requireSelectionWithinLimit } from '../../server/features/users/users-bulk.policy.ts';
import { allowedUserActions, requireCanResendInvitation, requireStatusChange } from '../../server/features/users/users.policy.ts';

const backOffice = (permissions: string[]): Actor => ({
  userId: 'bo',
  email: 'bo@x.fr',
  isActive: true,
  userType: 'BACKOFFICE',
  isBackOffice: true,
  permissions: new Set(permissions),
  scope: null,
  parentIds: null,
  permissionScopes: null,
  roleCodes: new Set(),
});

/** The refusal's status and message, or 'allowed'. */
const decision = (decide: () => void) => {
  try {
    decide();
    return 'allowed';
  } catch (error) {
    if (error instanceof DomainError) return `${httpStatusOf(error)} ${error.message}`;
    throw error;
  }
};

describe('starting an action on many users', () => {
  it('needs a permanent delete’s rights for delete, USER_CREATE for the others', () => {
    const full = backOffice(['USER_CREATE', 'USER_DELETE', 'B2C_USER_DISABLE']);
    const creator = backOffice(['USER_CREATE']);
    const deleter = backOffice(['USER_DELETE', 'B2C_USER_DISABLE']);
    expect(decision(() => requireCanStartBulkAction(full, 'delete'))).toBe('allowed');
    expect(decision(() => requireCanStartBulkAction(creator, 'delete'))).toMatch(/^403 /);
    expect(decision(() => requireCanStartBulkAction({ ...full, isBackOffice: false, userType: 'ORGANIZATION' }, 'delete'))).toMatch(/^403 /);
    for (const action of ['deactivate', 'reactivate', 'resendInvitation'] as const) {
      expect(decision(() => requireCanStartBulkAction(creator, action))).toBe('allowed');
      expect(decision(() => requireCanStartBulkAction(deleter, action))).toMatch(/^403 /);
    }
  });

  it('takes exactly one of userIds and filters, each id once, filters in the list’s order by name', () => {
    expect(bulkActionCommand({ action: 'deactivate', userIds: ['a', 'b'] })).toEqual({ action: 'deactivate', selection: { kind: 'ids', userIds: ['a', 'b'] } });
    expect(decision(() => bulkActionCommand({ action: 'deactivate', userIds: ['a', 'b', 'A'] }))).toBe('400 Chaque utilisateur ne figure qu’une fois dans la sélection.');
    expect(bulkActionCommand({ action: 'reactivate', filters: { search: 'dur' } })).toEqual({
      action: 'reactivate',
      selection: { kind: 'filters', filters: { search: 'dur', sort: 'name', order: 'asc' } },
    });
    for (const body of [{ action: 'delete' as const }, { action: 'delete' as const, userIds: ['a'], filters: {} }]) {
      expect(() => bulkActionCommand(body)).toThrow(DomainError);
      expect(decision(() => bulkActionCommand(body))).toMatch(/^400 /);
    }
  });

  it('refuses a selection by filters of more than 100,000 persons', () => {
    expect(decision(() => requireSelectionWithinLimit(MAX_SELECTION_BY_FILTERS))).toBe('allowed');
    expect(decision(() => requireSelectionWithinLimit(MAX_SELECTION_BY_FILTERS + 1))).toBe('400 La sélection dépasse 100 000 utilisateurs : affinez les filtres.');
  });

  it('lets only its starter read a job, as if it did not exist for anyone else', () => {
    const job = { actor_user_id: 'bo' };
    expect(requireBulkActionStarter(backOffice([]), job)).toBe(job);
    expect(decision(() => requireBulkActionStarter({ ...backOffice([]), userId: 'someone' }, job))).toBe('404 Action groupée introuvable.');
    expect(decision(() => requireBulkActionStarter(backOffice([]), undefined))).toBe('404 Action groupée introuvable.');
  });
});

describe('what a person may be done', () => {
  it('sends a set-up link again only to an active person who never signed in', () => {
    expect(decision(() => requireCanResendInvitation({ is_active: true, last_login_at: null }))).toBe('allowed');
    expect(decision(() => requireCanResendInvitation({ is_active: true, last_login_at: new Date() }))).toBe("409 Ce compte a déjà été activé : la personne s'est déjà connectée.");
    expect(decision(() => requireCanResendInvitation({ is_active: false, last_login_at: null }))).toBe("409 Ce compte est désactivé : réactivez-le avant de renvoyer l'invitation.");
  });

  it('offers resendInvitation with the account’s rights, never for oneself', () => {
    const actor = backOffice(['USER_CREATE']);
    const target = { id: 'u1', user_type: 'ORGANIZATION' as const, is_active: true, last_login_at: null };
    expect(allowedUserActions(actor, target, [])).toEqual(['edit', 'deactivate', 'resendInvitation']);
    expect(allowedUserActions(actor, { ...target, last_login_at: '2026-11-01T08:00:00Z' }, [])).toEqual(['edit', 'deactivate']);
    // Oneself: none of these, only one's own data on request (issue 23).
    expect(allowedUserActions(actor, { ...target, id: 'bo' }, [])).toEqual(['exportPersonalData']);
  });

  it('refuses in an action on many users a deactivation of an inactive account and a reactivation of an active one', () => {
    expect(decision(() => requireStatusChange(true, false))).toBe('allowed');
    expect(decision(() => requireStatusChange(false, false))).toBe('409 Ce compte est déjà désactivé.');
    expect(decision(() => requireStatusChange(true, true))).toBe('409 Ce compte est déjà actif.');
  });

  it('dates a set-up link, so that a link sent before the latest one is told apart', () => {
    const sentAt = new Date('2026-11-27T08:00:00.123Z');
    const claims = readAccountSetupClaims('s3cret', createAccountSetupToken('s3cret', 'subject', { email: 'a@b.fr', now: sentAt }), new Date('2026-11-27T09:00:00Z'));
    expect(claims).toMatchObject({ subject: 'subject', sentAt: sentAt.getTime() });
  });
});
