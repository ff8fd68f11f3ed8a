import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/database.ts';
import { migrate } from '../../../server/db/migrate.ts';
import { seedDemoData } from '../../../server/seed/seed.ts';
import { backends, createTestDatabase, secondsSince, snapshot, type TestDatabase } from './test-databases.ts';

describe.each(backends)('database handle on $name', (backend) => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
  }, 60_000);

  afterAll(async () => {
    await testDb?.dispose();
  });

  it('tells its kind and answers ping', async () => {
    expect(testDb.handle.kind).toBe(backend.name);
    await expect(testDb.handle.ping()).resolves.toBeUndefined();
  });

  // PGlite has no JIT compiler (its setting says on, and compiles nothing).
  it.runIf(backend.name === 'postgres')('compiles no statement just in time on PostgreSQL (a costly plan that never ran was compiled all the same)', async () => {
    const { rows } = await sql<{ jit: string }>`show jit`.execute(testDb.handle.db);
    expect(rows[0]!.jit).toBe('off');
  });

  it('runs a script of several statements with exec', async () => {
    await testDb.handle.exec(`
      create table exec_check (id bigint generated always as identity primary key, label text not null);
      insert into exec_check (label) values ('un'), ('deux');
      insert into exec_check (label) values ('trois');
    `);
    const { rows } = await sql<{ n: number }>`select count(*) as n from exec_check`.execute(testDb.handle.db);
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('reads count(*) and bigint columns as numbers', async () => {
    const count = await sql<{ n: unknown; big: unknown; id: unknown }>`
      select count(*) as n, 9007199254740991::bigint as big, max(id) as id from exec_check`.execute(testDb.handle.db);
    expect(count.rows).toEqual([{ n: 3, big: 9_007_199_254_740_991, id: 3 }]);
  });

  it('commits a raw transaction that succeeds and rolls back one that throws', async () => {
    await testDb.handle.withRawTransaction(async (tx) => {
      await tx.exec(`insert into exec_check (label) values ('quatre'); insert into exec_check (label) values ('cinq');`);
      expect(await tx.query<{ n: number }>('select count(*) as n from exec_check where label = $1', ['cinq'])).toEqual([{ n: 1 }]);
    });
    await expect(
      testDb.handle.withRawTransaction(async (tx) => {
        await tx.exec(`insert into exec_check (label) values ('six')`);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    const { rows } = await sql<{ label: string }>`select label from exec_check order by id`.execute(testDb.handle.db);
    expect(rows.map((row) => row.label)).toEqual(['un', 'deux', 'trois', 'quatre', 'cinq']);
  });
});

describe('PGlite template (dumpDataDir, then loadDataDir)', () => {
  it('opens a copy of a migrated and seeded database with the same rows', async () => {
    const template = await openDatabase({});
    try {
      await migrate(template);
      await seedDemoData(template);
      const dump = await template.dumpDataDir!();
      const start = performance.now();
      const copy = await openDatabase({ loadDataDir: dump });
      console.info(`[database.test] PGlite opened from a seeded template in ${secondsSince(start)} s`);
      try {
        expect(await migrate(copy)).toEqual({ applied: [] });
        expect(await snapshot(copy.db)).toEqual(await snapshot(template.db));
      } finally {
        await copy.close();
      }
    } finally {
      await template.close();
    }
  }, 120_000);
});
