// What the erasure of a deleted person writes in place of their data (issue 23): pure rules.
import { describe, expect, it } from 'vitest';
import { searchable } from '../../../server/features/audit/audit.model.ts';
import { addressesOf, addressesPattern, ERASED_VALUE, namingTerms, pseudonym } from '../../../server/features/users/users-erasure.model.ts';

describe('the pseudonym of a deleted person', () => {
  it("names them 'Utilisateur supprimé n° N', its first and last names reading it once put together", () => {
    const p = pseudonym(12);
    expect(p.name).toBe('Utilisateur supprimé n° 12');
    expect(`${p.replacements.firstName} ${p.replacements.lastName}`).toBe(p.name);
    expect(p.searchText).toBe(searchable(p.name));
    expect(p.searchText).toBe('utilisateur supprime n° 12');
  });

  it('replaces every other personal field with (effacé), and no field it does not know', () => {
    const { replacements } = pseudonym(3);
    for (const field of ['email', 'pendingEmail', 'jobTitle', 'phoneNumber', 'mobilePhone', 'street', 'postalCode', 'city', 'metadata', 'inviteeEmail']) expect(replacements[field], field).toBe(ERASED_VALUE);
    for (const field of ['assignments', 'isActive', 'userType', 'roles', 'status', 'rejectionReason']) expect(replacements[field], field).toBeUndefined();
  });
});

describe("a deleted person's addresses", () => {
  it('are their e-mail, lower-case, never the one only asked for (it may be anyone\'s)', () => {
    expect(addressesOf({ email: 'Ondine.Quibel@Exemple.fr' })).toEqual(['ondine.quibel@exemple.fr']);
    expect(addressesOf({ email: 'a@exemple.fr', pending_email: 'b@exemple.fr' } as { email: string })).toEqual(['a@exemple.fr']);
  });

  it('are matched as written, their dots and plus signs not taken for patterns', () => {
    const pattern = new RegExp(addressesPattern(['o.quibel+rh@exemple.fr', 'b@exemple.fr']), 'i');
    expect(pattern.test('Écrire à O.Quibel+RH@exemple.fr')).toBe(true);
    expect(pattern.test('oxquibel+rh@exemple.fr')).toBe(false);
    expect(pattern.test('o.quibelrh@exemple.fr')).toBe(false);
    expect(pattern.test('B@exemple.fr')).toBe(true);
  });

  it("are matched as whole addresses only, never within another person's longer one", () => {
    const pattern = new RegExp(addressesPattern(['ean.roux@exemple.fr']), 'i');
    expect(pattern.test('Écrire à ean.roux@exemple.fr.')).toBe(true);
    expect(pattern.test('(EAN.ROUX@exemple.fr)')).toBe(true);
    expect(pattern.test("l'adresse ean.roux@exemple.fr, puis")).toBe(true);
    for (const other of ['jean.roux@exemple.fr', 'j.ean.roux@exemple.fr', 'ean.roux@exemple.fr.com', 'ean.roux@exemple.fresh', 'ean.roux@exemple.fr-x.com']) {
      expect(pattern.test(other), other).toBe(false);
    }
  });
});

describe('what names a deleted person in a search recorded with an export', () => {
  it('is their last name, their addresses and the parts before @, folded, never a part shorter than three letters', () => {
    expect(namingTerms({ last_name: 'Lévêque' }, ['gw.leveque@exemple.fr'])).toEqual(['leveque', 'gw.leveque@exemple.fr', 'gw.leveque']);
    expect(namingTerms({ last_name: 'Li' }, ['li@x.fr'])).toEqual(['li@x.fr']);
    expect(namingTerms({}, ['a.b@x.fr'])).toEqual(['a.b@x.fr', 'a.b']);
  });
});
