// Issue 20: a search within a role (the users list's 'Rôle' filter) is found as a search alone once every user's roles
// are on their search rows and words (migration 0040): the same users as the rule says (a substring of the
// name or the e-mail, case and accents ignored, among the holders of the role in any organization), exact totals from
// the counts within roles, through every write of roles and users; before its backfill is through, found the list's way.
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
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
import { compactListTotals, ListTotals } from '../../server/db/list-totals.ts';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';

const base: UserListQuery = { page: 1, pageSize: 2, includeInactive: true, sort: 'name', order: 'asc', scope: null, pendingReach: null };

const PEOPLE = [
  { first: 'Hélène', last: 'Lefèvre', email: 'helene.lefevre@exemple-test.fr', roles: ['GESTIONNAIRE', 'COMPTABLE'] },
  { first: 'Noël', last: 'Œillet', email: 'noel.oeillet@exemple-test.fr', roles: ['COMPTABLE'] },
  { first: 'Zoé', last: 'Lefebvre', email: 'Z.Lefebvre@Exemple-Test.fr', roles: ['GESTIONNAIRE', 'GESTIONNAIRE'] },
  { first: 'Ægidius', last: 'Straße', email: 'aegidius.lefevre@exemple-test.fr', roles: ['GESTIONNAIRE'] },
  { first: 'Françoise', last: 'Lefèvre-Dürr', email: 'francoise.durr@exemple-test.fr', roles: ['COMPTABLE', 'GESTIONNAIRE'], active: false },
  { first: 'Léa', last: 'Lefèvre', email: 'lea.lefevre2@autre-test.fr', roles: [] as string[] },
];

// Short strings (their totals from the counts within roles), words, phrases, an address, no match.
const TERMS = ['e', 'l', 'le', 'lef', 'œ', 'oe', 'lefevre', 'LEFÈVRE', 'lefe', 'exemple', 'ne lef', 'lefevre@', '@exemple-test', 'lefevre@exemple', 'durr', 'qzx', 'qzxw'];
const ROLES = ['GESTIONNAIRE', 'COMPTABLE', 'ADMIN_ADHERENT', 'CABINET_COMPTABLE'];

