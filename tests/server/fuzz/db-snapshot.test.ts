// The fuzz's database snapshot (db-snapshot.ts) sees the changes a refused request must not make: a row
// added anywhere, a user edited in place, an invitation decided, a role assignment replaced.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../server/db/migrate.ts';
import { seedDemoData } from '../../../server/seed/seed.ts';
import { createTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { snapshotOf, type Snapshot } from './db-snapshot.ts';

describe('the fuzz database snapshot', () => {
  let database: TestDatabase, snapshot: Snapshot;
  beforeAll(async () => {
    database = await createTestDatabase({ name: 'pglite' });
    await migrate(database.handle);
    await seedDemoData(database.handle);
    snapshot = await snapshotOf(database.handle.db);
  });
  afterAll(() => database?.dispose());

  /** The snapshot differs after `change`, which is rolled back afterwards so that the cases stay independent. */
  async function changes(change: string): Promise<boolean> {
    const before = await snapshot.take();
    await database.handle.exec('begin');
    try {
      await sql.raw(change).execute(database.handle.db);
      const { unchanged, after } = await snapshot.compare(before);
      expect(after.digest !== before.digest).toBe(!unchanged);
      return !unchanged;
    } finally {
      await database.handle.exec('rollback');
    }
  }

  it('stays the same when nothing changes, without reading every table again', async () => {
    // (The first full read may prune pages the seed left, which writes WAL: the second starts after it.)
    await snapshot.take();
    const before = await snapshot.take();
    await sql`select count(*) from users`.execute(database.handle.db);
    const { unchanged, after } = await snapshot.compare(before);
    expect(unchanged).toBe(true);
    expect(after).toBe(before);
  });

  it('stays the same after a write rolled back (the WAL moved: compared in full)', async () => {
    const before = await snapshot.take();
    await database.handle.exec('begin');
    await sql`update users set version = version + 1`.execute(database.handle.db);
    await database.handle.exec('rollback');
    const { unchanged, after } = await snapshot.compare(before);
    expect(after.position).not.toBe(before.position);
    expect(unchanged).toBe(true);
  });

  it.each([
    ['a row added to any table', `insert into permissions (code, label) values ('FUZZ_TEST', 'x')`],
    ['a user edited in place (version and update time)', `update users set first_name = 'Autre', version = version + 1, updated_at = now() where email = 'rh.clinique@portail.test'`],
    ['an invitation decided', `update invitations set status = 'REJECTED', rejection_reason = 'Motif de rejet suffisant', validator_email = 'backoffice@portail.test', processed_at = created_at where id = (select min(id) from invitations where status = 'PENDING')`],
    ['a row added to an unlogged table (no WAL written for it)', `insert into rate_limit_hits (key, count, expires_at) values ('fuzz-test', 1, now() + interval '1 minute')`],
    ['an assignment replaced by another (same count)', `update role_assignments set role_id = (select id from roles where code = 'COMPTABLE') where id = (select id from role_assignments order by id limit 1)`],
  ])('sees %s', async (_name, change) => {
    expect(await changes(change)).toBe(true);
  });
});
