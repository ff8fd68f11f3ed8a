// The journal's statements that every page runs, or every search by an address, are planned once per connection:
// PostgreSQL keeps one plan for any values (a generic plan) rather than planning each page again, because its plan
// for the values sent is never estimated cheaper (journal-lookups.repository.ts PLANNED_LIST_LENGTH, journal-search.
// repository.ts `given`). Both backends.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/schema.ts';
import { journalPageIds, type JournalWhere } from '../../../server/features/audit/audit-list.repository.ts';
import { journalLookupRows } from '../../../server/features/audit/journal-lookups.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from '../db/test-databases.ts';

/** A value written as SQL, as PREPARE's EXECUTE takes it. */
function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `'{${value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/["\\]/g, '\\$&').replaceAll("'", "''")}"`)).join(',')}}'`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

for (const backend of backends) {
  describe(`the journal's statements planned once, on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
      // Enough people and entries, analyzed, for the planner's estimates to tell a few values from any values.
      await sql`insert into users (email, first_name, last_name, user_type)
        select 'personne' || i || '@exemple' || (i % 50) || '.fr', 'Prénom' || i, 'Nom' || i, 'ORGANIZATION' from generate_series(1, 20000) as i`.execute(db());
      await sql`insert into audit_log (actor_email, action, entity_type, entity_id, changes, search_text)
        select 'ops@exemple.fr', 'user.update', 'user', 'x' || i, '{}'::jsonb, 'ops@exemple.fr personne' || i || '@exemple' || (i % 50) || '.fr'
        from generate_series(1, 20000) as i`.execute(db());
      await sql`analyze users`.execute(db());
      await sql`analyze audit_log`.execute(db());
    }, 180_000);
    afterAll(() => testDb?.dispose());

    /** How many of ten runs of the statement, prepared, used the plan kept for any values. */
    async function genericRuns(statement: { sql: string; parameters: readonly unknown[] }): Promise<number> {
      return testDb.handle.withRawTransaction(async (tx) => {
        await tx.exec(`prepare kept as ${statement.sql}`);
        for (let run = 0; run < 10; run++) await tx.query(`execute kept(${statement.parameters.map(literal).join(', ')})`);
        const rows = await tx.query<{ n: number }>(`select generic_plans::int as n from pg_prepared_statements where name = 'kept'`);
        await tx.exec('deallocate kept');
        return Number(rows[0]!.n);
      });
    }

    it("keeps one plan for a page's lookups, whatever few users, requests and organizations it names", async () => {
      const user = await db().selectFrom('users').select('id').orderBy('email').executeTakeFirstOrThrow();
      const statements: { sql: string; parameters: readonly unknown[] }[] = [];
      const capturing: Kysely<Database> = db().withPlugin({
        transformQuery: (args) => (statements.push(capturing.getExecutor().compileQuery(args.node, args.queryId)), args.node),
        transformResult: async (args) => args.result,
      });
      const found = await journalLookupRows(capturing, { userIds: [user.id], invitationIds: [], organizationIds: [], organizationCodes: [], entriesOf: [], assignments: false });
      expect(found.users.map((u) => u.id)).toEqual([user.id]);
      expect(await genericRuns(statements[0]!)).toBeGreaterThan(0);
    });

    it('keeps one plan for a page of a search by an address', async () => {
      const where: JournalWhere = { scope: null, search: 'personne123@exemple23.fr' };
      const { sql: text, parameters } = db().selectFrom(journalPageIds(db(), where, { page: 1, pageSize: 10 }, { gather: true }).as('p')).selectAll().compile();
      expect(await genericRuns({ sql: text, parameters })).toBeGreaterThan(0);
    });
  });
}
