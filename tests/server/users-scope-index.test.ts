// An organization caller's users list finds each user of their reach, and its sort key, from one index alone
// (migration 0038): no user's row is read but the page's own; and its statements are planned once per connection
// (server/db/unseen.ts: the reach unseen by the planner), on both backends.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.ts';
import { listUsersPage } from '../../server/features/users/users-list.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { capturing, keptPlanRuns } from './support/plans.ts';

for (const backend of backends) {
  describe(`an organization caller's users list, on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
      await sql`vacuum analyze users`.execute(db());
      await sql`vacuum analyze role_assignments`.execute(db());
    }, 120_000);
    afterAll(() => testDb?.dispose());

    it.each(['name', 'email', 'lastLogin'] as const)("reads the reach's users from users_id_name_type_idx alone, sorted by %s", async (sort) => {
      const clinic = await db().selectFrom('organizations').select('id').where('type', '=', 'SIREN').orderBy('code').executeTakeFirstOrThrow();
      const { db: recording, statements } = capturing(db());
      const query = { page: 1, pageSize: 10, includeInactive: true, sort, order: 'asc' as const, pendingReach: null, scope: { organizationIds: new Set([clinic.id]), parentIds: new Set<string>() } };
      await listUsersPage(recording, query);
      const page = statements.find((s) => /from \(select "users"\."id"/.test(s.sql));
      expect(page, statements.map((s) => s.sql).join('\n')).toBeDefined();
      const plan = await testDb.handle.withRawTransaction(async (tx) => {
        await tx.exec('set local enable_seqscan = off');
        return (await tx.query<{ 'QUERY PLAN': string }>(`explain ${page!.sql}`, page!.parameters)).map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index Only Scan using users_id_name_type_idx/);
    });

    it('keeps one plan for the page of any reach', async () => {
      const clinic = await db().selectFrom('organizations').select('id').where('type', '=', 'SIREN').orderBy('code').executeTakeFirstOrThrow();
      const role = await db().selectFrom('roles').select('id').orderBy('code').executeTakeFirstOrThrow();
      // Enough people, spread over the organizations and analyzed, for the planner to tell one reach from any reach,
      // and their roles. Only the users' and assignments' rows matter to this plan: they are written without their
      // triggers (session_replication_role), which would write 20,000 people's search rows, words and counts for
      // nothing (tens of seconds on a slow machine); the database is thrown away after this test.
      await testDb.handle.exec(`begin;
        set local session_replication_role = replica;
        insert into users (email, first_name, last_name, user_type) select 'portee' || i || '@exemple.fr', 'Prénom' || i, 'Nom' || i, 'ORGANIZATION' from generate_series(1, 20000) as i;
        insert into role_assignments (user_id, organization_id, role_id, inherits_to_children)
          select u.id, o.id, ${Number(role.id)}, false from (select id, row_number() over (order by id) as n from users where email like 'portee%') u
          join (select id, row_number() over (order by id) - 1 as k, count(*) over () as m from organizations) o on o.k = u.n % o.m;
        commit`);
      await sql`analyze users`.execute(db());
      await sql`analyze role_assignments`.execute(db());
      const { db: recording, statements } = capturing(db());
      const reach = { organizationIds: new Set([clinic.id]), parentIds: new Set<string>() };
      await listUsersPage(recording, { page: 1, pageSize: 10, includeInactive: true, sort: 'name', order: 'asc', pendingReach: reach.organizationIds, scope: reach });
      const page = statements.find((s) => /from \(select "users"\."id"/.test(s.sql))!;
      const generic = await keptPlanRuns(testDb.handle, page);
      expect(generic).toBeGreaterThan(0);
    });
  });
}
