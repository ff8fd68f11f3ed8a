// Issue 20, review: the users' search attacked with awkward terms and awkward data, on PGlite and PostgreSQL. The
// rule: a substring of the full name "First Last" or of the e-mail, case and accents ignored; the total of a term,
// however it is found (counts of short strings, a count, the whole look), is the number of users the page walks.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFold } from '../../server/core/search-fold.ts';
import { ListTotals } from '../../server/db/list-totals.ts';
import { listUsersPage, sortKey, type UserListQuery } from '../../server/features/users/users-list.repository.ts';
import { searchBackfillJob } from '../../server/jobs/search-backfill.ts';
import type { Database } from '../../server/db/schema.ts';
import { fixtures } from './support/fixtures.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './db/test-databases.ts';

const base: UserListQuery = { page: 1, pageSize: 100, includeInactive: true, sort: 'name', order: 'asc', scope: null, pendingReach: null };

/** Awkward names and addresses: LIKE's wildcards and escape, quotes, '@' in a name, several '@', emoji, other scripts. */
const PEOPLE = [
  { first: 'Jean_Paul', last: 'Cent%Pour', email: 'jp_100%@exemple-test.fr' },
  { first: 'Anne\\Marie', last: "O'Brien", email: "o'brien@exemple-test.fr" },
  { first: 'J@ck', last: 'Arobase', email: 'jack@exemple-test.fr' },
  { first: 'Deux', last: 'Arobases', email: 'deux@ici@exemple-test.fr' },
  { first: 'Zoé😀', last: '山田', email: 'yamada@exemple-test.fr', active: false },
  { first: 'Œdipe', last: 'Cœur', email: 'oedipe@exemple-test.fr' },
];

const TERMS = [
  '%', '_', '\\', '%%', '__', '\\\\', '%_\\', '\\%', '\\_', 'n_p', '_pa', '0%@', '%@e', '_10', '%pour', 't%p', '100%', "'", "o'b", "o'brien", 'e\\m', 'anne\\marie',
  '@', '@@', 'k@', '@e', 'j@c', 'j@ck', 'ck@', 'ck@ex', 'x@i', 'deux@ici', '@ici@', 'ici@exemple', 'u@i', 'x@ici@exemple-test.fr', 'n@a', 'e@e', 'a@b@c',
  '😀', 'é😀', 'zoé😀', '山', '山田', '😀 山', 'œ', 'œd', 'oed', 'œdi', 'oedi', 'cœu', 'ur', '  jack  ', 'k a', 'ck ar', ' ',
];

