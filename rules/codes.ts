// SIREN and SIRET codes (spec §1, §5). Pure: shared by the SPA's validation and the server.

export type OrganizationCodeType = 'SIREN' | 'SIRET';

export const SIREN_LENGTH = 9;
export const SIRET_LENGTH = 14;

// La Poste's establishments do not follow Luhn: their SIRET digits sum to a multiple of 5 (INSEE rule).
const LA_POSTE_SIREN = '356000000';

const DIGITS_ONLY = /^[0-9]+$/;

/** Luhn sum of a digit string: every second digit from the right is doubled. */
function luhnSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

/** True when a non-empty digit string passes the Luhn check. */
export function isLuhnValid(digits: string): boolean {
  return DIGITS_ONLY.test(digits) && luhnSum(digits) % 10 === 0;
}

/** The digit to append to `payload` so that the whole string passes the Luhn check. */
export function luhnCheckDigit(payload: string): string {
  if (!DIGITS_ONLY.test(payload)) throw new Error(`luhnCheckDigit expects digits, got "${payload}"`);
  const sum = luhnSum(`${payload}0`);
  return String((10 - (sum % 10)) % 10);
}

/** Removes the spaces people type in codes ("552 100 554 00011"). */
export function normalizeOrganizationCode(input: string): string {
  return input.replace(/\s+/g, '');
}

export function isValidSiren(code: string): boolean {
  return code.length === SIREN_LENGTH && isLuhnValid(code);
}

export function isValidSiret(code: string): boolean {
  if (code.length !== SIRET_LENGTH || !DIGITS_ONLY.test(code)) return false;
  if (code.startsWith(LA_POSTE_SIREN)) {
    let sum = 0;
    for (const char of code) sum += char.charCodeAt(0) - 48;
    return sum % 5 === 0;
  }
  return isLuhnValid(code);
}

/** 'SIREN' for 9 digits, 'SIRET' for 14, null otherwise (no checksum test). */
export function organizationCodeType(code: string): OrganizationCodeType | null {
  if (!DIGITS_ONLY.test(code)) return null;
  if (code.length === SIREN_LENGTH) return 'SIREN';
  if (code.length === SIRET_LENGTH) return 'SIRET';
  return null;
}

/** The SIREN of a SIRET or of a SIREN: its first 9 characters. */
export function sirenOf(code: string): string {
  return code.slice(0, SIREN_LENGTH);
}

/** Builds the SIRET of an establishment: SIREN + 4-digit establishment number + check digit. */
export function makeSiret(siren: string, establishmentNumber: number): string {
  if (!isValidSiren(siren)) throw new Error(`invalid SIREN "${siren}"`);
  if (!Number.isInteger(establishmentNumber) || establishmentNumber < 0 || establishmentNumber > 9999) {
    throw new Error(`establishment number out of range: ${establishmentNumber}`);
  }
  const payload = `${siren}${String(establishmentNumber).padStart(4, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** Builds a SIREN from its first 8 digits by appending the Luhn check digit. */
export function makeSiren(firstEightDigits: string): string {
  if (firstEightDigits.length !== SIREN_LENGTH - 1) throw new Error('a SIREN payload has 8 digits');
  return `${firstEightDigits}${luhnCheckDigit(firstEightDigits)}`;
}

/** An organization entry as the API gives it; type may be missing in some answers. */
export interface OrganizationEntry {
  code: string;
  type?: string | null;
}

/** Spec §5: an entry counts as a SIREN if its type is SIREN or its code has 9 characters. */
export function isSirenEntry(entry: OrganizationEntry): boolean {
  return entry.type === 'SIREN' || entry.code.length === SIREN_LENGTH;
}

/** Spec §5: an entry counts as a SIRET if its type is SIRET or its code has 14 characters. */
export function isSiretEntry(entry: OrganizationEntry): boolean {
  return entry.type === 'SIRET' || entry.code.length === SIRET_LENGTH;
}
