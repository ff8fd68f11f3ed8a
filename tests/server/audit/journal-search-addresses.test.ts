// The journal searched by an address (migration 0036, audit.model.ts addressParts, audit-list.repository.ts
// atAnAddress): the entries found through the address indexes are exactly those whose search text holds the term,
// at the first, second, third or fourth '@' of an entry, across spaces of every kind, wildcards and repeated '@',
// on both backends; and the indexes are what reads them.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addressParts } from '../../../server/features/audit/audit.model.ts';
import { prefixRange } from '../../../server/db/like.ts';
import { PREPARE_ANYWAY } from '../../../server/db/database.ts';
import { countJournalEntries, journalPageIds, listJournalPage, type JournalWhere } from '../../../server/features/audit/audit-list.repository.ts';
import { containsPattern } from '../../../server/db/like.ts';
import type { Database } from '../../../server/db/schema.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { keptPlan } from '../support/plans.ts';

describe("a search's address parts", () => {
  it('are the text before the first @ back to a space, and after it up to a space or another @', () => {
    expect(addressParts('helene.thomas@outlook.fr')).toEqual({ local: 'helene.thomas', domain: 'outlook.fr' });
    expect(addressParts('noel faure noel.faure@clinique.fr suite')).toEqual({ local: 'noel.faure', domain: 'clinique.fr' });
    expect(addressParts('a@b@c')).toEqual({ local: 'a', domain: 'b' });
    expect(addressParts('jean\tmarc@ex\u00a0fr')).toEqual({ local: 'marc', domain: 'ex' });
    expect(addressParts('zoë\u200b@exemple.fr')).toBeNull();
    expect(addressParts('𝔞𝔟@𝔠')).toEqual({ local: '𝔞𝔟', domain: '𝔠' });
  });

  it('are none without an @, or with nothing beside it', () => {
    for (const term of ['martin', '@gmail.com', 'martin@', 'a @b', 'a@ b', '@', 'x@@y']) expect(addressParts(term), term).toBeNull();
  });
});

describe('the range of the strings starting with a prefix, as PostgreSQL compares their bytes', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');
  it('holds every string that starts with the prefix', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 1 }), fc.string({ unit: 'binary' }), (prefix, rest) => {
      const { from, to } = prefixRange(prefix);
      const text = bytes(prefix + rest);
      expect(Buffer.compare(text, bytes(from))).toBeGreaterThanOrEqual(0);
      if (to !== null) expect(Buffer.compare(text, bytes(to))).toBeLessThan(0);
    }), { numRuns: 2_000 });
  });

  it('grows the last character that can grow, past the surrogates', () => {
    expect(prefixRange('samoht')).toEqual({ from: 'samoht', to: 'samohu' });
    expect(prefixRange('a\ud7ff')).toEqual({ from: 'a\ud7ff', to: 'a\ue000' });
    expect(prefixRange('ab\u{10ffff}')).toEqual({ from: 'ab\u{10ffff}', to: 'ac' });
    expect(prefixRange('\u{10ffff}')).toEqual({ from: '\u{10ffff}', to: null });
  });
});

/** Search texts as entries may hold them (folded): every count of '@', every kind of space around them, wildcards. */
const TEXTS = [
  'claire vasseur claire.vasseur@clinique.fr noel faure noel.faure@clinique.fr',
  'marie-helene.thomas@outlook.fr',
  'x helene.thomas@outlook.fra y',
  'helene.thomas@outlook.fr',
  'jean\tmarc@ex.fr',
  'jean\u00a0marc@ex.fr',
  'jean\nmarc@ex.fr\u2003suite',
  'a@b',
  '@debut x',
  'fin@',
  'x@@y',
  'a@b@c@d',
  'p q@r s@t u@v w@x',
  'remise 100%@b_c.fr',
  'r\\s@t',
  'sans arobase',
  'ancien@exemple.fr nouveau@exemple.fr auteur@portail.test',
];
const TERMS = [
  'helene.thomas@outlook.fr', 'thomas@outlook', 's@o', 'marc@ex.fr', 'jean\tmarc@ex', 'jean\u00a0marc@ex.fr', 'jean\nmarc@ex.fr', 'marc@ex.fr\u2003suite',
  'b@c@d', 'c@d', 'a@b@c', 'q@r s@t', 'r s@t u', 's@t u@v w', 'w@x', 'u@v', 'x@@y', '@@', 'a@b', '100%@b_c', '0%@b', '%@%', '_@_', 'r\\s@t', '\\s@',
  'vasseur@clinique', 'faure@clinique.fr', 'auteur@portail.test', 'nouveau@exemple.fr auteur', 'fr noel', 'claire.vasseur@clinique.fr noel faure noel.faure@cl',
  'e@o', 'nobody@nowhere.fr',
];

