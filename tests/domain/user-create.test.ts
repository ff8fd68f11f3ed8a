import { describe, expect, it } from 'vitest';
import {
  canToggleWizardRole,
  detailsComplete,
  detailsErrors,
  EMPTY_DETAILS,
  matchingSirens,
  matchingSirets,
  memberAdminSirens,
  offeredWizardRoles,
  planSubmission,
  stepBlock,
  type WizardDraft,
  type WizardRole,
} from '../../src/domain/user-create';

const details = {
  firstName: 'Éloïse',
  lastName: "N'Diaye-Lefèvre",
  email: 'eloise.ndiaye@clinique-tilleuls.fr',
  jobTitle: 'Responsable RH & paie',
  phoneNumber: '06 12 34 56 78',
  mobilePhone: '',
  street: '12 rue des Lilas',
  postalCode: '69003',
  city: 'Saint-Étienne',
};
const sirenA = { id: 'a', code: '787441799', name: 'Clinique des Tilleuls', selectAll: false, locked: false };
const sirenB = { id: 'b', code: '469860456', name: 'EHPAD Les Glycines', selectAll: false, locked: false };
const a1 = { id: 'a1', code: '78744179900014', name: 'Lyon', sirenId: 'a' };
const a2 = { id: 'a2', code: '78744179900022', name: 'Villeurbanne', sirenId: 'a' };
const b1 = { id: 'b1', code: '46986045600018', name: 'Nantes', sirenId: 'b' };
const external = (id: number, code = `ROLE_${id}`): WizardRole => ({ id, code, name: code, type: 'EXTERNAL' });
const memberAdmin: WizardRole = { id: 9, code: 'ADMIN_ADHERENT', name: 'Admin Adhérent', type: 'INTERNAL' };
const backOfficeRole: WizardRole = { id: 10, code: 'ADMIN_OPCO', name: 'Admin OPCO', type: 'INTERNAL' };
const draft = (change: Partial<WizardDraft> = {}): WizardDraft => ({ details, sirens: [sirenA], sirets: [a1], roles: [external(1)], ...change });

describe('wizard step 1 (spec §5)', () => {
  it('needs every starred field, phone and mobile being optional', () => {
    expect(detailsComplete(details)).toBe(true);
    expect(detailsComplete({ ...details, phoneNumber: '', mobilePhone: '' })).toBe(true);
    for (const field of ['firstName', 'lastName', 'email', 'jobTitle', 'street', 'postalCode', 'city'] as const) {
      expect(detailsComplete({ ...details, [field]: '  ' }), field).toBe(false);
    }
    expect(stepBlock('details', { ...draft(), details: EMPTY_DETAILS })).toBe('detailsIncomplete');
  });

  it('accepts accented names, +33 and 0 phones with spaces, job titles of 2 and 100 characters', () => {
    for (const phone of ['+33 6 12 34 56 78', '06 12 34 56 78', '0612345678']) expect(detailsErrors({ ...details, phoneNumber: phone, mobilePhone: phone })).toEqual({});
    expect(detailsErrors({ ...details, jobTitle: 'RH' })).toEqual({});
    expect(detailsErrors({ ...details, jobTitle: 'x'.repeat(100) })).toEqual({});
  });

  it('names each invalid field with its French message', () => {
    expect(detailsErrors({ ...details, jobTitle: 'R' })).toEqual({ jobTitle: 'Minimum 2 caractères requis' });
    expect(detailsErrors({ ...details, jobTitle: 'x'.repeat(101) })).toEqual({ jobTitle: 'Maximum 100 caractères' });
    expect(detailsErrors({ ...details, email: 'eloise@clinique', phoneNumber: '+44 6 12 34 56 78', firstName: 'É', city: 'Lyon 3' })).toEqual({
      email: 'Adresse email invalide',
      phoneNumber: 'Numéro de téléphone français invalide',
      firstName: 'Minimum 2 caractères requis',
      city: 'Seules les lettres, espaces, tirets et apostrophes sont autorisés',
    });
    expect(detailsErrors({ ...details, postalCode: '6900' })).toEqual({ postalCode: 'Le code postal doit contenir 5 chiffres' });
  });
});

