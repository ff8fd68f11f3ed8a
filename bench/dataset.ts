// Pure parts of the benchmark data set: its sizes, the weighted lookup tables the SQL draws from, and
// the SIREN numbering. The SQL of seed-sql.ts mirrors sirenPayload() and luhnCheckDigit() exactly.

/** The reference size of issue 8, scaled proportionally from the number of users. */
export const REFERENCE_SIZE = { users: 1_000_000, sirens: 50_000, sirets: 150_000, assignments: 2_000_000, invitations: 200_000 } as const;

export type DatasetSize = { -readonly [K in keyof typeof REFERENCE_SIZE]: number };

/** The smallest data set that still holds the demo data with room around it (30 demo employers among the SIRENs). */
export const MIN_USERS = 1_000;

export function datasetSize(users: number): DatasetSize {
  if (!Number.isInteger(users) || users < MIN_USERS) throw new Error(`--users must be an integer of at least ${MIN_USERS} (got ${users})`);
  const scale = (reference: number) => Math.round((reference * users) / REFERENCE_SIZE.users);
  return { users, sirens: scale(REFERENCE_SIZE.sirens), sirets: scale(REFERENCE_SIZE.sirets), assignments: scale(REFERENCE_SIZE.assignments), invitations: scale(REFERENCE_SIZE.invitations) };
}

/** '10k', '100k', '1m', '2.5m', '1500'. */
export function sizeLabel(users: number): string {
  if (users >= 1_000_000 && users % 100_000 === 0) return `${users / 1_000_000}m`;
  if (users >= 1_000 && users % 1_000 === 0) return `${users / 1_000}k`;
  return String(users);
}

/** '--users 1000000', '--users=1e6', '--users 1_000_000', '--users 100k', '--users 1m'. */
export function parseCount(text: string): number {
  const match = /^(\d+(?:\.\d+)?(?:e\d+)?)\s*([km]?)$/i.exec(text.trim().replaceAll('_', ''));
  if (!match) throw new Error(`not a number: '${text}'`);
  const factor = { '': 1, k: 1_000, m: 1_000_000 }[match[2]!.toLowerCase() as '' | 'k' | 'm'];
  const value = Number(match[1]) * factor;
  if (!Number.isSafeInteger(value)) throw new Error(`not a whole number: '${text}'`);
  return value;
}

/**
 * `slots` entries, each the index of an entry of `weights`, as many for each as its share of the total weight
 * (largest remainders first): a uniform draw of a slot is a weighted draw of an entry.
 */
export function weightedSlots(weights: readonly number[], slots: number): number[] {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (!(total > 0) || weights.some((w) => w < 0)) throw new Error('weights must be non-negative with a positive sum');
  const exact = weights.map((w) => (w * slots) / total);
  const counts = exact.map(Math.floor);
  let missing = slots - counts.reduce((sum, c) => sum + c, 0);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (missing === 0) break;
    counts[index]! += 1;
    missing -= 1;
  }
  return counts.flatMap((count, index) => Array.from({ length: count }, () => index));
}

/** Lower-case ASCII for mail addresses and domains: 'Lefèvre' → 'lefevre', 'Le Gall' → 'le-gall', "N'Diaye" → 'ndiaye'. */
export function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// SIREN numbers: 8 digits and a Luhn check digit. The generated ones are a permutation of [10^7, 10^8)
// (a multiplier coprime with 9·10^7), so that distinct candidates give distinct numbers.
export const SIREN_PAYLOAD_BASE = 10_000_000;
export const SIREN_PAYLOAD_RANGE = 90_000_000;
export const SIREN_MULTIPLIER = 48_271;
export const SIREN_OFFSET = 7_654_321;
/** La Poste's SIREN, whose SIRETs follow another rule (src/domain/codes.ts): never generated. */
export const LA_POSTE_PAYLOAD = '35600000';

/** The first 8 digits of the SIREN of candidate `c` (1, 2, …). */
export function sirenPayload(candidate: number): string {
  const value = SIREN_PAYLOAD_BASE + Number((BigInt(candidate) * BigInt(SIREN_MULTIPLIER) + BigInt(SIREN_OFFSET)) % BigInt(SIREN_PAYLOAD_RANGE));
  return String(value);
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** A multiplier that makes i ↦ (i·m + offset) mod n a permutation of [0, n): the first of these primes coprime with n. */
export function coprimeMultiplier(n: number): number {
  for (const candidate of [7_919, 7_927, 7_933, 7_937, 7_949, 7_951, 7_963]) if (gcd(candidate, n) === 1) return candidate;
  throw new Error(`no multiplier coprime with ${n}`);
}
