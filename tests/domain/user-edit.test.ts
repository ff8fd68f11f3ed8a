import { describe, expect, it } from 'vitest';
import {
  canToggleRole,
  editRefusal,
  expandSelectAll,
  formFromAssignments,
  offeredRoles,
  organizationCodesOf,
  saveBlock,
  tabBlock,
  type EditAssignment,
  type EditForm,
} from '../../src/domain/user-edit';
import { groupBySiren } from '../../src/domain/user-profile';

const details = { firstName: 'Romain', lastName: 'Garnier', email: 'r@g.fr', jobTitle: '', phoneNumber: '', mobilePhone: '', street: '', postalCode: '', city: '' };
const siren = { id: 's', code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' as const, parentId: null };
const siret = { id: 't', code: '78744179900014', name: 'Lyon', type: 'SIRET' as const, parentId: 's' };
const assignment = (over: Partial<EditAssignment>): EditAssignment => ({
  organizationId: 't',
  organizationCode: siret.code,
  organizationName: 'Lyon',
  organizationType: 'SIRET',
  roleId: 6,
  roleType: 'EXTERNAL',
  inheritsToChildren: false,
  ...over,
});
const form = (over: Partial<EditForm> = {}): EditForm => ({
  details,
  sirens: [{ id: 's', code: siren.code, name: siren.name, selectAll: false, locked: false }],
  sirets: [{ id: 't', code: siret.code, name: 'Lyon', sirenId: 's' }],
  roleIds: [6],
  ...over,
});

describe('the edit form as the user is now', () => {
  it('chooses the parent SIREN of each SIRET held, and the roles held once each', () => {
    const f = formFromAssignments(details, [assignment({}), assignment({ roleId: 10 })], [siren, siret]);
    expect(f.sirens).toEqual([{ id: 's', code: siren.code, name: siren.name, selectAll: false, locked: false }]);
    expect(f.sirets.map((s) => s.id)).toEqual(['t']);
    expect(f.roleIds).toEqual([6, 10]);
  });

  it("marks a SIREN held with an INTERNAL role 'select all' and locked, with no SIRET until they load", () => {
    const f = formFromAssignments(details, [assignment({ organizationId: 's', organizationCode: siren.code, organizationType: 'SIREN', roleId: 5, roleType: 'INTERNAL', inheritsToChildren: true })], [siren]);
    expect(f.sirens[0]).toMatchObject({ selectAll: true, locked: true });
    expect(f.sirets).toEqual([]);
    const expanded = expandSelectAll(f, 's', [{ id: 't', code: siret.code, name: 'Lyon', sirenId: 's' }]);
    expect(expanded.sirets.map((s) => s.id)).toEqual(['t']);
  });

  it("leaves a SIREN not marked 'select all' as it is when its SIRETs load", () => {
    const f = form({ sirets: [] });
    expect(expandSelectAll(f, 's', [{ id: 't', code: siret.code, name: 'Lyon', sirenId: 's' }])).toBe(f);
  });
});

describe('the tab and save rules', () => {
  it('opens SIRET with a SIREN, and roles when each SIREN has a SIRET', () => {
    expect(tabBlock(form({ sirens: [], sirets: [] }), 'siret')).toBe('noSiren');
    expect(tabBlock(form({ sirets: [] }), 'siret')).toBeNull();
    expect(tabBlock(form({ sirets: [] }), 'roles')).toBe('siretMissing');
    expect(tabBlock(form(), 'roles')).toBeNull();
  });

  it('refuses to save in the order of the spec: SIREN, SIRET per SIREN, role, change', () => {
    const initial = form();
    expect(saveBlock(form({ sirens: [], sirets: [], roleIds: [] }), initial)).toBe('noSiren');
    expect(saveBlock(form({ sirets: [], roleIds: [] }), initial)).toBe('siretMissing');
    expect(saveBlock(form({ roleIds: [] }), initial)).toBe('noRole');
    expect(saveBlock(form(), initial)).toBe('noChange');
    expect(saveBlock(form({ details: { ...details, firstName: ' Romain ' } }), initial)).toBe('noChange');
    expect(saveBlock(form({ roleIds: [6, 10] }), initial)).toBeNull();
  });

  it('allows a sixth role never, removing one always', () => {
    expect(canToggleRole([1, 2, 3, 4], 5)).toBe(true);
    expect(canToggleRole([1, 2, 3, 4, 5], 6)).toBe(false);
    expect(canToggleRole([1, 2, 3, 4, 5], 5)).toBe(true);
  });

  it('offers INTERNAL roles to back-office people only', () => {
    const roles = [{ id: 5, type: 'INTERNAL' as const }, { id: 6, type: 'EXTERNAL' as const }];
    expect(offeredRoles(roles, true).map((r) => r.id)).toEqual([5, 6]);
    expect(offeredRoles(roles, false).map((r) => r.id)).toEqual([6]);
  });

  it('sends the SIRENs then their SIRETs', () => {
    expect(organizationCodesOf(form())).toEqual([siren.code, siret.code]);
  });

  it('refuses oneself, and a holder of an INTERNAL role to people outside the back office', () => {
    expect(editRefusal({ id: 'a', backOffice: true }, { id: 'a', holdsInternalRole: false })).toBe('self');
    // Whether to refuse is the server's (allowedActions without 'edit'), the words the page's (issue 19).
    expect(editRefusal({ id: 'a', backOffice: false }, { id: 'b', holdsInternalRole: true, mayEdit: false })).toBe('internalRole');
    expect(editRefusal({ id: 'a', backOffice: true }, { id: 'b', holdsInternalRole: true, mayEdit: true })).toBeNull();
    expect(editRefusal({ id: 'a', backOffice: true }, { id: 'b', holdsInternalRole: false, mayEdit: false })).toBe('noRight');
    expect(editRefusal({ id: 'a', backOffice: false }, { id: 'b', holdsInternalRole: false, mayEdit: true })).toBeNull();
    expect(editRefusal({ id: 'a', backOffice: false }, { id: 'a', holdsInternalRole: false, mayEdit: true })).toBe('self');
  });
});

describe('the profile per SIREN', () => {
  it('groups SIRETs under their SIREN, roles held on the SIREN apart, sorted by code', () => {
    const role = (code: string) => ({ code, name: code });
    const groups = groupBySiren([
      { code: '78744179900022', name: 'Villeurbanne', type: 'SIRET', parentCode: '787441799', role: role('COMPTABLE') },
      { code: '78744179900014', name: 'Lyon', type: 'SIRET', parentCode: null, role: role('RESSOURCE_HUMAINE') },
      { code: '78744179900014', name: 'Lyon', type: 'SIRET', parentCode: '787441799', role: role('COMPTABLE') },
      { code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN', parentCode: null, role: role('ADMIN_ADHERENT') },
      { code: '469860456', name: 'EHPAD', type: 'SIREN', parentCode: null, role: role('ADMIN_ADHERENT') },
    ]);
    expect(groups.map((g) => g.code)).toEqual(['469860456', '787441799']);
    expect(groups[1]).toMatchObject({ name: 'Clinique des Tilleuls', roles: [{ code: 'ADMIN_ADHERENT' }] });
    expect(groups[1]!.sirets.map((s) => [s.code, s.roles.map((r) => r.code)])).toEqual([
      ['78744179900014', ['RESSOURCE_HUMAINE', 'COMPTABLE']],
      ['78744179900022', ['COMPTABLE']],
    ]);
  });
});
