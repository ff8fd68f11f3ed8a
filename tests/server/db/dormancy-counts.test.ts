// Migration 0031: the back office's 'Comptes dormants' total without counting the dormant accounts. Active accounts are
// counted by the UTC day of their activity (the latest of the sign-in, the creation and the reactivation), the warned
// ones apart; the total at a cut-off is the warned ones, the days before the cut-off's, and the accounts of its own day
// up to it (an index range). These tests hold that total to the direct count through every kind of write.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../server/db/database.ts';
import type { Database } from '../../../server/db/schema.ts';
import { countDormant, dormantCondition, dormantTotalQuery } from '../../../server/features/users/users-dormancy.repository.ts';
import { reactivationColumns } from '../../../server/features/users/users.model.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from './test-databases.ts';
import { withoutTriggers } from '../support/without-triggers.ts';

const DAY = 24 * 3600_000;
/** A cut-off's day: 2025-12-14 (UTC); the cut-off itself falls inside it, at 07:30. */
const DAY_START = Date.UTC(2025, 11, 14);
const CUTOFF = DAY_START + 7.5 * 3600_000;

/** Activities around the cut-off's day and inside it, to the millisecond. */
const MOMENTS = [
  DAY_START - 400 * DAY,
  DAY_START - 1,
  DAY_START,
  CUTOFF - 1,
  CUTOFF,
  CUTOFF + 1,
  DAY_START + DAY - 1,
  DAY_START + DAY,
  DAY_START + 30 * DAY,
];
/** The cut-offs compared: the warning off (null), and every moment above with its neighbours. */
const CUTOFFS: (Date | null)[] = [null, ...MOMENTS.flatMap((m) => [m - 1, m, m + 1]).map((m) => new Date(m)), new Date(Date.UTC(2026, 11, 14, 7, 30))];

