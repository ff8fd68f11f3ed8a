import { describe, expect, it } from 'vitest';
import {
  isLuhnValid,
  isSirenEntry,
  isSiretEntry,
  isValidSiren,
  isValidSiret,
  luhnCheckDigit,
  makeSiren,
  makeSiret,
  normalizeOrganizationCode,
  organizationCodeType,
  sirenOf,
} from '../../rules/codes.ts';

describe('Luhn', () => {
  it('accepts known valid numbers and refuses one with a changed digit', () => {
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398710')).toBe(false);
    expect(isLuhnValid('0')).toBe(true);
  });

  it('refuses empty and non-digit input', () => {
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('7992739871a')).toBe(false);
    expect(isLuhnValid(' 79927398713')).toBe(false);
  });

  it('computes the check digit that makes the whole number valid', () => {
    expect(luhnCheckDigit('7992739871')).toBe('3');
    for (const payload of ['1', '12345678', '73282932', '0000000000000']) {
      expect(isLuhnValid(`${payload}${luhnCheckDigit(payload)}`)).toBe(true);
    }
    expect(() => luhnCheckDigit('12a')).toThrow();
  });
});

describe('SIREN', () => {
  it('accepts real SIRENs (9 digits, Luhn-valid)', () => {
    expect(isValidSiren('732829320')).toBe(true);
    expect(isValidSiren('552100554')).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length and non-digits', () => {
    expect(isValidSiren('732829321')).toBe(false);
    expect(isValidSiren('73282932')).toBe(false);
    expect(isValidSiren('7328293200')).toBe(false);
    expect(isValidSiren('73282932O')).toBe(false);
  });

  it('builds a valid SIREN from its first 8 digits', () => {
    expect(makeSiren('73282932')).toBe('732829320');
    expect(() => makeSiren('123')).toThrow();
  });
});

describe('SIRET', () => {
  it('accepts real SIRETs (14 digits, Luhn-valid)', () => {
    expect(isValidSiret('73282932000074')).toBe(true);
    expect(isValidSiret('55210055400013')).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length and non-digits', () => {
    expect(isValidSiret('73282932000075')).toBe(false);
    expect(isValidSiret('7328293200007')).toBe(false);
    expect(isValidSiret('7328293200007A')).toBe(false);
  });

  it("applies La Poste's rule (digit sum a multiple of 5) to its establishments", () => {
    expect(isLuhnValid('35600000000015')).toBe(false);
    expect(isValidSiret('35600000000015')).toBe(true); // digit sum 20
    expect(isLuhnValid('35600000000048')).toBe(true);
    expect(isValidSiret('35600000000048')).toBe(false); // digit sum 26
  });

  it('builds SIRETs that start with their SIREN and pass the check', () => {
    for (let n = 1; n <= 12; n += 1) {
      const siret = makeSiret('732829320', n);
      expect(siret).toHaveLength(14);
      expect(siret.startsWith('732829320')).toBe(true);
      expect(isValidSiret(siret)).toBe(true);
    }
    expect(makeSiret('732829320', 7)).toBe('73282932000074');
    expect(() => makeSiret('732829321', 1)).toThrow();
    expect(() => makeSiret('732829320', 10_000)).toThrow();
  });
});

describe('organization code helpers', () => {
  it('tells a SIREN from a SIRET by length, and neither otherwise', () => {
    expect(organizationCodeType('732829320')).toBe('SIREN');
    expect(organizationCodeType('73282932000074')).toBe('SIRET');
    expect(organizationCodeType('1234')).toBeNull();
    expect(organizationCodeType('73282932A')).toBeNull();
  });

  it('gives the SIREN of a SIRET or of a SIREN', () => {
    expect(sirenOf('73282932000074')).toBe('732829320');
    expect(sirenOf('732829320')).toBe('732829320');
  });

  it('removes the spaces people type', () => {
    expect(normalizeOrganizationCode(' 732 829 320 00074 ')).toBe('73282932000074');
  });

  it('counts an entry as SIREN or SIRET by its type or, without one, by its code length (spec §5)', () => {
    expect(isSirenEntry({ code: '732829320' })).toBe(true);
    expect(isSirenEntry({ code: 'X', type: 'SIREN' })).toBe(true);
    expect(isSirenEntry({ code: '73282932000074', type: 'SIRET' })).toBe(false);
    expect(isSiretEntry({ code: '73282932000074' })).toBe(true);
    expect(isSiretEntry({ code: 'X', type: 'SIRET' })).toBe(true);
    expect(isSiretEntry({ code: '732829320', type: null })).toBe(false);
  });
});
