// The pending requests' first page is prepared, with its statuses written in (invitations.repository.ts: known statuses
// as literals), so that the plan PostgreSQL keeps for it is made for them: on the 1M benchmark database, with the status
// a parameter, the plan kept walked every request newest first (9 ms a page, 0.5 ms by the status). That choice
// depends on the data's statistics, which a test database does not reproduce: the statement's text is checked, and
// its kept plan here.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.ts';
import { listInvitations } from '../../server/features/invitations/invitations.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { capturing, keptPlan } from './support/plans.ts';

for (const backend of backends) {
  describe(`the pending requests' page, on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
      // Many decided requests, newer than the few pending ones, analyzed.
      await sql`insert into invitations (invitee_email, organization_code, organization_name, role_code, role_name, status, invitation_type, sender_email, validator_email, created_at, processed_at)
        select 'demande' || i || '@exemple.fr', '123456789', 'Exemple', 'COMPTABLE', 'Comptable', 'APPROVED', 'ROLE_ASSIGNMENT', 'admin@exemple.fr', 'backoffice@exemple.fr',
          now() - interval '1 day' + i * interval '1 second', now()
        from generate_series(1, 20000) as i`.execute(db());
      await sql`analyze invitations`.execute(db());
    }, 120_000);
    afterAll(() => testDb?.dispose());

    it('is written for its statuses, and its kept plan reads the pending ones by their status', async () => {
      const { db: recording, statements } = capturing(db());
      const page = await listInvitations(recording, { statuses: ['PENDING'], sort: 'createdAt', order: 'desc', page: 1, pageSize: 10 });
      expect(page.rows.every((row) => row.status === 'PENDING')).toBe(true);
      const statement = statements.find((s) => /order by "created_at" desc/.test(s.sql))!;
      expect(statement.sql).toContain(`"status" in ('PENDING')`);
      expect(statement.parameters).not.toContain('PENDING');
      const plan = await keptPlan(testDb.handle, statement, { costs: false });
      expect(plan).toMatch(/invitations_status_created_sort_idx/);
    });
  });
}