for (const backend of backends) {
  describe(`the users' search attacked on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;
    let callerId: string;

    beforeAll(async () => {
      t = await createSeededTestDatabase(backend);
      db = t.handle.db;
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      for (const person of PEOPLE) {
        const { id } = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE', email: person.email, active: person.active ?? true });
        await db.updateTable('users').set({ first_name: person.first, last_name: person.last }).where('id', '=', id).execute();
      }
      callerId = (await db.selectFrom('users').select('id').where('email', '=', 'jack@exemple-test.fr').executeTakeFirstOrThrow()).id;
    }, 60_000);

    afterAll(async () => {
      await t?.dispose();
    });

    /** The users the rule finds, in the list's order (the term trimmed, as the list does). */
    async function expected(term: string, query: Pick<UserListQuery, 'includeInactive' | 'excludeUserId'>) {
      const everyone = await db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'is_active']).execute();
      const wanted = searchFold(term.trim());
      const ids = everyone
        .filter((u) => (u.is_active || query.includeInactive) && u.id !== query.excludeUserId)
        .filter((u) => searchFold(`${u.first_name} ${u.last_name}`).includes(wanted) || searchFold(u.email).includes(wanted))
        .map((u) => u.id);
      if (ids.length === 0) return [];
      const ordered = await db.selectFrom('users').select('users.id').where('users.id', 'in', ids).orderBy(sortKey(base)).orderBy(sql`users.id asc`).execute();
      return ordered.map((r) => r.id);
    }

    /** The differences between the search's answers and the rule for these terms, every way a page is found. */
    async function differences(terms: readonly string[]) {
      const wrong: string[] = [];
      for (const term of terms) {
        for (const includeInactive of [true, false]) {
          for (const excludeUserId of [undefined, callerId]) {
            const want = await expected(term, { includeInactive, excludeUserId });
            for (const searchAccess of ['walk', 'fetch', 'words', undefined] as const) {
              const found = await listUsersPage(db, { ...base, includeInactive, search: term, ...(excludeUserId ? { excludeUserId } : {}) }, null, { searchAccess });
              const ids = found.rows.map((r) => r.id);
              const label = `${JSON.stringify(term)} inactive=${includeInactive} excludeSelf=${Boolean(excludeUserId)} ${searchAccess ?? 'chosen'}`;
              if (term.trim() === '') continue;
              if (found.total !== want.length) wrong.push(`${label}: total ${found.total}, rule ${want.length}`);
              if (JSON.stringify(ids) !== JSON.stringify(want.slice(0, 100))) wrong.push(`${label}: page of ${ids.length}, rule ${want.length}`);
            }
          }
        }
      }
      return wrong;
    }

    /** The grams whose kept counts differ from a count from scratch (migration 0019's recount, not written). */
    async function gramDrift() {
      const { rows } = await sql<{ gram: string; inactive_only: boolean; kept: number; actual: number }>`
        with kept as (select gram, inactive_only, sum(n)::int as n from user_search_gram_counts group by 1, 2),
        actual as (
          select g as gram, k.inactive_only, count(*)::int as n from user_search as s cross join lateral search_grams(s.name, s.email) as g
          cross join (values (false), (true)) as k (inactive_only) where s.folded and (not k.inactive_only or not s.is_active) group by 1, 2)
        select coalesce(kept.gram, actual.gram) as gram, coalesce(kept.inactive_only, actual.inactive_only) as inactive_only,
               coalesce(kept.n, 0) as kept, coalesce(actual.n, 0) as actual
        from kept full join actual on kept.gram = actual.gram and kept.inactive_only = actual.inactive_only
        where coalesce(kept.n, 0) <> coalesce(actual.n, 0)`.execute(db);
      return rows;
    }

    it("agrees with the rule for LIKE's wildcards and escape, quotes, '@' anywhere, emoji, other scripts, ligatures, the caller left out", async () => {
      expect(await differences(TERMS)).toEqual([]);
    }, 120_000);

    it('finds a term typed in decomposed form (e + U+0301, as pasted from some sources), as its composed form', async () => {
      const helene = await fixtures(db).user({ organizationId: (await fixtures(db).organization('Clinique des Tilleuls')).id, roleCode: 'COMPTABLE', email: 'hln@exemple-test.fr' });
      await db.updateTable('users').set({ first_name: 'Hélène', last_name: 'Décomposée' }).where('id', '=', helene.id).execute();
      for (const term of ['he\u0301le\u0300ne', 'He\u0301le\u0300ne De\u0301compose\u0301e', 'e\u0301ne', 'de\u0301c']) {
        const found = await listUsersPage(db, { ...base, search: term });
        expect(found.rows.map((r) => r.id), term).toContain(helene.id);
        expect(found.total, term).toBe((await listUsersPage(db, { ...base, search: term.normalize('NFC') })).total);
      }
    });

    // Names are stored as written: one written decomposed (an identity provider's claims, a paste from a PDF or a
    // macOS file name) is composed by search_fold() before it is folded.
    it('finds a name stored in decomposed form by the term without accents and with them', async () => {
      const helene = await fixtures(db).user({ organizationId: (await fixtures(db).organization('Clinique des Tilleuls')).id, roleCode: 'COMPTABLE', email: 'nfd@exemple-test.fr' });
      await db.updateTable('users').set({ first_name: 'He\u0301le\u0300ne', last_name: 'Stocke\u0301e' }).where('id', '=', helene.id).execute();
      for (const term of ['helene', 'hélène', 'stockee', 'ene sto']) {
        expect((await listUsersPage(db, { ...base, search: term })).rows.map((r) => r.id), term).toContain(helene.id);
      }
    });

    // JavaScript lowers a final capital sigma to 'ς', PostgreSQL's lower() to 'σ': both folds write it 'σ'.
    it('finds a Greek name written in capitals as typed', async () => {
      const { id } = await fixtures(db).user({ organizationId: (await fixtures(db).organization('Clinique des Tilleuls')).id, roleCode: 'COMPTABLE', email: 'greek@exemple-test.fr' });
      await db.updateTable('users').set({ first_name: 'ΝΙΚΟΣ', last_name: 'ΠΑΠΑΣ' }).where('id', '=', id).execute();
      for (const term of ['ΝΙΚΟΣ', 'ΝΙΚΟΣ ΠΑΠΑΣ', 'νικος']) {
        expect((await listUsersPage(db, { ...base, search: term })).rows.map((r) => r.id), term).toContain(id);
      }
    });

    it('keeps the counts of short strings exact under two transactions writing at once, one of them rolled back', async () => {
      const other = backend.name === 'postgres' ? (await t.openAnother()).db : db;
      const clinique = await fixtures(db).organization('Clinique des Tilleuls');
      const f = fixtures(db);
      const made = await Promise.all([0, 1, 2, 3].map((i) => f.user({ organizationId: clinique.id, roleCode: 'COMPTABLE', email: `qwk${i}@exemple-test.fr` })));
      const writeA = db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ first_name: 'Qwérty' }).where('id', '=', made[0]!.id).execute();
        await trx.updateTable('users').set({ is_active: false }).where('id', '=', made[1]!.id).execute();
        await sql`select pg_sleep(0.2)`.execute(trx);
        await trx.insertInto('users').values({ id: randomUUID(), email: `qwx.${randomUUID().slice(0, 6)}@exemple-test.fr`, first_name: 'Qw', last_name: 'Nouveau', user_type: 'ORGANIZATION', is_active: true }).execute();
      });
      const writeB = other.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ last_name: 'Qwàrtz', is_active: false }).where('id', '=', made[2]!.id).execute();
        await trx.deleteFrom('users').where('id', '=', made[3]!.id).execute();
        await sql`select pg_sleep(0.1)`.execute(trx);
      });
      const rolledBack = other
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ first_name: 'Qwqwqw', is_active: false }).where('id', '=', made[0]!.id).execute();
          await trx.insertInto('users').values({ id: randomUUID(), email: `qwz.${randomUUID().slice(0, 6)}@exemple-test.fr`, first_name: 'Qwz', last_name: 'Annulé', user_type: 'ORGANIZATION', is_active: true }).execute();
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await Promise.all([writeA, writeB, rolledBack]);
      expect(await gramDrift()).toEqual([]);
      // The same user changed by two transactions at once: the second waits for the first, then changes its result.
      const same = made[1]!.id;
      const first = db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ first_name: 'Qwàssé', is_active: true }).where('id', '=', same).execute();
        await sql`select pg_sleep(0.2)`.execute(trx);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = other.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ last_name: 'Qwézé', is_active: false }).where('id', '=', same).execute();
      });
      await Promise.all([first, second]);
      expect(await gramDrift()).toEqual([]);
      expect(await differences(['qw', 'q', 'wé', 'qwe', 'àr', 'ar', 'qwk', 'qwq'])).toEqual([]);
    }, 60_000);

    it("gives the totals a process keeps the meaning the backfill gives the rows it folds (a kept total is not the former one's)", async () => {
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      const { id } = await f.user({ organizationId: clinique.id, roleCode: 'COMPTABLE', email: 'kept@exemple-test.fr' });
      await db.updateTable('users').set({ first_name: 'Mylène', last_name: 'Gardée' }).where('id', '=', id).execute();
      await sql`update user_search s set name = lower(u.first_name || ' ' || u.last_name), email = lower(u.email), folded = false from users u where u.id = s.id`.execute(db);
      await sql`update user_search_backfill set after_id = null, done = false`.execute(db);
      const organization = { id: clinique.id, code: clinique.code, name: clinique.name, type: 'SIREN' as const, parentCode: null, parentId: null, member: true, closed: false };
      const totals = new ListTotals();
      const queries = [{ ...base, search: 'yle' }, { ...base, search: 'mylene' }, { ...base, search: 'gardee', organization }];
      const before = await Promise.all(queries.map(async (query) => (await listUsersPage(db, query, totals)).total));
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      await searchBackfillJob({ db }).run({ now: new Date(), signal: new AbortController().signal, log });
      for (const [i, query] of queries.entries()) {
        const kept = await listUsersPage(db, query, totals);
        const fresh = await listUsersPage(db, query, null);
        expect(fresh.rows.map((r) => r.id), query.search).toContain(id);
        expect(fresh.total, query.search).toBe(before[i]! + 1);
        expect(kept.total, query.search).toBe(fresh.total);
      }
    });

    it('keeps the search whole and the counts exact while the backfill folds rows that writers change at the same time', async () => {
      await sql`update user_search s set name = lower(u.first_name || ' ' || u.last_name), email = lower(u.email), folded = false from users u where u.id = s.id`.execute(db);
      await sql`update user_search_backfill set after_id = null, done = false`.execute(db);
      const other = backend.name === 'postgres' ? (await t.openAnother()).db : db;
      const ids = (await db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id);
      const job = searchBackfillJob({ db, batchSize: 2 });
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const backfill = job.run({ now: new Date(), signal: new AbortController().signal, log });
      const writes = (async () => {
        for (const [i, id] of ids.entries()) {
          if (i % 3 === 0) await other.updateTable('users').set({ first_name: `Écrit${i}` }).where('id', '=', id).execute();
          if (i % 5 === 0) await other.updateTable('users').set((eb) => ({ is_active: eb.not('is_active') })).where('id', '=', id).execute();
        }
      })();
      await Promise.all([backfill, writes]);
      expect((await db.selectFrom('user_search_backfill').select('done').executeTakeFirstOrThrow()).done).toBe(true);
      expect(await gramDrift()).toEqual([]);
      expect(await differences(['ecrit', 'écrit1', 'it1', 'e', 'é', 'ri', 'œ'])).toEqual([]);
    }, 120_000);
  });
}
