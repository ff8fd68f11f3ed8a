// A kept answer asked for while it is being read (server/db/kept-answers.ts): the caller arriving after a write never
// gets the answer of a snapshot taken before that write (security review: an administrator deactivating someone, then
// reading the account figures a colleague of the same scope asked for a moment before, saw them unmoved).
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptAnswers } from '../../../server/db/kept-answers.ts';
import { migrate } from '../../../server/db/migrate.ts';
import type { Database } from '../../../server/db/schema.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';

// PostgreSQL only: PGlite's one connection holds the write back until the read under way has ended.
for (const backend of backends.filter((b) => b.name === 'postgres')) {
  describe(`kept answers joined while being read on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;

    beforeAll(async () => {
      t = await createTestDatabase(backend);
      await migrate(t.handle);
      db = t.handle.db;
    }, 60_000);
    afterAll(() => t.dispose());

    /** The data the answer is read from: the users list's version itself (every write moves it). */
    const usersVersion = async (trx: Kysely<Database>) =>
      Number((await sql<{ v: string }>`select coalesce(sum(version), 0)::bigint as v from list_versions where list = 'users'`.execute(trx)).rows[0]!.v);

    it('gives a caller arriving after a write the data as written, not the read under way before it', async () => {
      const kept = new KeptAnswers();
      let snapshotTaken!: () => void;
      const taken = new Promise<void>((resolve) => (snapshotTaken = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = kept.answer(db, 'k', new Date(), ['users'], async (trx) => {
        const answer = await usersVersion(trx);
        snapshotTaken();
        await gate;
        return { answer, until: null };
      });
      await taken;
      const before = await usersVersion(db);
      // A write, committed and answered, before the second caller asks.
      await sql`update list_versions set version = version + 1 where list = 'users' and backend = 0`.execute(db);
      const second = kept.answer(db, 'k', new Date(), ['users'], async (trx) => ({ answer: await usersVersion(trx), until: null }));
      release();
      expect(await first).toBe(before);
      expect(await second).toBe(before + 1);
    });
  });
}
