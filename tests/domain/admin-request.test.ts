import { describe, expect, it } from 'vitest';
import { assignIneligibility, displayName, sirensOfOrganizations, type CandidateFacts } from '../../src/domain/admin-request.ts';

describe('sirensOfOrganizations (spec §5)', () => {
  it('takes a SIREN entry as is and the first 9 characters of a SIRET entry', () => {
    expect(sirensOfOrganizations([{ code: '787441799', type: 'SIREN' }, { code: '46986045600018', type: 'SIRET' }])).toEqual(['787441799', '469860456']);
  });

  it('gives each SIREN once, in the order first met, whether held directly or through its SIRETs', () => {
    const entries = [
      { code: '78744179900014', type: 'SIRET' },
      { code: '787441799', type: 'SIREN' },
      { code: '78744179900022', type: 'SIRET' },
      { code: '46986045600018', type: 'SIRET' },
      { code: '469860456', type: 'SIREN' },
    ];
    expect(sirensOfOrganizations(entries)).toEqual(['787441799', '469860456']);
  });

  it('recognises an entry without a type by the length of its code: 9 for a SIREN, 14 for a SIRET', () => {
    expect(sirensOfOrganizations([{ code: '787441799' }, { code: '46986045600018', type: null }])).toEqual(['787441799', '469860456']);
  });

  it('trusts the type over the length: a SIREN-typed code stays whole, a SIRET-typed one gives its first 9 characters', () => {
    expect(sirensOfOrganizations([{ code: '1234567', type: 'SIREN' }, { code: '1234567890', type: 'SIRET' }])).toEqual(['1234567', '123456789']);
  });

  it('skips an entry that is neither, and answers nothing for no organization', () => {
    expect(sirensOfOrganizations([{ code: '12345', type: 'AUTRE' }, { code: '' }])).toEqual([]);
    expect(sirensOfOrganizations([])).toEqual([]);
  });
});

describe('assignIneligibility (spec §2, §5, §6)', () => {
  const internal = new Set(['ADMIN_ADHERENT', 'ADMIN_OPCO']);
  const base: CandidateFacts = {
    userType: 'ORGANIZATION',
    roles: ['COMPTABLE'],
    organizations: [{ role: { code: 'COMPTABLE', type: 'EXTERNAL' } }],
    hasPendingInvitation: false,
  };

  it('lets an organization user holding only external roles be picked', () => {
    expect(assignIneligibility(base, internal)).toBeNull();
  });

  it('refuses a holder of a role the catalogue types INTERNAL', () => {
    expect(assignIneligibility({ ...base, roles: ['COMPTABLE', 'ADMIN_ADHERENT'], organizations: [] }, internal)).toBe('internalRole');
  });

  it('refuses a holder of a role the list itself types INTERNAL, even when the catalogue does not show it', () => {
    expect(assignIneligibility({ ...base, roles: ['DIRECTION'], organizations: [{ role: { code: 'DIRECTION', type: 'INTERNAL' } }] }, new Set())).toBe('internalRole');
  });

  it('refuses a user with a pending request, and says so first', () => {
    expect(assignIneligibility({ ...base, hasPendingInvitation: true }, internal)).toBe('pendingRequest');
    expect(assignIneligibility({ ...base, roles: ['ADMIN_ADHERENT'], hasPendingInvitation: true }, internal)).toBe('pendingRequest');
  });

  it('refuses a back-office account, which holds the back-office role by nature', () => {
    expect(assignIneligibility({ ...base, userType: 'BACKOFFICE', roles: [], organizations: [] }, internal)).toBe('backOffice');
  });
});

describe('displayName', () => {
  it('joins first and last name, else falls back to the email', () => {
    expect(displayName({ firstName: 'Claire', lastName: 'Vasseur', email: 'c@x.fr' })).toBe('Claire Vasseur');
    expect(displayName({ firstName: ' ', lastName: '', email: 'c@x.fr' })).toBe('c@x.fr');
  });
});
