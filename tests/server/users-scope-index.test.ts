// An organization caller's users list finds each user of their reach, and its sort key, from one index alone
// (migration 0038): no user's row is read but the page's own, on both backends.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.ts';
import { listUsersPage } from '../../server/features/users/users-list.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './db/test-databases.ts';

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
      const statements: { sql: string; parameters: readonly unknown[] }[] = [];
      const capturing: Kysely<Database> = db().withPlugin({
        transformQuery: (args) => (statements.push(capturing.getExecutor().compileQuery(args.node, args.queryId)), args.node),
        transformResult: async (args) => args.result,
      });
      const query = { page: 1, pageSize: 10, includeInactive: true, sort, order: 'asc' as const, pendingReach: null, scope: { organizationIds: new Set([clinic.id]), parentIds: new Set<string>() } };
      await listUsersPage(capturing, query);
      const page = statements.find((s) => /from \(select "users"\."id"/.test(s.sql));
      expect(page, statements.map((s) => s.sql).join('\n')).toBeDefined();
      const plan = await testDb.handle.withRawTransaction(async (tx) => {
        await tx.exec('set local enable_seqscan = off');
        return (await tx.query<{ 'QUERY PLAN': string }>(`explain ${page!.sql}`, page!.parameters as unknown[])).map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index Only Scan using users_id_name_type_idx/);
    });
  });
}
