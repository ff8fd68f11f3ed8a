import { describe, expect, it } from 'vitest';
import {
  canActOnOrganization,
  hasAnyRole,
  hasPermission,
  isBackOffice,
  permissionsOf,
  type SessionUser,
} from '../../rules/permissions';

const backOffice: SessionUser = {
  isActive: true,
  userType: 'BACKOFFICE',
  email: 'agent@opco.example',
  permissions: [{ code: 'USER_LIST' }, { code: 'USER_DELETE' }],
  // Ignored for back-office users: their own list is the whole story.
  organizations: [
    { id: 'o-9', code: '999999999', type: 'SIREN', role: { code: 'X', name: 'X', permissions: [{ code: 'ORG_LIST' }] } },
  ],
};

const memberAdmin: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'admin@acme.example',
  organizations: [
    {
      id: 'o-1',
      code: '123456789',
      type: 'SIREN',
      role: { code: 'ORG_ADMIN', name: 'Admin Adhérent', type: 'INTERNAL', permissions: [{ code: 'USER_LIST' }, { code: 'USER_CREATE' }] },
    },
    {
      id: 'o-2',
      code: '12345678900011',
      type: 'SIRET',
      role: { code: 'COMPTABLE', name: 'Comptable', type: 'EXTERNAL', permissions: [{ code: 'ORG_LIST' }, { code: 'USER_LIST' }] },
    },
  ],
};

const plainMember: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'rh@acme.example',
  permissions: [{ code: 'B2C_USER_DISABLE' }],
  organizations: [
    { id: 'o-3', code: '98765432100012', type: 'SIRET', role: { code: 'RESSOURCE_HUMAINE', name: 'Ressource humaine' } },
  ],
};

const bareMember: SessionUser = { isActive: true, userType: 'ORGANIZATION', email: 'nobody@acme.example' };

describe('isBackOffice', () => {
  it('is true for BACKOFFICE users only', () => {
    expect(isBackOffice(backOffice)).toBe(true);
    expect(isBackOffice(memberAdmin)).toBe(false);
  });
});

describe('permissionsOf', () => {
  it("gives a back-office user exactly their own list, ignoring any organization role", () => {
    expect([...permissionsOf(backOffice)].sort()).toEqual(['USER_DELETE', 'USER_LIST']);
  });

  it('gives an organization user the union of the permissions of their roles, without duplicates', () => {
    expect([...permissionsOf(memberAdmin)].sort()).toEqual(['ORG_LIST', 'USER_CREATE', 'USER_LIST']);
  });

  it("adds an organization user's own permission list when present", () => {
    expect([...permissionsOf(plainMember)]).toEqual(['B2C_USER_DISABLE']);
  });

  it('is empty for a user with neither permissions nor organizations', () => {
    expect(permissionsOf(bareMember).size).toBe(0);
  });
});

describe('hasPermission', () => {
  it('accepts a single code', () => {
    expect(hasPermission(memberAdmin, 'USER_CREATE')).toBe(true);
    expect(hasPermission(memberAdmin, 'USER_DELETE')).toBe(false);
  });

  it("in 'any' mode (the default) needs one of the codes", () => {
    expect(hasPermission(memberAdmin, ['USER_DELETE', 'ORG_LIST'])).toBe(true);
    expect(hasPermission(memberAdmin, ['USER_DELETE', 'B2C_USER_DISABLE'])).toBe(false);
  });

  it("in 'all' mode needs every code", () => {
    expect(hasPermission(backOffice, ['USER_DELETE', 'USER_LIST'], 'all')).toBe(true);
    expect(hasPermission(backOffice, ['USER_DELETE', 'B2C_USER_DISABLE'], 'all')).toBe(false);
  });

  it('grants an empty list of codes in both modes', () => {
    expect(hasPermission(bareMember, [])).toBe(true);
    expect(hasPermission(bareMember, [], 'all')).toBe(true);
  });

  it("does not let a back-office user inherit the permissions of an organization role", () => {
    expect(hasPermission(backOffice, 'ORG_LIST')).toBe(false);
  });
});

describe('hasAnyRole', () => {
  it('reads ADMIN_OPCO as being back-office', () => {
    expect(hasAnyRole(backOffice, ['ADMIN_OPCO'])).toBe(true);
    expect(hasAnyRole(memberAdmin, ['ADMIN_OPCO'])).toBe(false);
  });

  it('reads ADMIN_ADHERENT as an organization user holding ORG_ADMIN or ADMIN_ADHERENT', () => {
    expect(hasAnyRole(memberAdmin, ['ADMIN_ADHERENT'])).toBe(true);
    const adherentCode: SessionUser = {
      ...bareMember,
      organizations: [{ id: 'o-4', code: '111111111', type: 'SIREN', role: { code: 'ADMIN_ADHERENT', name: 'Admin' } }],
    };
    expect(hasAnyRole(adherentCode, ['ADMIN_ADHERENT'])).toBe(true);
    expect(hasAnyRole(plainMember, ['ADMIN_ADHERENT'])).toBe(false);
    expect(hasAnyRole(backOffice, ['ADMIN_ADHERENT'])).toBe(false);
  });

  it('reads UTILISATEUR as any signed-in user', () => {
    expect(hasAnyRole(bareMember, ['UTILISATEUR'])).toBe(true);
    expect(hasAnyRole(backOffice, ['UTILISATEUR'])).toBe(true);
  });

  it("matches other values against a held role's code or name", () => {
    expect(hasAnyRole(plainMember, ['RESSOURCE_HUMAINE'])).toBe(true);
    expect(hasAnyRole(plainMember, ['Ressource humaine'])).toBe(true);
    expect(hasAnyRole(plainMember, ['COMPTABLE', 'GESTIONNAIRE'])).toBe(false);
    expect(hasAnyRole(memberAdmin, ['GESTIONNAIRE', 'COMPTABLE'])).toBe(true);
  });

  it('holds none of an empty list', () => {
    expect(hasAnyRole(backOffice, [])).toBe(false);
  });
});

describe('canActOnOrganization', () => {
  it('lets a back-office user act on any organization', () => {
    expect(canActOnOrganization(backOffice, 'o-anything')).toBe(true);
  });

  it("limits an organization user to their own organizations", () => {
    expect(canActOnOrganization(memberAdmin, 'o-2')).toBe(true);
    expect(canActOnOrganization(memberAdmin, 'o-3')).toBe(false);
    expect(canActOnOrganization(bareMember, 'o-1')).toBe(false);
  });
});
