// Migration 0004 (issue 8): the counters of the unfiltered lists, the list versions behind kept totals,
// and the name ranges behind deep pages stay exact through every kind of change.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../server/db/migrate.ts';
import { seedDemoData } from '../../../server/seed/seed.ts';
import { exactTotal, ListTotals } from '../../../server/db/list-totals.ts';
import { listInvitations } from '../../../server/features/invitations/invitations.repository.ts';
import { listUsersPage, type UserListQuery } from '../../../server/features/users/users-list.repository.ts';
import type { Database } from '../../../server/db/schema.ts';
import { fixtures } from '../support/fixtures.ts';
import { StatementCounter } from '../support/statement-counter.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';
import { withoutTriggers } from '../support/without-triggers.ts';

const base: UserListQuery = { page: 1, pageSize: 10, includeInactive: true, sort: 'name', order: 'asc', scope: null, pendingReach: null };

for (const backend of backends) {
  describe(`list totals and name ranges on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;

    beforeAll(async () => {
      t = await createTestDatabase(backend);
      await migrate(t.handle);
      await seedDemoData(t.handle);
      db = t.handle.db;
    }, 60_000);

    afterAll(async () => {
      await t?.dispose();
    });

    const counted = async () => {
      const { rows } = await sql<{ kind: string; counted: number; kept: number }>`
        select 'users ' || is_active as kind, count(*)::int as counted,
               (select coalesce(sum(n), 0)::int from user_counts c where c.is_active = u.is_active) as kept
        from users u group by is_active
        union all
        select 'invitations ' || status, count(*)::int, (select coalesce(sum(n), 0)::int from invitation_counts c where c.status = i.status)
        from invitations i group by status`.execute(db);
      return rows;
    };
    const expectCountersExact = async () => {
      for (const row of await counted()) expect(row.kept, row.kind).toBe(row.counted);
      // The search copy holds every user, as they are, folded (migration 0019), and its counts of short strings are theirs.
      const { rows } = await sql<{ differing: number }>`
        select count(*)::int as differing from users u full join user_search s on s.id = u.id
        where s.id is null or u.id is null or s.is_active <> u.is_active or not s.folded
           or s.name <> search_fold(u.first_name || ' ' || u.last_name) or s.email <> search_fold(u.email)
           or s.name_key <> lower(u.last_name || u.first_name) or s.email_key <> lower(u.email) or s.last_login_at is distinct from u.last_login_at`.execute(db);
      expect(rows[0]!.differing).toBe(0);
      const grams = await sql<{ differing: number }>`
        with kept as (select gram, inactive_only, sum(n)::int as n from user_search_gram_counts group by 1, 2 having sum(n) <> 0),
             counted as (select g as gram, k.inactive_only, count(*)::int as n from user_search s cross join lateral search_grams(s.name, s.email) g
                         cross join (values (false), (true)) as k (inactive_only) where not k.inactive_only or not s.is_active group by 1, 2)
        select count(*)::int as differing from kept full join counted using (gram, inactive_only) where kept.n is distinct from counted.n`.execute(db);
      expect(grams.rows[0]!.differing).toBe(0);
    };

    it('keeps the totals of users and invitations through inserts, changes of status and deletes', async () => {
      await expectCountersExact();
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      const a = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE' });
      const b = await f.user({ organizationId: clinique.id, roleCode: 'COMPTABLE', active: false });
      await db.updateTable('users').set({ is_active: false }).where('id', '=', a.id).execute();
      await db.updateTable('users').set({ is_active: false }).where('id', '=', a.id).execute();
      await db.updateTable('users').set({ first_name: 'Renommé', email: `Renomme.${b.id.slice(0, 8)}@Exemple-Test.fr` }).where('id', '=', b.id).execute();
      const invitation = await f.pendingInvitation({ sirenId: clinique.id });
      await db.updateTable('invitations').set({ status: 'REJECTED', rejection_reason: 'Motif de test suffisant.', processed_at: sql`now()`, validator_email: 'backoffice@portail.test' }).where('id', '=', invitation.id).execute();
      await expectCountersExact();
      await db.deleteFrom('invitations').where('id', '=', invitation.id).execute();
      await db.deleteFrom('users').where('id', 'in', [a.id, b.id]).execute();
      await expectCountersExact();
      // A rolled back change leaves them as they were.
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ is_active: false }).where('email', '=', 'lecteur@portail.test').execute();
          throw new Error('rollback');
        })
        .catch(() => undefined);
      await expectCountersExact();
    });

    it('answers the unfiltered totals from the counters, less the caller when left out', async () => {
      const all = Number((await sql<{ n: number }>`select count(*) as n from users`.execute(db)).rows[0]!.n);
      const active = Number((await sql<{ n: number }>`select count(*) as n from users where is_active`.execute(db)).rows[0]!.n);
      expect((await listUsersPage(db, base)).total).toBe(all);
      expect((await listUsersPage(db, { ...base, includeInactive: false })).total).toBe(active);
      const self = (await db.selectFrom('users').select('id').where('email', '=', 'lecteur@portail.test').executeTakeFirstOrThrow()).id;
      expect((await listUsersPage(db, { ...base, includeInactive: false, excludeUserId: self })).total).toBe(active - 1);
      const pending = Number((await sql<{ n: number }>`select count(*) as n from invitations where status = 'PENDING'`.execute(db)).rows[0]!.n);
      expect((await listInvitations(db, { statuses: ['PENDING'], sort: 'createdAt', order: 'desc', page: 1, pageSize: 10 })).total).toBe(pending);
    });

    it('keeps a filtered total while the list version stays, and counts again once a change moved it', async () => {
      const totals = new ListTotals();
      // A term whose total is counted apart from its page (a search of over 20,000 matches: users-search.repository.ts).
      const kept = { searchAccess: 'fetch' } as const;
      const search = { ...base, search: 'clinique' };
      const first = (await listUsersPage(db, search, totals, kept)).total;
      expect(totals.size).toBe(1);
      expect((await listUsersPage(db, { ...search, page: 2 }, totals, kept)).total).toBe(first);

      // A row written with the triggers off (superuser) does not move the version: the kept total is answered.
      const hidden = randomUUID();
      await withoutTriggers(t.handle, `insert into users (id, email, first_name, last_name, user_type) values ($1, $2, 'Caché', 'Sans Déclencheur', 'ORGANIZATION')`, [hidden, `cache.${hidden.slice(0, 8)}@clinique-test.fr`]);
      expect((await listUsersPage(db, search, totals, kept)).total).toBe(first);
      await withoutTriggers(t.handle, 'delete from users where id = $1', [hidden]);
      expect((await listUsersPage(db, search, totals, kept)).total).toBe(first);

      // Any change of what the total counts moves the version.
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      const added = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE', email: `nouveau.${randomUUID().slice(0, 8)}@clinique-test.fr` });
      expect((await listUsersPage(db, search, totals, kept)).total).toBe(first + 1);
      const byOrganization = { ...base, organization: { id: clinique.id, code: clinique.code, name: clinique.name, type: 'SIREN' as const, parentCode: null, parentId: null, member: true, closed: false } };
      const held = (await listUsersPage(db, byOrganization, totals)).total;
      await db.deleteFrom('role_assignments').where('user_id', '=', added.id).execute();
      expect((await listUsersPage(db, byOrganization, totals)).total).toBe(held - 1);
      await db.deleteFrom('users').where('id', '=', added.id).execute();
      expect((await listUsersPage(db, search, totals, kept)).total).toBe(first);

      const invitations = { statuses: [] as [], search: 'clinique', sort: 'id' as const, order: 'asc' as const, page: 1, pageSize: 10 };
      const before = (await listInvitations(db, invitations, totals)).total;
      await f.pendingInvitation({ sirenId: clinique.id, inviteeEmail: `demande.${randomUUID().slice(0, 8)}@clinique-test.fr` });
      expect((await listInvitations(db, invitations, totals)).total).toBe(before + 1);
    });

    it('counts once for requests of the same total that arrive while it is being counted, and a failed count is not shared afterwards', async () => {
      const totals = new ListTotals();
      const counter = new StatementCounter();
      const counted = db.withPlugin(counter);
      const count = () => counted.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('total')).where('last_name', 'like', 'Sans%');
      const statements = await counter.during(() => Promise.all(Array.from({ length: 8 }, () => exactTotal(counted, 'users', count(), totals))));
      expect(statements).toBe(1);
      const [a, b] = await Promise.all([exactTotal(counted, 'users', count(), totals), exactTotal(counted, 'users', count(), totals)]);
      expect(a).toBe(b);
      // A failed count is not shared with later requests: they count again (here, once the division has a divisor).
      const flag = `drapeau.${randomUUID().slice(0, 8)}@exemple.fr`;
      const failing = () => counted.selectFrom('users').select(sql<number>`count(*) / (select count(*) from users where email = ${flag})`.as('total'));
      await expect(Promise.all([exactTotal(counted, 'users', failing(), totals), exactTotal(counted, 'users', failing(), totals)])).rejects.toThrow();
      await db.insertInto('users').values({ email: flag, first_name: 'Drapeau', last_name: 'Levé', user_type: 'ORGANIZATION' }).execute();
      expect(await exactTotal(counted, 'users', failing(), totals)).toBeGreaterThan(0);
      await db.deleteFrom('users').where('email', '=', flag).execute();
    });

    it('counts without keeping anything when given no ListTotals', async () => {
      const count = db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('total')).where('first_name', '=', 'Claire');
      const direct = Number((await count.executeTakeFirstOrThrow()).total);
      expect(await exactTotal(db, 'users', count, null)).toBe(direct);
    });

    it('folds the rows of connections that are gone into row 0, totals unchanged', async () => {
      const sums = async () =>
        (await sql<{ users: number; invitations: number; version: number }>`
          select (select sum(n)::int from user_counts) as users, (select sum(n)::int from invitation_counts) as invitations,
                 (select sum(version)::int from list_versions) as version`.execute(db)).rows[0];
      // Two gone connections whose changes cancel out (as a user made by one and deleted by the other).
      await sql`insert into user_counts values (2000000001, true, 5), (2000000002, true, -5)`.execute(db);
      await sql`insert into list_versions values ('users', 2000000001, 7)`.execute(db);
      const before = await sums();
      await sql`select compact_list_totals()`.execute(db);
      expect(await sums()).toEqual(before);
      const left = await sql<{ n: number }>`select count(*)::int as n from user_counts where backend in (2000000001, 2000000002)`.execute(db);
      expect(left.rows[0]!.n).toBe(0);
      await expectCountersExact();
    });

    it("finds an address holding an '@' as the plain substring search does, several '@' and wildcards included", async () => {
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      const odd = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE', email: 'Jean_Pierre%X@Service@clinique-test.fr' });
      const searches = [
        'admin.clinique@portail.test', 'ADMIN.CLINIQUE@PORTAIL.TEST', 'clinique@portail', 'n.clinique@portail.te', '@portail.test', 'portail.test@',
        'e@s', 'pierre%x@service@clinique', 'x@service', 'jean_pierre%x@', '_pierre%X@Serv', '%@%', 'a_@p', 'nobody@nowhere.fr', '@', '@@',
      ];
      for (const search of searches) {
        const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const expected = await sql<{ id: string }>`select id from users
          where lower(first_name || ' ' || last_name) like lower(${pattern}) or lower(email) like lower(${pattern}) order by id`.execute(db);
        const found = await listUsersPage(db, { ...base, search, pageSize: 100 });
        expect(found.total, search).toBe(expected.rows.length);
        if (expected.rows.length <= 100) expect(found.rows.map((r) => r.id).sort(), search).toEqual(expected.rows.map((r) => r.id).sort());
      }
      await db.deleteFrom('users').where('id', '=', odd.id).execute();
    });

    describe('deep pages through the name ranges', () => {
      const idsOf = async (query: UserListQuery, rangesFromOffset: number) => (await listUsersPage(db, query, null, { rangesFromOffset })).rows.map((r) => r.id);

      /** Every page in both orders, with and without inactive users: through the ranges as through plain offsets. */
      async function expectSamePages(): Promise<void> {
        for (const includeInactive of [true, false]) {
          for (const order of ['asc', 'desc'] as const) {
            const total = (await listUsersPage(db, { ...base, includeInactive, order })).total;
            for (let page = 1; page <= Math.ceil(total / 7) + 1; page += 1) {
              const query = { ...base, includeInactive, order, page, pageSize: 7 };
              expect(await idsOf(query, 0), `${order} page ${page} ${includeInactive ? 'with' : 'without'} inactive users`).toEqual(await idsOf(query, Number.MAX_SAFE_INTEGER));
            }
          }
        }
      }

      const rangeSizes = async () =>
        (await sql<{ ranges: number; users: number; held: number }>`
          select (select count(*)::int from user_name_ranges) as ranges, (select count(*)::int from users) as users,
                 (select sum(n_active + n_inactive)::int from user_name_ranges) as held`.execute(db)).rows[0]!;

      it('cuts the order into ranges whose sizes add up to every user', async () => {
        await sql`select rebuild_user_name_ranges(17)`.execute(db);
        const sizes = await rangeSizes();
        expect(sizes.ranges).toBe(Math.ceil(sizes.users / 17));
        expect(sizes.held).toBe(sizes.users);
        await expectSamePages();
      });

      it('stays exact through inserts, renames across ranges, deactivations and deletes', async () => {
        await sql`select rebuild_user_name_ranges(13)`.execute(db);
        const f = fixtures(db);
        const clinique = await f.organization('Clinique des Tilleuls');
        const made = [];
        for (const lastName of ['Aaron', 'Martin', 'Zylberstein', 'Martin']) {
          const user = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE' });
          await db.updateTable('users').set({ last_name: lastName }).where('id', '=', user.id).execute();
          made.push(user.id);
        }
        await db.updateTable('users').set({ last_name: 'Abadie' }).where('id', '=', made[2]!).execute();
        await db.updateTable('users').set({ is_active: false, first_name: 'Zoé' }).where('id', '=', made[1]!).execute();
        await db.updateTable('users').set({ is_active: false }).where('email', '=', 'lecteur@portail.test').execute();
        await expectSamePages();
        await db.deleteFrom('users').where('id', 'in', [made[0]!, made[3]!]).execute();
        await db.updateTable('users').set({ is_active: true }).where('email', '=', 'lecteur@portail.test').execute();
        await expectSamePages();
        expect((await rangeSizes()).held).toBe((await rangeSizes()).users);
        await db.deleteFrom('users').where('id', 'in', made).execute();
      });

      it('cuts them again at start-up only when one has grown past 4 times the size', async () => {
        await sql`select rebuild_user_name_ranges()`.execute(db);
        const balanced = await sql<{ rebuilt: boolean }>`select balance_user_name_ranges() as rebuilt`.execute(db);
        expect(balanced.rows[0]!.rebuilt).toBe(false);
        // One range holding everyone, as after a long growth.
        await sql`update user_name_ranges set n_active = n_active + 5000`.execute(db);
        const grown = await sql<{ rebuilt: boolean }>`select balance_user_name_ranges() as rebuilt`.execute(db);
        expect(grown.rows[0]!.rebuilt).toBe(true);
        const sizes = await rangeSizes();
        expect(sizes.held).toBe(sizes.users);
      });
    });
  });
}
