import { describe, expect, it } from 'vitest';
import { apiCheckSkipReason, ORGANIZATION_SEARCH_PERMISSIONS } from '../../src/domain/api-checks';
import type { SessionUser } from '../../rules/permissions';
import { ORGANIZATION_SEARCH_PERMISSIONS as SERVER_RULE } from '../../server/features/organizations/organizations.policy.ts';

const backOfficeReader: SessionUser = { isActive: true, userType: 'BACKOFFICE', email: 'lecteur@portail.test', permissions: [{ code: 'USER_LIST' }] };
const backOfficeWithout: SessionUser = { ...backOfficeReader, permissions: [] };
const organizationUser = (codes: string[]): SessionUser => ({
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'rh.clinique@portail.test',
  organizations: [{ id: 'o-1', code: '78744179900014', type: 'SIRET', role: { code: 'X', name: 'X', permissions: codes.map((code) => ({ code })) } }],
});

describe('apiCheckSkipReason', () => {
  it('always runs the current-user check', () => {
    expect(apiCheckSkipReason(organizationUser([]), 'currentUser')).toBeNull();
  });

  it("skips the users check without USER_LIST, with the spec's reason, back office included", () => {
    expect(apiCheckSkipReason(backOfficeWithout, 'users')).toBe('No USER_LIST permission');
    expect(apiCheckSkipReason(organizationUser(['USER_CREATE']), 'users')).toBe('No USER_LIST permission');
    expect(apiCheckSkipReason(backOfficeReader, 'users')).toBeNull();
    expect(apiCheckSkipReason(organizationUser(['USER_LIST']), 'users')).toBeNull();
  });

  it('runs the SIREN organizations check for the back office and for holders of ORG_LIST, USER_LIST or USER_CREATE only', () => {
    expect(apiCheckSkipReason(backOfficeWithout, 'sirenOrganizations')).toBeNull();
    for (const code of ['ORG_LIST', 'USER_LIST', 'USER_CREATE']) expect(apiCheckSkipReason(organizationUser([code]), 'sirenOrganizations')).toBeNull();
    expect(apiCheckSkipReason(organizationUser(['USER_DELETE']), 'sirenOrganizations')).toBe('No ORG_LIST, USER_LIST or USER_CREATE permission');
  });

  it('skips exactly what the server refuses to list', () => {
    expect([...ORGANIZATION_SEARCH_PERMISSIONS].sort()).toEqual([...SERVER_RULE].sort());
  });
});