for (const backend of backends) {
  describe(`the dormant total from counters on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;

    beforeAll(async () => {
      t = await createSeededTestDatabase(backend);
      db = t.handle.db;
    }, 60_000);
    afterAll(async () => {
      await t?.dispose();
    });

    const direct = async (cutoff: Date | null, on: Kysely<Database> = db) =>
      Number((await on.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where(() => dormantCondition(cutoff)).executeTakeFirstOrThrow()).n);

    /** The counters by day are the grouped count, and the total at every cut-off is the direct count. */
    async function expectExact(step: string, on: Kysely<Database> = db): Promise<void> {
      const { rows } = await sql<{ day: string; kept: number | null; counted: number | null }>`
        with kept as (select day, sum(n)::int as n from user_dormancy_day_counts group by day having sum(n) <> 0),
             counted as (
               select case when dormancy_warned_at is not null then '-infinity'::date
                           else (greatest(last_login_at, created_at, reactivated_at) at time zone 'UTC')::date end as day, count(*)::int as n
               from users where is_active group by 1)
        select day::text, kept.n as kept, counted.n as counted from kept full join counted using (day) where kept.n is distinct from counted.n`.execute(on);
      expect(rows, step).toEqual([]);
      for (const cutoff of CUTOFFS) expect(await countDormant(on, cutoff), `${step}, cut-off ${cutoff?.toISOString() ?? 'none'}`).toBe(await direct(cutoff, on));
    }

    /** Active people whose activity is each moment, by a sign-in, a creation alone or a reactivation. */
    async function people(label: string): Promise<string[]> {
      const rows = MOMENTS.flatMap((m, i) => {
        const at = new Date(m);
        const long = new Date(m - 500 * DAY);
        return [
          { last_login_at: at, created_at: long, reactivated_at: null },
          { last_login_at: null, created_at: at, reactivated_at: null },
          { last_login_at: long, created_at: long, reactivated_at: at },
        ].map((dates, k) => ({ ...dates, id: randomUUID(), email: `${label}.${i}.${k}.${randomUUID().slice(0, 6)}@exemple-test.fr`, first_name: 'Dormeur', last_name: label, user_type: 'ORGANIZATION' as const }));
      });
      await db.insertInto('users').values(rows).execute();
      return rows.map((r) => r.id);
    }

    it('holds the total of the demo data, counted by the migration', async () => {
      await expectExact('seeded');
    });

    it('follows inserts, sign-ins, warnings, deactivations, reactivations, edits, re-dating and deletions', async () => {
      const ids = await people('Insere');
      await expectExact('inserted');
      // Sign-ins: one at a time as the portal does, then several in one statement.
      await db.updateTable('users').set({ last_login_at: new Date(CUTOFF + 1) }).where('id', '=', ids[0]!).execute();
      await db.updateTable('users').set({ last_login_at: new Date(DAY_START + 2 * DAY) }).where('id', 'in', ids.slice(1, 8)).execute();
      await expectExact('signed in');
      await db.updateTable('users').set({ dormancy_warned_at: new Date(CUTOFF) }).where('id', 'in', ids.slice(8, 14)).execute();
      await expectExact('warned');
      await db.updateTable('users').set({ is_active: false }).where('id', 'in', ids.slice(10, 18)).execute();
      await db.updateTable('users').set({ is_active: false, dormancy_deactivated_at: new Date(CUTOFF) }).where('id', '=', ids[18]!).execute();
      await expectExact('deactivated');
      await db.updateTable('users').set({ is_active: true, ...reactivationColumns(new Date(CUTOFF - 1)) }).where('id', 'in', ids.slice(12, 19)).execute();
      await expectExact('reactivated');
      // A sign-in clears a warning; an edit moves nothing; a creation re-dated moves its day.
      await db.updateTable('users').set({ dormancy_warned_at: null, last_login_at: new Date(DAY_START) }).where('id', '=', ids[8]!).execute();
      await db.updateTable('users').set({ first_name: 'Renommé' }).where('id', 'in', ids.slice(0, 20)).execute();
      await db.updateTable('users').set({ created_at: new Date(CUTOFF + 2 * DAY) }).where('id', 'in', ids.slice(19, 24)).execute();
      await expectExact('edited');
      // Every user at once, as a test's set-up does.
      await db.updateTable('users').set({ last_login_at: sql`coalesce(last_login_at, created_at) - interval '1 day'` }).execute();
      await expectExact('every user');
      await db.deleteFrom('users').where('id', 'in', ids.slice(0, 12)).execute();
      await db.deleteFrom('users').where('id', '=', ids[20]!).execute();
      await expectExact('deleted');
    });

    it('leaves the counters as they were after a rolled back change', async () => {
      const ids = await people('Annule');
      const rollback = () => Promise.reject(new Error('rollback'));
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ last_login_at: new Date(CUTOFF + DAY) }).where('id', 'in', ids).execute();
          await trx.deleteFrom('users').where('id', '=', ids[0]!).execute();
          return rollback();
        })
        .catch(() => undefined);
      await expectExact('rolled back');
    });

    it('counts without the counters of connections that are gone folded into row 0', async () => {
      await people('Replie');
      await sql`insert into user_dormancy_day_counts values ('2025-12-13', 2000000001, 3), ('2025-12-13', 2000000002, -3), ('2025-12-14', 2000000001, 0)`.execute(db);
      await sql`select compact_list_totals()`.execute(db);
      const left = await sql<{ n: number }>`select count(*)::int as n from user_dormancy_day_counts where backend in (2000000001, 2000000002) or (backend = 0 and n = 0)`.execute(db);
      expect(left.rows[0]!.n).toBe(0);
      await expectExact('compacted');
    });

    it('reads no dormant account to count them: only the cut-off day from the activity index', async () => {
      const cutoff = new Date(CUTOFF);
      const { sql: text, parameters } = dormantTotalQuery(cutoff, null).compile(db);
      const plan = await t.handle.withRawTransaction(async (tx) => {
        await tx.exec('set local enable_seqscan = off; set local enable_bitmapscan = off');
        return (await tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, [...parameters])).map((r) => r['QUERY PLAN']).join('\n');
      });
      const onUsers = plan.split('\n').filter((line) => / on users\b/.test(line));
      expect(onUsers, plan).toHaveLength(1);
      expect(onUsers[0], plan).toMatch(/users_dormancy_activity_idx/);
      expect(plan).not.toMatch(/users_dormancy_warned_idx/);
      // Both ends of the cut-off's day in the index condition: the days before are the counters'.
      const condition = plan.slice(plan.indexOf('users_dormancy_activity_idx'));
      expect(condition).toMatch(/Index Cond: .*>=.*<=/s);
    });

    it('ignores an account written with the triggers off: the total is the counters', async () => {
      const before = await countDormant(db, new Date(CUTOFF));
      const hidden = randomUUID();
      await withoutTriggers(t.handle, `insert into users (id, email, first_name, last_name, user_type, created_at) values ($1, $2, 'Caché', 'Sans Déclencheur', 'ORGANIZATION', $3)`, [hidden, `cache.${hidden.slice(0, 8)}@exemple-test.fr`, new Date(DAY_START - 300 * DAY)]);
      expect(await direct(new Date(CUTOFF))).toBe(before + 1);
      expect(await countDormant(db, new Date(CUTOFF))).toBe(before);
      await withoutTriggers(t.handle, 'delete from users where id = $1', [hidden]);
    });

    /**
     * Signs these people in (a day after the cut-off) in a transaction kept open while `meanwhile` runs on another
     * connection, then commits it. The writer's rows of the counters stay locked meanwhile.
     */
    async function whileSigningIn(ids: readonly string[], meanwhile: (other: DatabaseHandle) => Promise<void>): Promise<void> {
      const other = await t.openAnother();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let signedIn!: () => void;
      const written = new Promise<void>((resolve) => (signedIn = resolve));
      const writer = t.handle.withRawTransaction(async (tx) => {
        await tx.query('update users set last_login_at = $1 where id = any($2::uuid[])', [new Date(CUTOFF + DAY), ids]);
        signedIn();
        await released;
      });
      await written;
      try {
        await meanwhile(other);
      } finally {
        release();
        await writer;
      }
    }

    it.runIf(backend.name === 'postgres')('stays exact with two connections writing at once, neither waiting for the other', async () => {
      const [a, b] = [await people('Premier'), await people('Second')];
      const before = await direct(new Date(CUTOFF));
      await whileSigningIn(a, async (other) => {
        await other.withRawTransaction(async (tx) => {
          await tx.exec("set local lock_timeout = '3s'");
          await tx.query('update users set dormancy_warned_at = $1 where id = any($2::uuid[])', [new Date(CUTOFF), b.slice(0, 4)]);
          await tx.query('update users set last_login_at = $1 where id = any($2::uuid[])', [new Date(CUTOFF + DAY), b.slice(4, 10)]);
          await tx.query('delete from users where id = any($1::uuid[])', [b.slice(10, 12)]);
        });
        // The first one's change is not seen before it commits, the second's is.
        expect(await countDormant(other.db, new Date(CUTOFF))).toBe(await direct(new Date(CUTOFF), other.db));
      });
      expect(await countDormant(db, new Date(CUTOFF))).toBeLessThan(before);
      await expectExact('two writers');
    });

    it.runIf(backend.name === 'postgres')('folds the counters while a writer holds a day of them, without waiting for it', async () => {
      // A sign-in takes these people off their old days: the writer's rows of those days stay locked until it commits.
      await whileSigningIn(await people('Plie'), (other) =>
        other.withRawTransaction(async (tx) => {
          await tx.exec("set local lock_timeout = '3s'");
          await tx.query('select compact_list_totals()');
        }),
      );
      await sql`select compact_list_totals()`.execute(db);
      await expectExact('folded beside a writer');
    });

    it('counts again from the rows after a truncate', async () => {
      await sql`truncate users cascade`.execute(db);
      await expectExact('truncated');
      await people('Apres');
      await expectExact('after the truncate');
    });
  });
}
