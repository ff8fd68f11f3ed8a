// Issue 20, attacker review R11: the search on words and phrases (migration 0039) against the rule on names and
// e-mails made of awkward characters (digits meeting letters, every separator, LIKE's wildcards and escape, ligatures,
// other digits and scripts), with random terms cut from them or made up, while users are renamed, deactivated,
// reactivated and deleted between searches. One process's kept totals and outlooks (ListTotals) serve every search,
// so a page or total kept for another includeInactive, caller left out or version would show. Seeded: the same run
// every time (FUZZ_SEED to try another).
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFold } from '../../server/core/search-fold.ts';
import { ListTotals } from '../../server/db/list-totals.ts';
import type { Database } from '../../server/db/schema.ts';
import { listUsersPage, sortKey, type UserListQuery } from '../../server/features/users/users-list.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';

const LETTERS = ['a', 'b', 'e', 'é', 'ô', 'œ', 'ß', '1', '2', '0', ' ', '.', '-', "'", '’', '_', '+', '%', '\\', 'ﬁ', 'Ǆ', 'x', 'y', 'É', 'İ', 'ǅ', '²', '٣'];
const PAGE = 5;

/** A small linear congruential generator: the same draws for the same seed. */
function draws(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const text = (length: number) => Array.from({ length }, () => pick(LETTERS)).join('');
  const upTo = (n: number) => 1 + Math.floor(next() * n);
  return { next, pick, text, upTo };
}

for (const backend of backends) {
  describe(`the search on words and phrases against the rule, fuzzed, on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;
    beforeAll(async () => {
      t = await createSeededTestDatabase(backend);
      db = t.handle.db;
    }, 60_000);
    afterAll(() => t?.dispose());

    it('answers every term, page and list as the rule does while the users change', async () => {
      const d = draws(Number(process.env.FUZZ_SEED ?? 7));
      const clinic = await fixtures(db).organization('Clinique des Tilleuls');
      const ids: string[] = [];
      let renamed = 0;
      const rename = (id: string) =>
        db
          .updateTable('users')
          .set({
            first_name: `Q${d.text(d.upTo(6))}`,
            last_name: `${d.text(d.upTo(8))}z`,
            email: `${d.text(d.upTo(6)).replace(/[ \\%.]/g, 'k')}k${renamed++}@${d.pick(['d1', 'ex-amp', 'e.f', 'z2z'])}.fr`,
          })
          .where('id', '=', id)
          .execute();
      for (let i = 0; i < 40; i++) {
        const { id } = await fixtures(db).user({ organizationId: clinic.id, roleCode: 'COMPTABLE', email: `fz${i}@fz.fr`, active: d.next() > 0.2 });
        ids.push(id);
        await rename(id);
      }
      const totals = new ListTotals();
      const wrong: string[] = [];
      let matched = 0;
      for (let round = 0; round < 400; round++) {
        const change = d.next();
        if (change < 0.15) {
          const id = d.pick(ids);
          const how = d.next();
          if (how < 0.4) await rename(id);
          else if (how < 0.8) await db.updateTable('users').set((eb) => ({ is_active: eb.not('is_active') })).where('id', '=', id).execute();
          else {
            await db.deleteFrom('role_assignments').where('user_id', '=', id).execute();
            await db.deleteFrom('users').where('id', '=', id).execute();
          }
        }
        const everyone = await db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'is_active']).execute();
        const someone = d.pick(everyone);
        const source = d.next() < 0.5 ? `${someone.first_name} ${someone.last_name}` : someone.email;
        const from = Math.floor(d.next() * source.length);
        const term = d.next() < 0.15 ? d.text(d.upTo(3)) : source.slice(from, from + d.upTo(6));
        if (!term.trim()) continue;
        const includeInactive = d.next() < 0.5;
        const excludeUserId = d.next() < 0.3 ? someone.id : undefined;
        const sort = d.pick(['name', 'email', 'lastLogin'] as const);
        const order = d.pick(['asc', 'desc'] as const);
        const query: UserListQuery = { page: 1, pageSize: PAGE, includeInactive, sort, order, scope: null, pendingReach: null, search: term, ...(excludeUserId ? { excludeUserId } : {}) };
        const folded = searchFold(term.trim().normalize('NFC'));
        const holders = everyone
          .filter((u) => (u.is_active || includeInactive) && u.id !== excludeUserId)
          .filter((u) => [`${u.first_name} ${u.last_name}`, u.email].some((text) => searchFold(text.normalize('NFC')).includes(folded)))
          .map((u) => u.id);
        matched += holders.length > 0 ? 1 : 0;
        const inOrder = holders.length
          ? (await db.selectFrom('users').select('users.id').where('users.id', 'in', holders).orderBy(sortKey(query)).orderBy(sql`users.id ${sql.raw(order)}`).execute()).map((r) => r.id)
          : [];
        const page = d.upTo(Math.max(1, Math.ceil(holders.length / PAGE)));
        const want = inOrder.slice((page - 1) * PAGE, page * PAGE);
        for (const searchAccess of [undefined, 'words'] as const) {
          const found = await listUsersPage(db, { ...query, page }, searchAccess ? null : totals, { searchAccess });
          const got = found.rows.map((r) => r.id);
          if (found.total !== holders.length || JSON.stringify(got) !== JSON.stringify(want)) {
            wrong.push(`${JSON.stringify(term)} ${searchAccess ?? 'chosen'} inactive=${includeInactive} excludeSelf=${Boolean(excludeUserId)} ${sort} ${order} page ${page}: total ${found.total}, rule ${holders.length}`);
          }
        }
      }
      expect(wrong).toEqual([]);
      // The draws find someone most of the time: the comparison is not of empty answers.
      expect(matched).toBeGreaterThan(250);
    }, 300_000);
  });
}