for (const backend of backends) {
  describe(`the journal searched by an address, on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    const back = (search: string): JournalWhere => ({ search, scope: null });

    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
      await db().insertInto('audit_log').values(TEXTS.map((text, i) => ({
        action: 'user.update' as const, entity_type: 'user' as const, entity_id: `adresse-${i}`, changes: '{}', search_text: text, subject_search_text: text,
      }))).execute();
    }, 120_000);
    afterAll(() => testDb?.dispose());

    it("finds every entry holding the term, and only those, as a count and as pages", async () => {
      for (const term of TERMS) {
        const { rows } = await sql<{ id: number }>`select id from audit_log where search_text like ${containsPattern(term)} order by at desc, id desc`.execute(db());
        const expected = rows.map((r) => Number(r.id));
        expect(await countJournalEntries(db(), back(term), null), JSON.stringify(term)).toBe(expected.length);
        const gathered = await listJournalPage(db(), back(term), { page: 1, pageSize: 100 }, { gather: true });
        expect(gathered.map((r) => r.id), JSON.stringify(term)).toEqual(expected);
      }
    });

    it('keeps the entries of a changed search text in step: an erased address is no longer found', async () => {
      const term = 'marie-helene.thomas@outlook.fr';
      expect(await countJournalEntries(db(), back(term), null)).toBe(1);
      await sql`update audit_log set search_text = 'personne effacee' where search_text = ${term}`.execute(db());
      expect(await countJournalEntries(db(), back(term), null)).toBe(0);
      expect(await countJournalEntries(db(), back('helene.thomas@outlook.fr'), null)).toBe(2);
    });

    it('is prepared, and its plan kept for every address reads the address indexes', async () => {
      const { sql: text, parameters } = db().selectFrom(journalPageIds(db(), back('helene.thomas@outlook.fr'), { page: 1, pageSize: 10 }, { gather: true }).as('p')).selectAll().compile();
      expect(text).toContain(PREPARE_ANYWAY);
      const plan = await keptPlan(testDb.handle, { sql: text, parameters }, { settings: ['enable_seqscan = off'], costs: false });
      // Each address index is read by the range of the term's parts, not whole with the parts filtered.
      for (const index of ['audit_log_address_1_idx', 'audit_log_address_2_idx']) expect(plan).toMatch(new RegExp(`Index Scan on ${index}\\s+Index Cond: .*~>=~`));
      expect(plan).not.toMatch(/audit_log_search_trgm_idx/);
    });

    it('reads an address through its indexes, not the trigram index of every entry', async () => {
      const plan = await testDb.handle.withRawTransaction(async (tx) => {
        await tx.exec('set local enable_seqscan = off');
        const { sql: text, parameters } = db().selectFrom(journalPageIds(db(), back('helene.thomas@outlook.fr'), { page: 1, pageSize: 10 }, { gather: true }).as('p')).selectAll().compile();
        return (await tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, parameters)).map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/audit_log_address_1_idx/);
      expect(plan).toMatch(/audit_log_address_2_idx/);
      expect(plan).toMatch(/audit_log_address_more_idx/);
      expect(plan).not.toMatch(/audit_log_search_trgm_idx/);
    });
  });
}
