// Issue 20, migration 0041: a term found in the users' words has its exact total from the words' kept counts, less the
// holdings beyond the first of each user holding several of its words (read from the words flagged as overlapping
// another word of their user), instead of hashing every holder. The same users as the issue's rule says, with and
// without inactive users, within a role, leaving the caller out; through renames that make or break an overlap; and,
// before the flags' backfill is through, counted from the holders as before.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUsersPage, type UserListQuery } from '../../server/features/users/users-list.repository.ts';
import { searchBackfillJob } from '../../server/jobs/search-backfill.ts';
import type { Database } from '../../server/db/schema.ts';
import { fixtures } from './support/fixtures.ts';
import { EXACT, keptCopiesDiffering } from './support/kept-copies.ts';
import { expectedSearch } from './support/search-expected.ts';
import { capturing } from './support/plans.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './db/test-databases.ts';

const base: UserListQuery = { page: 1, pageSize: 100, includeInactive: true, sort: 'name', order: 'asc', scope: null, pendingReach: null };

// Each holds several words sharing four characters or more: 'martin' in 'lmartin', 'martine' and 'martinez' (three at
// once for Marc), 'aule' in 'saules' and 'baule'; Jean holds 'martin' once (name and e-mail give one word).
const PEOPLE = [
  { first: 'Léa', last: 'Martin', email: 'lmartin@exemple-test.fr', role: 'COMPTABLE' },
  { first: 'Martine', last: 'Martin', email: 'martine.martin@exemple-test.fr', role: 'GESTIONNAIRE' },
  { first: 'Marc', last: 'Martinez', email: 'mmartinez.martin@exemple-test.fr', role: 'COMPTABLE' },
  { first: 'Paul', last: 'Saules', email: 'p.baule@exemple-test.fr', role: 'COMPTABLE', active: false },
  { first: 'Jean', last: 'Martin', email: 'jean.martin@exemple-test.fr', role: 'GESTIONNAIRE' },
  { first: 'Émile', last: 'Martín', email: 'emile.martin@autre-test.fr', role: 'COMPTABLE', active: false },
];
const TERMS = ['martin', 'MARTÍN', 'artin', 'marti', 'tinez', 'martine', 'lmartin', 'aule', 'saules', 'exemple', 'qzxw'];

