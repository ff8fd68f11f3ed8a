// The decisions the security review found outside server/policy (item 11), now policy functions: pure,
// tested on their own, without a database.
import { describe, expect, it } from 'vitest';
import { statusOf as httpStatusOf } from '../../server/api/errors.ts';
import { DomainError } from '../../server/core/errors.ts';
import type { Actor } from '../../server/core/actor.ts';
import { invitationCreationSeesAccounts, requireInviteeNotBackOffice, requiresInviteeProfile } from '../../server/features/invitations/invitations.policy.ts';
import { organizationVisibility } from '../../server/features/organizations/organizations.policy.ts';
import { fullDetailsView, requireCanChangeAccount, requireCanGrantInheritance, userScope } from '../../server/features/users/users.policy.ts';

const SIREN = 'siren-a';
const [SIRET_1, SIRET_2] = ['siret-a1', 'siret-a2'];
const OTHER_SIRET = 'siret-b1';

const backOffice: Actor = { userId: 'bo', email: 'bo@x.fr', isActive: true, userType: 'BACKOFFICE', isBackOffice: true, permissions: new Set(['USER_CREATE']), scope: null, parentIds: null, permissionScopes: null, roleCodes: new Set() };
/** Holds one SIRET of SIREN A: sees SIREN A, manages SIRET 1 only. */
const reachOf = (organizationIds: string[]) => ({ organizationIds: new Set(organizationIds), parentIds: new Set([SIREN]) });
/** As if the roles held gave both USER_LIST and USER_CREATE wherever they are held. */
const bothPermissions = (organizationIds: string[]) => new Map([['USER_LIST', reachOf(organizationIds)], ['USER_CREATE', reachOf(organizationIds)]]);
const siretHolder: Actor = { ...backOffice, userId: 'org', userType: 'ORGANIZATION', isBackOffice: false, scope: new Set([SIRET_1]), parentIds: new Set([SIREN]), permissionScopes: bothPermissions([SIRET_1]), roleCodes: new Set(['GESTIONNAIRE']) };
/** Holds SIREN A with inheritance: SIREN A and both its SIRETs. */
const sirenAdmin: Actor = { ...siretHolder, scope: new Set([SIREN, SIRET_1, SIRET_2]), parentIds: new Set([SIREN]), permissionScopes: bothPermissions([SIREN, SIRET_1, SIRET_2]) };

const statusOf = (decide: () => void) => {
  try {
    decide();
    return 'allowed';
  } catch (error) {
    return error instanceof DomainError ? httpStatusOf(error) : error;
  }
};

describe('the policy decisions moved out of routes and repositories', () => {
  it('decides which organizations are visible: all for the back office, else the scope and the parent SIRENs, passed as ids', () => {
    expect(organizationVisibility(backOffice)).toEqual({ kind: 'all' });
    expect(organizationVisibility(siretHolder)).toEqual({ kind: 'scope', organizationIds: [SIRET_1, SIREN] });
  });

  it("builds the user scope from the actor, with the parent SIRENs computed when the actor was loaded", () => {
    expect(userScope(backOffice, 'USER_LIST')).toBeNull();
    expect(userScope(siretHolder, 'USER_LIST')).toEqual({ organizationIds: new Set([SIRET_1]), parentIds: new Set([SIREN]) });
  });

  it('offers the edit page what the actor may give, and only the permissions of the assignments the actor sees', () => {
    const assignments = [
      { organizationId: SIRET_1, organizationType: 'SIRET' as const, parentId: SIREN, inheritsToChildren: false, rolePermissions: [] },
      { organizationId: OTHER_SIRET, organizationType: 'SIRET' as const, parentId: 'siren-b', inheritsToChildren: false, rolePermissions: ['USER_LIST'] },
    ];
    const target = { id: 'target', userType: 'ORGANIZATION' as const };
    const seen = fullDetailsView(siretHolder, userScope(siretHolder, 'USER_LIST'), target, assignments);
    expect(seen).toEqual({ assignments: [assignments[0]], offeredOrganizations: { ids: [SIRET_1], withChildrenOf: [] }, permissions: [] });
    const all = fullDetailsView(backOffice, null, target, assignments);
    expect(all.offeredOrganizations).toEqual({ ids: [SIREN, 'siren-b'], withChildrenOf: [SIREN, 'siren-b'] });
    expect(all.permissions).toEqual(['USER_LIST']);
    expect(fullDetailsView(backOffice, null, { id: 'bo2', userType: 'BACKOFFICE' }, []).permissions).toBe('own');
  });

  it("lets the account of a person be changed only when all of their assignments are the actor's", () => {
    const own = { organizationId: SIRET_1, inheritsToChildren: false };
    const elsewhere = { organizationId: OTHER_SIRET, inheritsToChildren: false };
    expect(statusOf(() => requireCanChangeAccount(siretHolder, [own]))).toBe('allowed');
    expect(statusOf(() => requireCanChangeAccount(siretHolder, [own, elsewhere]))).toBe(403);
    // A role on the parent SIREN reaches establishments the SIRET holder does not manage.
    expect(statusOf(() => requireCanChangeAccount(siretHolder, [own, { organizationId: SIREN, inheritsToChildren: true }]))).toBe(403);
    expect(statusOf(() => requireCanChangeAccount(backOffice, [own, elsewhere]))).toBe('allowed');
  });

  it('gives inheritsToChildren on a SIREN only to an actor covering it and every one of its SIRETs', () => {
    const siren = { id: SIREN, childIds: [SIRET_1, SIRET_2] };
    expect(statusOf(() => requireCanGrantInheritance(sirenAdmin, siren))).toBe('allowed');
    expect(statusOf(() => requireCanGrantInheritance({ ...sirenAdmin, scope: new Set([SIREN, SIRET_1]), permissionScopes: bothPermissions([SIREN, SIRET_1]) }, siren))).toBe(403);
    expect(statusOf(() => requireCanGrantInheritance(backOffice, siren))).toBe('allowed');
    // Covering every SIRET is not enough: USER_CREATE must be held on each of them.
    const listOnly = new Map([['USER_LIST', reachOf([SIREN, SIRET_1, SIRET_2])], ['USER_CREATE', reachOf([SIREN, SIRET_1])]]);
    expect(statusOf(() => requireCanGrantInheritance({ ...sirenAdmin, permissionScopes: listOnly }, siren))).toBe(403);
  });

  it('lets only the back office see accounts when an invitation is created; a back-office invitee is refused (409)', () => {
    expect(invitationCreationSeesAccounts(backOffice)).toBe(true);
    expect(invitationCreationSeesAccounts(siretHolder)).toBe(false);
    expect(requiresInviteeProfile(backOffice, 'NEW_ADMIN', true)).toBe(false);
    expect(requiresInviteeProfile(backOffice, 'NEW_ADMIN', false)).toBe(true);
    expect(requiresInviteeProfile(siretHolder, 'NEW_ADMIN', true)).toBe(true);
    expect(requiresInviteeProfile(siretHolder, 'ROLE_ASSIGNMENT', false)).toBe(false);
    expect(statusOf(() => requireInviteeNotBackOffice('BACKOFFICE', 'x@portail.test'))).toBe(409);
    expect(statusOf(() => requireInviteeNotBackOffice('ORGANIZATION', 'x@portail.test'))).toBe('allowed');
    expect(statusOf(() => requireInviteeNotBackOffice(undefined, 'x@portail.test'))).toBe('allowed');
  });
});
