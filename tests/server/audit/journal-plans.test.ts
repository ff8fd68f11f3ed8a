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
import { capturing, keptPlanRuns } from '../support/plans.ts';

for (const backend of backends) {
  describe(`the journal's statements planned once, on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
      // Enough people and entries, analyzed, for the planner's estimates to tell a few values from any values. Written
      // without the API's statement timeout (exec): 20,000 users' search words take seconds on a slow machine.
      await testDb.handle.exec(`insert into users (email, first_name, last_name, user_type)
        select 'personne' || i || '@exemple' || (i % 50) || '.fr', 'Prénom' || i, 'Nom' || i, 'ORGANIZATION' from generate_series(1, 20000) as i`);
      await testDb.handle.exec(`insert into audit_log (actor_email, action, entity_type, entity_id, changes, search_text)
        select 'ops@exemple.fr', 'user.update', 'user', 'x' || i, '{}'::jsonb, 'ops@exemple.fr personne' || i || '@exemple' || (i % 50) || '.fr'
        from generate_series(1, 20000) as i`);
      await sql`analyze users`.execute(db());
      await sql`analyze audit_log`.execute(db());
    }, 180_000);
    afterAll(() => testDb?.dispose());

    it("keeps one plan for a page's lookups, whatever few users, requests and organizations it names", async () => {
      const user = await db().selectFrom('users').select('id').orderBy('email').executeTakeFirstOrThrow();
      const { db: recording, statements } = capturing(db());
      const found = await journalLookupRows(recording, { userIds: [user.id], invitationIds: [], organizationIds: [], organizationCodes: [], entriesOf: [], assignments: false });
      expect(found.users.map((u) => u.id)).toEqual([user.id]);
      expect(await keptPlanRuns(testDb.handle, statements[0]!)).toBeGreaterThan(0);
    });

    it('keeps one plan for a page of a search by an address', async () => {
      const where: JournalWhere = { scope: null, search: 'personne123@exemple23.fr' };
      const { sql: text, parameters } = db().selectFrom(journalPageIds(db(), where, { page: 1, pageSize: 10 }, { gather: true }).as('p')).selectAll().compile();
      expect(await keptPlanRuns(testDb.handle, { sql: text, parameters })).toBeGreaterThan(0);
    });
  });
}