describe('wizard steps 2 to 4 (spec §5)', () => {
  it('needs a SIREN, then a SIRET for each chosen SIREN, then a role', () => {
    expect(stepBlock('sirens', draft({ sirens: [] }))).toBe('noSiren');
    expect(stepBlock('sirens', draft())).toBeNull();
    expect(stepBlock('sirets', draft({ sirens: [sirenA, sirenB], sirets: [a1] }))).toBe('siretMissing');
    expect(stepBlock('sirets', draft({ sirens: [sirenA, sirenB], sirets: [a1, b1] }))).toBeNull();
    expect(stepBlock('roles', draft({ roles: [] }))).toBe('noRole');
    expect(stepBlock('roles', draft())).toBeNull();
  });

  it('offers INTERNAL roles in admin mode and the others in normal mode, never the back-office role', () => {
    const roles = [external(1), memberAdmin, backOfficeRole];
    expect(offeredWizardRoles(roles, 'admin')).toEqual([memberAdmin]);
    expect(offeredWizardRoles(roles, 'user')).toEqual([external(1)]);
  });

  it('adds a role while fewer than 5 are chosen and always lets one go', () => {
    const four = [1, 2, 3, 4].map((id) => external(id));
    expect(canToggleWizardRole(four, 5)).toBe(true);
    expect(canToggleWizardRole([...four, external(5)], 6)).toBe(false);
    expect(canToggleWizardRole([...four, external(5)], 5)).toBe(true);
  });

  it('offers an organization user the SIRENs where they are member administrator (ORG_ADMIN included), sorted by code', () => {
    const organizations = [
      { id: 'a', code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' as const, role: { code: 'ADMIN_ADHERENT' } },
      { id: 'a1', code: '78744179900014', name: 'Lyon', type: 'SIRET' as const, role: { code: 'ADMIN_ADHERENT' } },
      { id: 'b', code: '469860456', name: 'EHPAD Les Glycines', type: 'SIREN' as const, role: { code: 'ORG_ADMIN' } },
      { id: 'c', code: '102674991', name: 'Centre Les Cèdres', type: 'SIREN' as const, role: { code: 'GESTIONNAIRE' } },
    ];
    expect(memberAdminSirens(organizations)).toEqual([
      { id: 'b', code: '469860456', name: 'EHPAD Les Glycines' },
      { id: 'a', code: '787441799', name: 'Clinique des Tilleuls' },
    ]);
  });

  it('searches SIRENs and SIRETs by code or name, case-insensitive, trimmed', () => {
    expect(matchingSirens([sirenA, sirenB], '  glycines ')).toEqual([sirenB]);
    expect(matchingSirens([sirenA, sirenB], '7874')).toEqual([sirenA]);
    expect(matchingSirets([a1, a2], 'VILLEUR')).toEqual([a2]);
    expect(matchingSirets([a1, a2], '')).toEqual([a1, a2]);
  });
});

describe('submission (spec §3, §4, §5)', () => {
  it('creates a user on the SIRET codes with the role ids and the §5 details, an empty phone left out', () => {
    const plan = planSubmission('user', draft({ sirens: [sirenA, sirenB], sirets: [a1, b1], roles: [external(1), external(2)] }), 'backoffice@portail.test');
    expect(plan).toEqual({
      kind: 'user',
      body: {
        email: details.email,
        firstName: 'Éloïse',
        lastName: "N'Diaye-Lefèvre",
        jobTitle: 'Responsable RH & paie',
        phoneNumber: '0612345678',
        street: '12 rue des Lilas',
        postalCode: '69003',
        city: 'Saint-Étienne',
        organizationCodes: [a1.code, b1.code],
        roleIds: [1, 2],
      },
    });
  });

  it('adds the SIREN of the first SIRET when an INTERNAL role is chosen', () => {
    const plan = planSubmission('user', draft({ sirets: [a2, a1], roles: [memberAdmin, external(1)] }), null);
    expect(plan.kind === 'user' && plan.body.organizationCodes).toEqual([a2.code, a1.code, '787441799']);
  });

  it('refuses a direct creation without SIRET, naming why', () => {
    expect(planSubmission('user', draft({ sirens: [], sirets: [], roles: [memberAdmin] }), null)).toEqual({ kind: 'refused', reason: 'internalNeedsSiren' });
    expect(planSubmission('user', draft({ sirets: [] }), null)).toEqual({ kind: 'refused', reason: 'externalNeedsSiret' });
    expect(planSubmission('user', draft({ sirets: [], roles: [memberAdmin] }), null)).toEqual({ kind: 'refused', reason: 'noSiret' });
    expect(planSubmission('user', draft({ roles: [] }), null)).toEqual({ kind: 'refused', reason: 'noRole' });
    expect(planSubmission('user', draft({ roles: [1, 2, 3, 4, 5, 6].map((id) => external(id)) }), null)).toEqual({ kind: 'refused', reason: 'tooManyRoles' });
    expect(planSubmission('user', draft({ details: { ...details, email: 'x' } }), null)).toEqual({ kind: 'refused', reason: 'detailsInvalid' });
  });

  it('sends an administrator request as NEW_ADMIN on the SIREN and an EXTERNAL role as ROLE_ASSIGNMENT on the first SIRET', () => {
    const plan = planSubmission('admin', draft({ sirets: [a2, a1], roles: [memberAdmin, external(3, 'COMPTABLE')] }), 'admin.clinique@portail.test');
    const userProfile = { firstName: 'Éloïse', lastName: "N'Diaye-Lefèvre", jobTitle: 'Responsable RH & paie', phoneNumber: '0612345678', street: '12 rue des Lilas', city: 'Saint-Étienne', postalCode: '69003' };
    const metadata = { userProfile, isNewUser: true, senderEmail: 'admin.clinique@portail.test' };
    expect(plan).toEqual({
      kind: 'invitations',
      invitations: [
        { organizationId: 'a', organizationCode: '787441799', body: { inviteeEmail: details.email, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', metadata } },
        { organizationId: 'a2', organizationCode: a2.code, body: { inviteeEmail: details.email, roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT', metadata } },
      ],
    });
  });

  it('refuses an administrator request without sender, without SIREN, with two SIRENs, or with an EXTERNAL role and no SIRET', () => {
    expect(planSubmission('admin', draft({ roles: [memberAdmin] }), null)).toEqual({ kind: 'refused', reason: 'notSignedIn' });
    expect(planSubmission('admin', draft({ sirens: [], sirets: [], roles: [memberAdmin] }), 's@x.fr')).toEqual({ kind: 'refused', reason: 'adminNoSiren' });
    expect(planSubmission('admin', draft({ sirens: [sirenA, sirenB], roles: [memberAdmin] }), 's@x.fr')).toEqual({ kind: 'refused', reason: 'adminOneSiren' });
    expect(planSubmission('admin', draft({ sirets: [] }), 's@x.fr')).toEqual({ kind: 'refused', reason: 'adminExternalNeedsSiret' });
  });
});
