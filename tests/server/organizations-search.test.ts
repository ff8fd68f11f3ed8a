// Issue 20, migration 0020: the organizations' search ignores accents and case on names, its copy (organization_search)
// and counters (organization_counts, list version 'organizations') stay exact through every change, and a page is the
// same whichever way it is read (every match, or the code order walked).
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.ts';
import { ListTotals } from '../../server/db/list-totals.ts';
import type { Database, OrganizationType } from '../../server/db/schema.ts';
import { FETCH_ALL_BELOW, isCountedTerm, listOrganizations, nearerEnd, organizationTerm, pageAccess } from '../../server/features/organizations/organizations-list.repository.ts';
import type { OrganizationFilter } from '../../server/features/organizations/organizations.repository.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { capturing } from './support/plans.ts';

const all: OrganizationFilter = { visibility: { kind: 'all' } };

describe('pageAccess', () => {
  const term = organizationTerm('clinique');
  it('takes a page of few matches, or of a scope or a parent, from every match', () => {
    expect(pageAccess({ term, total: FETCH_ALL_BELOW - 1, everyone: 200_000, offset: 0, pageSize: 100, narrow: false })).toBe('fetch');
    expect(pageAccess({ term: organizationTerm('a'), total: 50_000, everyone: 200_000, offset: 0, pageSize: 100, narrow: true })).toBe('fetch');
  });
  it('walks the code order for a common term, and not for a rare short one', () => {
    expect(pageAccess({ term, total: 17_000, everyone: 200_000, offset: 0, pageSize: 100, narrow: false })).toBe('walk');
    expect(pageAccess({ term: organizationTerm('a'), total: 195_000, everyone: 200_000, offset: 0, pageSize: 100, narrow: false })).toBe('walk');
    expect(pageAccess({ term: organizationTerm('zq'), total: 12, everyone: 200_000, offset: 0, pageSize: 100, narrow: false })).toBe('fetch');
  });
  it('reads the total of one to three characters from the counts, unless the code side is another string', () => {
    expect(['a', 'Dé', 'œu', '12', '123', 'ab '].map((search) => isCountedTerm(organizationTerm(search)))).toEqual([true, true, true, true, true, true]);
    expect(['abcd', '1 2', 'œuf'].map((search) => isCountedTerm(organizationTerm(search)))).toEqual([false, false, false]);
  });
  it('walks a page of the second half from the other end', () => {
    expect(nearerEnd(0, 100, 1_000)).toEqual({ offset: 0, limit: 100, reversed: false });
    expect(nearerEnd(900, 100, 1_000)).toEqual({ offset: 0, limit: 100, reversed: true });
    expect(nearerEnd(1_000 - 40, 100, 1_000)).toEqual({ offset: 0, limit: 40, reversed: true });
    expect(nearerEnd(600, 100, 1_000)).toEqual({ offset: 300, limit: 100, reversed: true });
  });
  it('folds the name side and drops the spaces of a code', () => {
    expect(organizationTerm(' Sainte-HÉLÈNE ')).toEqual({ name: 'sainte-helene', code: 'Sainte-HÉLÈNE' });
    expect(organizationTerm('123 456 789')).toEqual({ name: '123 456 789', code: '123456789' });
  });
});