for (const backend of backends) {
  describe(`the users' search within a role on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;
    let organizations: string[];

    beforeAll(async () => {
      t = await createTestDatabase(backend);
      await migrate(t.handle);
      await seedDemoData(t.handle);
      db = t.handle.db;
      const f = fixtures(db);
      organizations = [(await f.organization('Clinique des Tilleuls')).id, (await f.organization('IME Les Peupliers')).id];
      for (const person of PEOPLE) {
        const [first, ...others] = person.roles;
        const { id } = await f.user({ organizationId: organizations[0]!, roleCode: first ?? 'ADHESION', email: person.email, active: person.active ?? true });
        await db.updateTable('users').set({ first_name: person.first, last_name: person.last }).where('id', '=', id).execute();
        if (!first) await db.deleteFrom('role_assignments').where('user_id', '=', id).execute();
        for (const [i, code] of others.entries()) await grant(id, code, organizations[(i + 1) % 2]!);
      }
    }, 60_000);

    afterAll(async () => {
      await t?.dispose();
    });

    async function grant(userId: string, code: string, organizationId: string) {
      const role = await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow();
      return (await db.insertInto('role_assignments').values({ user_id: userId, organization_id: organizationId, role_id: role.id }).returning('id').executeTakeFirstOrThrow()).id;
    }

    /** The users a term finds within a role by the rule, folded here in TypeScript: the ids in the list's order. */
    const expected = (term: string, query: Pick<UserListQuery, 'includeInactive' | 'sort' | 'order' | 'roleCode'>) => expectedSearch(db, term, query);

    /**
     * Every term within every role, as the rule says: `thorough`, each way of finding a page, then a first and a later
     * page in every order from kept outlooks; else the first page of each list and a later one in another order.
     */
    async function expectSameMeaning(terms: readonly string[] = TERMS, thorough = false) {
      const totals = new ListTotals();
      for (const term of terms) {
        for (const roleCode of ROLES) {
          for (const includeInactive of [true, false]) {
            const want = await expected(term, { includeInactive, sort: 'name', order: 'asc', roleCode });
            for (const searchAccess of thorough && includeInactive ? (['walk', 'fetch', 'words', undefined] as const) : [undefined]) {
              const found = await listUsersPage(db, { ...base, pageSize: 100, includeInactive, roleCode, search: term }, null, { searchAccess });
              const label = `${term} ${roleCode} ${includeInactive} ${searchAccess}`;
              expect(found.total, label).toBe(want.length);
              expect(found.rows.map((r) => r.id), label).toEqual(want);
            }
          }
          const orders = thorough ? (['name', 'email', 'lastLogin'] as const).flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order }))) : [{ sort: 'email', order: 'desc' } as const];
          for (const { sort, order } of orders) {
            const want = await expected(term, { includeInactive: true, sort, order, roleCode });
            for (const page of thorough ? [1, 3] : [2]) {
              const found = await listUsersPage(db, { ...base, roleCode, search: term, sort, order, page }, totals);
              const label = `${term} ${roleCode} ${sort} ${order} page ${page}`;
              expect(found.total, label).toBe(want.length);
              expect(found.rows.map((r) => r.id), label).toEqual(want.slice((page - 1) * 2, page * 2));
            }
          }
        }
      }
    }

    it('finds within a role exactly the holders of that role the term finds, in every order and page, from the counts within roles', async () => {
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      await expectSameMeaning(TERMS, true);
      // Found as a search alone: a short string's total from the counts within roles, a word's holders from its counts there;
      // never the list's own count of every holder of the role.
      for (const [term, table] of [['le', 'user_search_gram_role_counts'], ['lefevre', 'user_search_word_role_counts']] as const) {
        const recorder = capturing(db);
        await listUsersPage(recorder.db, { ...base, search: term, roleCode: 'GESTIONNAIRE' });
        expect(recorder.statements.some((st) => st.sql.includes(table)), term).toBe(true);
        expect(recorder.statements.some((st) => st.sql.includes('"roles" as "fr"')), term).toBe(false);
      }
      // A code no role has: nobody.
      expect(await listUsersPage(db, { ...base, search: 'e', roleCode: 'INCONNU' })).toMatchObject({ total: 0, rows: [] });
    });

    it('keeps the roles and the counts within roles exact through grants, removals, moves, renames, deactivations, deletes and a rolled back grant', async () => {
      const f = fixtures(db);
      const { id } = await f.user({ organizationId: organizations[0]!, roleCode: 'COMPTABLE', email: 'zoltan.lefevre@exemple-test.fr' });
      const terms = ['le', 'lefevre', 'zoltan', 'z', 'exemple'];
      const check = async (label: string) => {
        expect(await keptCopiesDiffering(db), label).toEqual(EXACT);
        await expectSameMeaning(terms);
      };
      await check('created');
      const second = await grant(id, 'GESTIONNAIRE', organizations[1]!);
      await grant(id, 'GESTIONNAIRE', organizations[0]!);
      await check('the same role in two organizations');
      await db.deleteFrom('role_assignments').where('id', '=', second).execute();
      await check('one of the two removed: the role still held');
      await db.updateTable('role_assignments').set({ role_id: (await db.selectFrom('roles').select('id').where('code', '=', 'CABINET_COMPTABLE').executeTakeFirstOrThrow()).id }).where('user_id', '=', id).where('role_id', '=', (await db.selectFrom('roles').select('id').where('code', '=', 'COMPTABLE').executeTakeFirstOrThrow()).id).execute();
      await check('a role moved to another');
      await db.updateTable('users').set({ first_name: 'Ødile', last_name: 'Zébulon', email: 'odile.zebulon@exemple-test.fr' }).where('id', '=', id).execute();
      await check('renamed');
      await db.updateTable('users').set({ is_active: false }).where('id', '=', id).execute();
      await check('deactivated');
      await db
        .transaction()
        .execute(async (trx) => {
          const role = await trx.selectFrom('roles').select('id').where('code', '=', 'ADMIN_ADHERENT').executeTakeFirstOrThrow();
          await trx.insertInto('role_assignments').values({ user_id: id, organization_id: organizations[0]!, role_id: role.id }).execute();
          throw new Error('rollback');
        })
        .catch(() => undefined);
      await check('a grant rolled back');
      await db.deleteFrom('role_assignments').where('user_id', '=', id).execute();
      await check('every role removed');
      await grant(id, 'COMPTABLE', organizations[0]!);
      await db.deleteFrom('users').where('id', '=', id).execute();
      await check('deleted');
      // Nobody holds the words of that person any more: their texts left the counts within roles too.
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from user_search_word_role_counts where word in ('zebulon', 'odile', 'zoltan')`.execute(db);
      expect(rows[0]!.n).toBe(0);
    });

    it('forgets at compaction a word nobody holds whose rows within a role were left, inactive ones alone included', async () => {
      // As a connection still there leaves them: rows summing to nought, of the inactive holders only (a deactivation writes no other).
      await sql`insert into user_search_word_role_counts (word, role_id, inactive_only, backend, n)
        values ('personne partie@', 1, true, pg_backend_pid(), 0), ('partie', 2, true, pg_backend_pid(), 1), ('partie', 2, true, 0, -1)`.execute(db);
      await compactListTotals(db);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from user_search_word_role_counts where word in ('personne partie@', 'partie')`.execute(db);
      expect(rows[0]!.n).toBe(0);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
    });

    it('counts within a role as the list does while the backfill writes the roles of the users there before migration 0040, then reads them exact', async () => {
      // The roles as migration 0040 finds them: none on any row (the counts within roles follow them out).
      await sql`update user_search set roles = '{}' where roles <> '{}'`.execute(db);
      await sql`update user_search_roles_backfill set after_id = null, done = false`.execute(db);
      const { rows: left } = await sql<{ n: number }>`select (select count(*) from user_search_word_role_counts where n <> 0) + (select count(*) from user_search_gram_role_counts where n <> 0) as n`.execute(db);
      expect(Number(left[0]!.n)).toBe(0);
      const recorder = capturing(db);
      await listUsersPage(recorder.db, { ...base, search: 'le', roleCode: 'GESTIONNAIRE' });
      expect(recorder.statements.some((st) => st.sql.includes('user_search_gram_role_counts'))).toBe(false);
      expect(recorder.statements.some((st) => st.sql.includes('"roles" as "fr"'))).toBe(true);
      await expectSameMeaning(['le', 'lefevre', 'lefevre@exemple', 'qzx']);

      const job = searchBackfillJob({ db, batchSize: 3 });
      const signal = new AbortController().signal;
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      // A grant during the backfill is written by the triggers, once.
      const { id } = await fixtures(db).user({ organizationId: organizations[0]!, roleCode: 'GESTIONNAIRE', email: 'pendant.le-rattrapage@exemple-test.fr' });
      await grant(id, 'COMPTABLE', organizations[1]!);
      expect(await job.run({ now: new Date(), signal, log })).toMatchObject({ done: 1 });
      expect((await db.selectFrom('user_search_roles_backfill').select(['done']).executeTakeFirstOrThrow()).done).toBe(true);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      await expectSameMeaning(['le', 'lefevre', 'lefevre@exemple', 'rattrapage', 'qzx']);
      expect(await job.run({ now: new Date(), signal, log })).toEqual({ batches: 0, done: 1 });
    });

    it.runIf(backend.name === 'postgres')('writes both roles of two grants to one person committed at once', async () => {
      const { id } = await fixtures(db).user({ organizationId: organizations[0]!, roleCode: 'ADHESION', email: 'deux.roles@exemple-test.fr' });
      const roles = await db.selectFrom('roles').select(['id', 'code']).where('code', 'in', ['COMPTABLE', 'GESTIONNAIRE']).execute();
      const [a, b] = [new pg.Client({ connectionString: t.url }), new pg.Client({ connectionString: t.url })];
      await a.connect();
      await b.connect();
      try {
        await a.query('begin');
        await b.query('begin');
        await a.query('insert into role_assignments (user_id, organization_id, role_id) values ($1, $2, $3)', [id, organizations[0], roles[0]!.id]);
        const waited = (await b.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        const second = b.query('insert into role_assignments (user_id, organization_id, role_id) values ($1, $2, $3)', [id, organizations[1], roles[1]!.id]);
        // The second grant waits for the first (the person's search row): then reads both roles in a new snapshot.
        for (let waiting = false; !waiting; ) {
          const { rows } = await a.query<{ lock: boolean }>(`select coalesce((select wait_event_type = 'Lock' from pg_stat_activity where pid = $1), false) as lock`, [waited]);
          waiting = rows[0]!.lock;
        }
        await a.query('commit');
        await second;
        await b.query('commit');
      } finally {
        await a.end();
        await b.end();
      }
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      await expectSameMeaning(['deux', 'de']);
    });
  });
}
