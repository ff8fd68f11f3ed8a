// Issue 22, the bulk actions' speed (migration 0030): what triggers keep of the users (the totals by status, the search
// copy and its string counts, the name ranges, the list version) stays exact through UPDATEs of many users at once, as
// a batch of a bulk action makes, and the search copy is written by one statement per UPDATE of users, not one per user.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPersonsActive } from '../../../server/features/users/users-bulk-batch.repository.ts';
import type { Database } from '../../../server/db/schema.ts';
import { fixtures } from '../support/fixtures.ts';
import { EXACT, keptCopiesDiffering } from '../support/kept-copies.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './test-databases.ts';

for (const backend of backends) {
  describe(`the users' kept copies through UPDATEs of many users on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;
    const people: string[] = [];

    beforeAll(async () => {
      t = await createSeededTestDatabase(backend);
      db = t.handle.db;
      // Small ranges, so that the persons changed fall in several of them.
      await sql`select rebuild_user_name_ranges(5)`.execute(db);
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      for (const lastName of ['Aubert', 'Bernard', 'Lefèvre', 'Moreau', 'Œuvray', 'Zébulon']) {
        const person = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE' });
        await db.updateTable('users').set({ last_name: lastName }).where('id', '=', person.id).execute();
        people.push(person.id);
      }
    }, 60_000);

    afterAll(async () => {
      await t?.dispose();
    });

    const usersVersion = async () => (await sql<{ v: number }>`select coalesce(sum(version), 0)::int as v from list_versions where list = 'users'`.execute(db)).rows[0]!.v;

    /** Counts the statements that UPDATE user_search while `run` runs. */
    async function searchUpdatesDuring(run: () => Promise<unknown>): Promise<number> {
      await sql`create table if not exists search_update_calls (at timestamptz)`.execute(db);
      await sql`create or replace function log_search_update() returns trigger language plpgsql as $$
        begin insert into search_update_calls values (clock_timestamp()); return null; end $$`.execute(db);
      await sql`create trigger log_search_update after update on user_search for each statement execute function log_search_update()`.execute(db);
      try {
        await sql`delete from search_update_calls`.execute(db);
        await run();
        return (await sql<{ n: number }>`select count(*)::int as n from search_update_calls`.execute(db)).rows[0]!.n;
      } finally {
        await sql`drop trigger log_search_update on user_search`.execute(db);
      }
    }

    it("keeps them exact through a batch's deactivation and reactivation of several persons, the search copy written once", async () => {
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      const before = await usersVersion();
      const writes = await searchUpdatesDuring(() => db.transaction().execute((trx) => setPersonsActive(trx, people, false, new Date())));
      expect(writes).toBe(1);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      expect(await usersVersion()).toBeGreaterThan(before);
      const inactive = await db.selectFrom('user_search').select('id').where('id', 'in', people).where('is_active', '=', false).execute();
      expect(inactive).toHaveLength(people.length);
      await db.transaction().execute((trx) => setPersonsActive(trx, people.slice(0, 3), true, new Date()));
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
    });

    it('keeps them exact through a rename of many users at once, across ranges, some rows left as they were', async () => {
      await db
        .updateTable('users')
        .set({
          last_name: sql`case when last_name < 'M' then 'Zz' || last_name else last_name end`,
          first_name: sql`case when last_name = 'Moreau' then 'Élodie' else first_name end`,
          email: sql`case when last_name = 'Zébulon' then ${`zebulon.${randomUUID().slice(0, 8)}@Exemple-Test.fr`} else email end`,
          is_active: sql`not is_active`,
        })
        .where('id', 'in', people)
        .execute();
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      // Every user of the demo data at once, nothing they are counted by changed (the statement moves their versions only).
      await db.updateTable('users').set({ version: sql`version + 1` }).execute();
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
    });

    it('keeps them exact through a change rolled back, and through the deletion of several persons', async () => {
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ is_active: false, first_name: 'Annulé' }).where('id', 'in', people).execute();
          throw new Error('rollback');
        })
        .catch(() => undefined);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      await db.deleteFrom('users').where('id', 'in', people.slice(3)).execute();
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
    });

    it("copies a sign-in's last login alone, and runs no UPDATE of the copy for a change of nothing it holds", async () => {
      const [id] = people;
      const copy = () => sql<{ xmin: string; last_login_at: Date | null }>`select xmin::text, last_login_at from user_search where id = ${id}::uuid`.execute(db);
      const at = new Date('2026-11-20T08:30:00Z');
      const signIn = () => db.updateTable('users').set({ last_login_at: at, dormancy_warned_at: null }).where('id', '=', id!).execute();
      expect(await searchUpdatesDuring(signIn)).toBe(1);
      const signedIn = (await copy()).rows[0]!;
      expect(signedIn.last_login_at?.toISOString()).toBe(at.toISOString());
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      // The same sign-in again, and a change of a column the copy does not hold: its row is not written, and no UPDATE
      // of the copy runs at all (migration 0042: its own statement triggers, counts and words, would run for no row).
      await signIn();
      expect(await searchUpdatesDuring(() => db.updateTable('users').set({ job_title: 'Responsable', version: sql<number>`version + 1` }).where('id', '=', id!).execute())).toBe(0);
      expect(await searchUpdatesDuring(() => db.updateTable('users').set({ job_title: 'Autre' }).where('id', 'in', people).execute())).toBe(0);
      expect((await copy()).rows[0]!.xmin).toBe(signedIn.xmin);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
    });
  });
}
