// The plans of the users' search. A search by an address (an '@' with text on both sides) is read from the e-mail parts
// index and, for the addresses holding several '@', from their partial index (migration 0004): never from the e-mails'
// trigrams, whose entries for a long address's every trigram cost 12 ms at a million users, where the planner chose
// them over the partial index (users-search-term.repository.ts oneForm). The words a term is in are found with one plan
// for any term (users-search-words.repository.ts heldWords), and an address's with one plan for any address. Both
// backends.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.ts';
import { searchCondition } from '../../server/features/users/users-search-term.repository.ts';
import { heldWords } from '../../server/features/users/users-search-words.repository.ts';
import { searchTerm } from '../../server/features/users/users-search.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { PREPARE_ANYWAY } from '../../server/db/database.ts';
import { capturing, keptPlan, keptPlanRuns } from './support/plans.ts';

class Undone extends Error {}

for (const backend of backends) {
  describe(`the plans of a users' search, on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
      await testDb.handle.exec(`insert into users (email, first_name, last_name, user_type)
        select 'prenom' || i || '.nom' || (i % 30) || '@orange' || (i % 3) || '.fr', 'Prénom' || i, 'Nom' || (i % 30), 'ORGANIZATION' from generate_series(1, 300) as i`);
      await sql`analyze user_search`.execute(db());
    }, 120_000);
    afterAll(() => testDb?.dispose());

    const query = () =>
      db().selectFrom('user_search as s').select('s.id').where(searchCondition(searchTerm('prenom123.nom3@orange0.fr'))).compile();

    it('finds an address', async () => {
      expect((await db().executeQuery(query())).rows).toHaveLength(1);
    });

    it("never reads the address's trigrams, whatever the planner's estimates: not even without the several-'@' index", async () => {
      // The planner is made to prefer any index, and the several-'@' addresses' index is dropped (undone after).
      let plan = '';
      await testDb.handle
        .withRawTransaction(async (tx) => {
          await tx.exec('drop index user_search_email_many_at_idx');
          await tx.exec('set local enable_seqscan = off');
          const { sql: text, parameters } = query();
          plan = (await tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, parameters)).map((r) => r['QUERY PLAN']).join('\n');
          throw new Undone();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Undone)) throw error;
        });
      expect(plan).toMatch(/user_search_email_parts_idx/);
      expect(plan).not.toMatch(/Index Cond: [^\n]*'%prenom123/);
      expect(await sql`select 1 from pg_indexes where indexname = 'user_search_email_many_at_idx'`.execute(db()).then((r) => r.rows.length)).toBe(1);
    });

    it('plans a search by an address once for any address, reading the e-mail parts index by ranges of its values', async () => {
      // Planned at each request, the page's statement of an address cost 1 to 2 ms of planning for 0.25 ms of reading
      // at 1M users: the address's values are unseen by the planner, its parts ranges of their index (startsWith).
      const statement = query();
      // Prepared whatever its LIKE (database.ts preparedName; the names' map is shared by the test files of a worker).
      expect(statement.sql).toContain(PREPARE_ANYWAY);
      expect(await keptPlanRuns(testDb.handle, statement)).toBeGreaterThan(0);
      const plan = await keptPlan(testDb.handle, statement, { settings: ['enable_seqscan = off'] });
      expect(plan).toMatch(/user_search_email_parts_idx/);
      expect(plan).toMatch(/~>=~/);
      for (const address of ['prenom7.nom7@orange1.fr', 'nom29@orange2', 'o123.nom3@orange0.f']) {
        const found = await db().selectFrom('user_search as s').select('s.id').where(searchCondition(searchTerm(address))).execute();
        const expected = await db().selectFrom('user_search as s').select('s.id').where(sql<boolean>`strpos(s.email, ${address}) > 0 or strpos(s.name, ${address}) > 0`).execute();
        expect(found.map((r) => r.id).sort(), address).toEqual(expected.map((r) => r.id).sort());
      }
    });

    it('looks for the words holding a term with one plan for any term: the pattern unseen by the planner', async () => {
      // At 1M users (300,000 counts' rows) a pattern seen made its plan look cheaper than the plan for any pattern, and the
      // statement was planned again at every term (0.5 ms); a test database that small plans it once either way, so the
      // pattern's place is checked too: an initplan's value (server/db/unseen.ts).
      const { db: recording, statements } = capturing(db());
      const held = await heldWords(recording, '%reno%', 'words', true);
      expect(held!.words.map((w) => w.word)).toContain('prenom');
      expect(statements[0]!.sql).toMatch(/c\.word like \(select \$\d+::text\)/);
      expect(await keptPlanRuns(testDb.handle, statements[0]!)).toBeGreaterThan(0);
    });
  });
}
