import { describe, expect, it } from 'vitest';
import { navigationFor } from '../../src/domain/navigation';
import type { SessionUser } from '../../rules/permissions';

// The shapes of the demo personas (shared/spec/demo-data.md).
const backOfficeAll: SessionUser = {
  isActive: true,
  userType: 'BACKOFFICE',
  email: 'backoffice@portail.test',
  permissions: ['USER_LIST', 'USER_CREATE', 'USER_DELETE', 'B2C_USER_DISABLE', 'ORG_LIST'].map((code) => ({ code })),
};

const backOfficeReader: SessionUser = {
  isActive: true,
  userType: 'BACKOFFICE',
  email: 'lecteur@portail.test',
  permissions: [{ code: 'USER_LIST' }],
};

const backOfficeWithout: SessionUser = { isActive: true, userType: 'BACKOFFICE', email: 'sans-droit@portail.test', permissions: [] };

const memberAdmin: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'admin.clinique@portail.test',
  organizations: [
    {
      id: 'org-tilleuls',
      code: '732829320',
      name: 'Clinique des Tilleuls',
      type: 'SIREN',
      role: { code: 'ADMIN_ADHERENT', name: 'Administrateur adhérent', type: 'INTERNAL', permissions: ['USER_LIST', 'USER_CREATE', 'ORG_LIST'].map((code) => ({ code })) },
    },
  ],
};

const humanResources: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'rh.clinique@portail.test',
  organizations: [
    {
      id: 'org-tilleuls-siege',
      code: '73282932000074',
      name: 'Clinique des Tilleuls - Siège',
      type: 'SIRET',
      role: { code: 'RESSOURCE_HUMAINE', name: 'Ressource humaine', type: 'EXTERNAL', permissions: [] },
    },
  ],
};

/** An organization user's own permission list grants the menu as well as a role's. */
const memberWithOwnPermission: SessionUser = {
  isActive: true,
  userType: 'ORGANIZATION',
  email: 'gestion@portail.test',
  permissions: [{ code: 'USER_LIST' }],
};

describe('navigationFor', () => {
  it("gives a back-office user with every permission all the entries, in the order of spec §2, then the journal and 'Durées de conservation'", () => {
    expect(navigationFor(backOfficeAll)).toEqual([
      { id: 'home', href: '/dashboard' },
      { id: 'admin', href: '/admin' },
      { id: 'users', href: '/utilisateurs' },
      { id: 'journal', href: '/journal' },
      { id: 'retention', href: '/conservation' },
      { id: 'profile', href: null },
      { id: 'signOut', href: '/authentication/sign-out' },
    ]);
  });

  it('gives a back-office user with USER_LIST only the same entries', () => {
    expect(navigationFor(backOfficeReader).map((e) => e.id)).toEqual(['home', 'admin', 'users', 'journal', 'retention', 'profile', 'signOut']);
  });

  it('keeps the administrators entry but drops the users entry for a back-office user without USER_LIST', () => {
    expect(navigationFor(backOfficeWithout).map((e) => e.id)).toEqual(['home', 'admin', 'retention', 'profile', 'signOut']);
  });

  it('gives an organization administrator holding USER_LIST through a role the users entry but not the administrators entry', () => {
    expect(navigationFor(memberAdmin)).toEqual([
      { id: 'home', href: '/dashboard' },
      { id: 'users', href: '/utilisateurs' },
      { id: 'journal', href: '/journal' },
      { id: 'profile', href: null },
      { id: 'signOut', href: '/authentication/sign-out' },
    ]);
  });

  it('gives an organization user without permissions home, profile and sign-out only', () => {
    expect(navigationFor(humanResources)).toEqual([
      { id: 'home', href: '/dashboard' },
      { id: 'profile', href: null },
      { id: 'signOut', href: '/authentication/sign-out' },
    ]);
  });

  it('gives the users entry to an organization user holding USER_LIST in their own permission list', () => {
    expect(navigationFor(memberWithOwnPermission).map((e) => e.id)).toEqual(['home', 'users', 'journal', 'profile', 'signOut']);
  });

  it("does not count a back-office user's organization roles toward USER_LIST", () => {
    const user: SessionUser = { ...backOfficeWithout, organizations: memberAdmin.organizations };
    expect(navigationFor(user).map((e) => e.id)).toEqual(['home', 'admin', 'retention', 'profile', 'signOut']);
  });
});
