// Issue 20, migration 0041: a term found in the users' words has its exact total from the words' kept counts, less the
// holdings beyond the first of each user holding several of its words (read from the words flagged as overlapping
// another word of their user), instead of hashing every holder. The same users as the rule says, with and
// without inactive users, within a role, leaving the caller out; through renames that make or break an overlap; and,
// before the flags' backfill is through, counted from the holders as before.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { listUsersPage, type UserListQuery } from '../../server/features/users/users-list.repository.ts';
import { searchBackfillJob } from '../../server/jobs/search-backfill.ts';
import type { Database } from '../../server/db/schema.ts';
import { fixtures } from './support/fixtures.ts';
import { EXACT, keptCopiesDiffering } from './support/kept-copies.ts';
import { expectedSearch } from './support/search-expected.ts';
import { capturing } from './support/plans.ts';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';

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
      t = await createTestDatabase(backend);
      await migrate(t.handle);
      await seedDemoData(t.handle);
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

    /** Every term's total and first page, with and without inactive users, within each role and none, each caller left out or not. */
    async function expectExactTotals(label: string) {
      for (const term of TERMS) {
        for (const includeInactive of [true, false]) {
          for (const roleCode of [undefined, 'COMPTABLE', 'GESTIONNAIRE']) {
            for (const excludeUserId of [undefined, ids[2]!, ids[4]!]) {
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
      await expectExactTotals('flagged');
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

    it('counts from the holders until the backfill has flagged the words already there, then from the counts', async () => {
      await db.updateTable('user_search_words').set({ overlapping: false }).execute();
      await db.updateTable('user_search_overlaps_backfill').set({ done: false, after_id: null }).execute();
      await expectExactTotals('before the backfill');
      const recorder = capturing(db);
      await listUsersPage(recorder.db, { ...base, search: 'martin' }, null, { searchAccess: 'words' });
      expect(recorder.statements.some((s) => s.sql.includes('count(distinct p.id)') || s.sql.includes('select distinct p.id'))).toBe(true);
      const job = searchBackfillJob({ db, batchSize: 50 });
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      expect(await job.run({ now: new Date(), signal: new AbortController().signal, log })).toMatchObject({ done: 1 });
      expect(await db.selectFrom('user_search_overlaps_backfill').select('done').executeTakeFirst()).toEqual({ done: true });
      expect(await db.selectFrom('user_search_words').select('id').where('overlapping', '=', true).where('id', 'in', ids).execute()).not.toEqual([]);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      await expectExactTotals('after the backfill');
    });
  });
}