for (const backend of backends) {
  describe(`the users' search totals from overlapping words on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;
    let ids: string[];

    beforeAll(async () => {
      t = await createSeededTestDatabase(backend);
      db = t.handle.db;
      const f = fixtures(db);
      const organizationId = (await f.organization('Clinique des Tilleuls')).id;
      ids = [];
      for (const person of PEOPLE) {
        const { id } = await f.user({ organizationId, roleCode: person.role, email: person.email, active: person.active ?? true });
        await db.updateTable('users').set({ first_name: person.first, last_name: person.last }).where('id', '=', id).execute();
        ids.push(id);
      }
    }, 60_000);

    afterAll(async () => {
      await t?.dispose();
    });

    /**
     * Every term's total and first page, with and without inactive users, within each role and none, each caller left out
     * or not (`thorough`); after a write, within one role and none, one caller left out or none.
     */
    async function expectExactTotals(label: string, thorough = false) {
      for (const term of TERMS) {
        for (const includeInactive of [true, false]) {
          for (const roleCode of thorough ? [undefined, 'COMPTABLE', 'GESTIONNAIRE'] : [undefined, 'COMPTABLE']) {
            for (const excludeUserId of thorough ? [undefined, ids[2]!, ids[4]!] : [undefined, ids[2]!]) {
              const want = (await expectedSearch(db, term, { includeInactive, sort: 'name', order: 'asc', ...(roleCode ? { roleCode } : {}) })).filter((id) => id !== excludeUserId);
              const found = await listUsersPage(db, { ...base, includeInactive, search: term, ...(roleCode ? { roleCode } : {}), ...(excludeUserId ? { excludeUserId } : {}) }, null, { searchAccess: 'words' });
              const at = `${label}: ${term} inactive=${includeInactive} role=${roleCode} excluded=${excludeUserId}`;
              expect(found.total, at).toBe(want.length);
              expect(found.rows.map((r) => r.id), at).toEqual(want);
            }
          }
        }
      }
    }

    it('flags the words sharing four characters with another of their user, and counts each user once from the kept counts', async () => {
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      const flagged = await db.selectFrom('user_search_words').select(['id', 'word']).where('overlapping', '=', true).where('id', 'in', ids).orderBy('word').execute();
      expect(flagged.filter((w) => w.id === ids[2]).map((w) => w.word)).toEqual(['martin', 'martinez', 'mmartinez']);
      expect(flagged.filter((w) => w.id === ids[3]).map((w) => w.word)).toEqual(['baule', 'saules']);
      expect(flagged.some((w) => w.id === ids[4])).toBe(false);
      await expectExactTotals('flagged', true);
      // The total of a term held in several words comes from their counts and the flagged words, never from every holder.
      const recorder = capturing(db);
      await listUsersPage(recorder.db, { ...base, search: 'martin' }, null, { searchAccess: 'words' });
      const total = recorder.statements.find((s) => s.sql.includes('user_search_overlaps_backfill'));
      expect(total?.sql).toContain('p.overlapping');
    });

    it('keeps the flags exact through renames that make or break an overlap, a new e-mail, a deletion and a rolled back rename', async () => {
      const f = fixtures(db);
      const check = async (label: string) => {
        expect(await keptCopiesDiffering(db), label).toEqual(EXACT);
        await expectExactTotals(label);
      };
      // Léa Martin becomes Léa Dupont: 'lmartin' (her e-mail) overlaps nothing any more.
      await db.updateTable('users').set({ last_name: 'Dupont' }).where('id', '=', ids[0]!).execute();
      expect(await db.selectFrom('user_search_words').select('overlapping').where('id', '=', ids[0]!).where('word', '=', 'lmartin').executeTakeFirst()).toEqual({ overlapping: false });
      await check('after a rename breaking an overlap');
      // Jean Martin's e-mail becomes jmartinez@…: 'martin' now overlaps 'jmartinez'.
      await db.updateTable('users').set({ email: 'jmartinez@exemple-test.fr' }).where('id', '=', ids[4]!).execute();
      expect(await db.selectFrom('user_search_words').select('overlapping').where('id', '=', ids[4]!).where('word', '=', 'martin').executeTakeFirst()).toEqual({ overlapping: true });
      await check('after a new e-mail making an overlap');
      // Rolled back: as it was.
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ first_name: 'Martinus' }).where('id', '=', ids[0]!).execute();
        await sql`savepoint nothing`.execute(trx);
        throw new Error('rolled back');
      }).catch((error: Error) => expect(error.message).toBe('rolled back'));
      await check('after a rolled back rename');
      // A new person holding three overlapping words, then deleted with their words.
      const { id } = await f.user({ organizationId: (await f.organization('Clinique des Tilleuls')).id, roleCode: 'COMPTABLE', email: 'martinet.martine@exemple-test.fr' });
      await db.updateTable('users').set({ first_name: 'Martin', last_name: 'Martinet' }).where('id', '=', id).execute();
      await check('after a creation');
      await db.deleteFrom('role_assignments').where('user_id', '=', id).execute();
      await db.deleteFrom('users').where('id', '=', id).execute();
      await check('after a deletion');
    });

    it('counts every term of four characters or more exactly among people drawn at random from overlapping syllables and letters that fold', async () => {
      // A seeded draw (the same every run): names and e-mails made of syllables that share four characters across words
      // ('martin', 'martine', 'smartinez'), of letters that fold to several ('ß' → 'ss', 'œ' → 'oe', 'æ' → 'ae') or to
      // another ('ς' → 'σ'), and digits that cut words; some people inactive, some holding a second role.
      let seed = 20261128;
      const next = (n: number) => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return (seed >>> 8) % n;
      };
      const SYLLABLES = ['mart', 'in', 'ine', 'ez', 'stra', 'ße', 'sse', 'œuv', 'oeuv', 'ræ', 'rae', 'lan', 'σς', 'tin', 's'];
      const word = (parts: number) => Array.from({ length: parts }, () => SYLLABLES[next(SYLLABLES.length)]).join('');
      const f = fixtures(db);
      const organizationId = (await f.organization('Clinique des Tilleuls')).id;
      const drawn: string[] = [];
      for (let i = 0; i < 40; i += 1) {
        const first = word(1 + next(3));
        const last = `${word(1 + next(3))}${next(4) === 0 ? ` ${word(2)}` : ''}`;
        const email = `${word(1 + next(3))}${next(3) === 0 ? String(next(90)) : ''}.${word(1 + next(2))}@ex${i}-${word(1)}.fr`.replace(/[ßœæσς]/g, 'x');
        const { id } = await f.user({ organizationId, roleCode: next(2) ? 'COMPTABLE' : 'GESTIONNAIRE', email, active: next(5) !== 0 });
        await db.updateTable('users').set({ first_name: first, last_name: last }).where('id', '=', id).execute();
        drawn.push(`${first} ${last}`, email);
      }
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      // Terms: strings of four to seven characters of the people's own words, as typed (the search folds them).
      const terms = new Set<string>();
      while (terms.size < 40) {
        const text = drawn[next(drawn.length)]!.split(/[ .@_0-9-]/).filter((w) => [...w].length >= 4)[0];
        if (!text) continue;
        const letters = [...text];
        const length = Math.min(letters.length, 4 + next(4));
        const start = next(letters.length - length + 1);
        terms.add(letters.slice(start, start + length).join(''));
      }
      let counted = 0;
      for (const term of terms) {
        for (const includeInactive of [true, false]) {
          for (const roleCode of [undefined, 'GESTIONNAIRE']) {
            const want = await expectedSearch(db, term, { includeInactive, sort: 'name', order: 'asc', ...(roleCode ? { roleCode } : {}) });
            const found = await listUsersPage(db, { ...base, includeInactive, search: term, ...(roleCode ? { roleCode } : {}) }, null, { searchAccess: 'words' });
            expect(found.total, `${term} inactive=${includeInactive} role=${roleCode}`).toBe(want.length);
            counted += want.length;
          }
        }
      }
      // The draw found people: the check is not of empty lists.
      expect(counted).toBeGreaterThan(200);
    });

    it('counts from the holders until the backfill has flagged the words already there, then from the counts', async () => {
      const martin = async () => (await listUsersPage(db, { ...base, search: 'martin' }, null, { searchAccess: 'words' })).total;
      const want = (await expectedSearch(db, 'martin', { includeInactive: true, sort: 'name', order: 'asc' })).length;
      // Read from the flags once their backfill is through: with them cleared, a person holding several words is counted
      // for each (the flags are what corrects the sum).
      await db.updateTable('user_search_words').set({ overlapping: false }).execute();
      expect(await martin()).toBeGreaterThan(want);
      // Until it is through, counted from the holders: every word wrongly flagged changes nothing.
      await db.updateTable('user_search_overlaps_backfill').set({ done: false, after_id: null }).execute();
      await sql`update user_search_words set overlapping = true where char_length(word) >= 4 and not search_phrase(word)`.execute(db);
      expect(await martin()).toBe(want);
      await db.updateTable('user_search_words').set({ overlapping: false }).execute();
      await expectExactTotals('before the backfill');
      const job = searchBackfillJob({ db, batchSize: 50 });
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      expect(await job.run({ now: new Date(), signal: new AbortController().signal, log })).toMatchObject({ done: 1 });
      expect(await db.selectFrom('user_search_overlaps_backfill').select('done').executeTakeFirst()).toEqual({ done: true });
      expect(await db.selectFrom('user_search_words').select('id').where('overlapping', '=', true).where('id', 'in', ids).execute()).not.toEqual([]);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      await expectExactTotals('after the backfill', true);
    });
  });
}