for (const backend of backends) {
  describe(`organizations' search on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;
    let nextCode = 990_000_000;

    beforeAll(async () => {
      t = await createTestDatabase(backend);
      await migrate(t.handle);
      await seedDemoData(t.handle);
      db = t.handle.db;
    }, 60_000);
    afterAll(async () => {
      await t?.dispose();
    });

    const addSiren = async (name: string, target: Kysely<Database> = db) =>
      (await target.insertInto('organizations').values({ code: String(nextCode++), name, type: 'SIREN' }).returning(['id', 'code']).executeTakeFirstOrThrow());

    /** The copy holds every organization as it is, its name folded; the counters sum to the counts. */
    async function expectCopyExact(): Promise<void> {
      const copy = await sql<{ differing: number }>`
        select count(*)::int as differing from organizations o full join organization_search s on s.id = o.id
        where s.id is null or o.id is null or s.code <> o.code or s.name <> search_fold(o.name) or s.type <> o.type
           or s.member <> o.member or s.parent_id is distinct from o.parent_id`.execute(db);
      expect(copy.rows[0]!.differing).toBe(0);
      const counts = await sql<{ differing: number }>`
        with kept as (select type, member, sum(n)::int as n from organization_counts group by 1, 2 having sum(n) <> 0),
             counted as (select type, member, count(*)::int as n from organizations group by 1, 2)
        select count(*)::int as differing from kept full join counted using (type, member) where kept.n is distinct from counted.n`.execute(db);
      expect(counts.rows[0]!.differing).toBe(0);
      const grams = await sql<{ differing: number }>`
        with kept as (select gram, type, member, sum(n)::int as n from organization_gram_counts group by 1, 2, 3 having sum(n) <> 0),
             counted as (select g as gram, o.type, o.member, count(*)::int as n from organizations o
                         cross join lateral search_grams(search_fold(o.name), o.code) g group by 1, 2, 3)
        select count(*)::int as differing from kept full join counted using (gram, type, member) where kept.n is distinct from counted.n`.execute(db);
      expect(grams.rows[0]!.differing).toBe(0);
    }

    /** The ids of a search, counted here over organizations: the name folded (search_fold), the code as typed without spaces. */
    async function expected(search: string, type?: OrganizationType): Promise<string[]> {
      const term = organizationTerm(search);
      const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const { rows } = await sql<{ id: string }>`select id from organizations
        where (search_fold(name) like ${like(term.name)} or code like ${like(term.code)}) and (${type ?? null}::text is null or type = ${type ?? null})
        order by code, id`.execute(db);
      return rows.map((r) => r.id);
    }

    it('finds a name whatever its accents and case, and a code typed with spaces', async () => {
      const helene = await addSiren('Clinique Sainte-Hélène');
      const oeuvre = await addSiren('ŒUVRE des Cœurs Æsthétiques');
      for (const search of ['sainte-helene', 'HELENE', 'Hélène', 'SAINTE-HÉLÈNE', 'clinique sainte-h']) {
        const { items, total } = await listOrganizations(db, { ...all, search }, { page: 1, pageSize: 100 }, new ListTotals());
        expect(items.map((o) => o.id), search).toContain(helene.id);
        expect(total, search).toBe((await expected(search)).length);
      }
      for (const search of ['oeuvre', 'coeurs', 'aesthetiques', 'œuvre des cœurs']) {
        expect((await listOrganizations(db, { ...all, search }, { page: 1, pageSize: 100 })).items.map((o) => o.id), search).toEqual([oeuvre.id]);
      }
      expect((await listOrganizations(db, { ...all, search: 'sainte helene' }, { page: 1, pageSize: 100 })).total).toBe(0);
      const spaced = `${helene.code.slice(0, 3)} ${helene.code.slice(3, 6)} ${helene.code.slice(6)}`;
      expect((await listOrganizations(db, { ...all, search: spaced }, { page: 1, pageSize: 100 })).items.map((o) => o.id)).toEqual([helene.id]);
      await db.deleteFrom('organizations').where('id', 'in', [helene.id, oeuvre.id]).execute();
      await expectCopyExact();
    });

    it('keeps totals exact through inserts, renames, membership changes, deletes and a rolled-back change', async () => {
      const totals = new ListTotals();
      const page = { page: 1, pageSize: 100 };
      const expectTotals = async (label: string) => {
        const everyone = Number((await sql<{ n: number }>`select count(*) as n from organizations`.execute(db)).rows[0]!.n);
        const sirens = Number((await sql<{ n: number }>`select count(*) as n from organizations where type = 'SIREN' and member`.execute(db)).rows[0]!.n);
        expect((await listOrganizations(db, all, page, totals)).total, label).toBe(everyone);
        expect((await listOrganizations(db, { ...all, type: 'SIREN', forNewAccess: true }, page, totals)).total, label).toBe(sirens);
        for (const search of ['heloise', 'clinique', 'e', 'lo', 'ï', '0', 'œ']) {
          const ids = await expected(search);
          const members = await sql<{ id: string }>`select id from organizations where id = any(${await expected(search, 'SIREN')}) and member order by code, id`.execute(db);
          // Twice: the second reads the page's ids the first kept, checked against the organizations' version.
          for (const time of ['first', 'again']) {
            const alone = await listOrganizations(db, { ...all, search }, page, totals);
            expect(alone.total, `${label}: ${search} (${time})`).toBe(ids.length);
            expect(alone.items.map((o) => o.id), `${label}: ${search} (${time})`).toEqual(ids.slice(0, 100));
            const combobox = await listOrganizations(db, { ...all, search, type: 'SIREN', forNewAccess: true }, page, totals);
            expect(combobox.total, `${label}: ${search} (SIREN combobox, ${time})`).toBe(members.rows.length);
            expect(combobox.items.map((o) => o.id), `${label}: ${search} (SIREN combobox, ${time})`).toEqual(members.rows.slice(0, 100).map((r) => r.id));
          }
        }
        await expectCopyExact();
      };
      await expectTotals('at first');
      const first = await addSiren('Clinique Héloïse');
      await expectTotals('after an insert');
      await db.updateTable('organizations').set({ name: 'Centre Héloïse' }).where('id', '=', first.id).execute();
      await expectTotals('after a rename');
      await db.updateTable('organizations').set({ member: false }).where('id', '=', first.id).execute();
      await expectTotals('after leaving the members');
      await db
        .transaction()
        .execute(async (trx) => {
          await addSiren('Clinique Héloïse bis', trx);
          await trx.updateTable('organizations').set({ name: 'Clinique Héloïse ter' }).where('id', '=', first.id).execute();
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await expectTotals('after a rolled-back change');
      await db.deleteFrom('organizations').where('id', '=', first.id).execute();
      await expectTotals('after a delete');
      // A search asked again is one statement: the rows of the kept ids, with the organizations' version.
      const recorder = capturing(db);
      await listOrganizations(recorder.db, { ...all, search: 'clinique', type: 'SIREN', forNewAccess: true }, page, totals);
      expect(recorder.statements.map((st) => st.sql)).toEqual([expect.stringMatching(/from unnest\(\$\d+::uuid\[\]\) as p \(id\)/)]);
    });

    it('folds the counters and versions of connections that are gone into row 0, sums unchanged', async () => {
      const sums = async () =>
        (await sql<{ organizations: number; version: number; grams: number }>`select (select sum(n)::int from organization_counts) as organizations,
           (select sum(version)::int from list_versions where list = 'organizations') as version,
           (select sum(n)::int from organization_gram_counts where gram = 'cli') as grams`.execute(db)).rows[0];
      await sql`insert into organization_counts values (2000000001, 'SIREN', true, 4), (2000000002, 'SIREN', true, -4), (2000000002, 'SIRET', false, 0)`.execute(db);
      await sql`insert into organization_gram_counts values ('cli', 'SIREN', true, 2000000001, 2), ('cli', 'SIREN', true, 2000000002, -2)`.execute(db);
      await sql`insert into list_versions values ('organizations', 2000000001, 3)`.execute(db);
      const before = await sums();
      await sql`select compact_list_totals()`.execute(db);
      expect(await sums()).toEqual(before);
      const left = await sql<{ n: number }>`select (select count(*)::int from organization_counts where backend in (2000000001, 2000000002))
        + (select count(*)::int from organization_gram_counts where backend in (2000000001, 2000000002)) as n`.execute(db);
      expect(left.rows[0]!.n).toBe(0);
      await expectCopyExact();
    });

    it('answers the same pages through every match and through the code order, for every page of common, short and rare terms', async () => {
      for (const search of ['a', 'e', 'clinique', 'ti', '0', 'zz', 'des tilleuls']) {
        const ids = await expected(search);
        for (const type of [undefined, 'SIRET' as const]) {
          const kept = type ? await expected(search, type) : ids;
          for (let p = 1; p <= Math.max(1, Math.ceil(kept.length / 7)); p++) {
            const slice = kept.slice((p - 1) * 7, p * 7);
            for (const forced of ['fetch', 'walk'] as const) {
              const found = await listOrganizations(db, { ...all, search, type }, { page: p, pageSize: 7 }, null, forced);
              expect(found.items.map((o) => o.id), `${search} ${type ?? ''} page ${p} (${forced})`).toEqual(slice);
              expect(found.total).toBe(kept.length);
            }
          }
        }
      }
    });
  });
}
