// The job of an action on many users survives neither twice nor half (issue 22): a server stopped mid-job lets it
// go and a new server finishes it, each person done once; two workers on one job never do a person twice.
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BULK_MESSAGES, MAX_PERSON_FAILURES } from '../../server/features/users/users-bulk.policy.ts';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, startUsersApp } from './support/users-api.ts';

const PERSONS = 12;

for (const backend of backends) {
  describe(`the jobs of actions on many users on ${backend.name}`, () => {
    const apps: TestApp[] = [];
    afterEach(async () => {
      // The first app owns the database: the others, on it, are closed before it.
      const [owner, ...others] = apps.splice(0);
      for (const t of others) await t.stopServer();
      await owner?.close();
    });

    /** An app with PERSONS new users, and a job deactivating them started by the back office; batches of 2 persons. */
    async function jobOnNewUsers(options: { runBulkActions: boolean }) {
      const { t, orgs, roles } = await startUsersApp(backend, { ...options, bulkBatches: { batchSize: 2 } });
      apps.push(t);
      const ids: string[] = [];
      for (let i = 0; i < PERSONS; i += 1) ids.push((await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!])).user.id);
      return { t, ids };
    }
    const deactivations = async (t: TestApp, ids: string[]) => {
      const rows = await t.database.handle.db.selectFrom('audit_log').select('entity_id').where('action', '=', 'user.deactivate').where('entity_id', 'in', ids).execute();
      return ids.map((id) => rows.filter((r) => r.entity_id === id).length);
    };
    const outcomes = (t: TestApp, jobId: string) => t.database.handle.db.selectFrom('bulk_action_targets').select(['outcome', 'reason']).where('bulk_action_id', '=', jobId).execute();

    it('resumes after a restart: the stopped server lets the job go, a new one completes it, each person done once', async () => {
      const { t, ids } = await jobOnNewUsers({ runBulkActions: true });
      let done = 0;
      const stopped = new Promise<void>((resolve) => {
        t.app.bulkActions.onPerson(() => {
          done += 1;
          // The server stops while the job runs: the person under way is finished, the others wait.
          if (done === 3) void t.app.close().then(resolve);
        });
      });
      const started = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'deactivate', userIds: ids } });
      expect(started.status).toBe(202);
      await stopped;
      // The batch under way when it stopped was finished, the rest left to do.
      const halfway = (await outcomes(t, started.body.id)).filter((o) => o.outcome !== null).length;
      expect(halfway).toBeGreaterThanOrEqual(3);
      expect(halfway).toBeLessThan(PERSONS);
      const job = await t.database.handle.db.selectFrom('bulk_actions').select(['status', 'lease_owner']).where('id', '=', started.body.id).executeTakeFirstOrThrow();
      expect(job).toEqual({ status: 'running', lease_owner: null });

      // A new server on the same database takes the job up by itself.
      const restarted = await startTestApp(backend, { database: t.database, runBulkActions: true });
      apps.push(restarted);
      const read = () => callApi(restarted, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/bulk-actions/{id}', params: { id: started.body.id } });
      await vi.waitFor(async () => expect((await read()).body.status).toBe('completed'), { timeout: 20_000, interval: 50 });
      expect((await read()).body).toMatchObject({ status: 'completed', total: PERSONS, processed: PERSONS, succeeded: PERSONS, refusals: [] });
      expect(await deactivations(restarted, ids)).toEqual(ids.map(() => 1));
    });

    it('reports a person whose action keeps failing unexpectedly after three tries, and goes on with the others', async () => {
      const { t, ids } = await jobOnNewUsers({ runBulkActions: false });
      const db = t.database.handle.db;
      const poisoned = ids[1]!;
      // Any change of this person fails in the database, whatever the action: not a refusal the policy knows.
      await sql`create function refuse_poisoned() returns trigger language plpgsql as $$ begin raise exception 'panne simulée'; end $$`.execute(db);
      await sql.raw(`create trigger poisoned before update on users for each row when (old.id = '${poisoned}') execute function refuse_poisoned()`).execute(db);
      try {
        const started = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'deactivate', userIds: ids.slice(0, 3) } });
        await t.app.bulkActions.drain();
        const read = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/bulk-actions/{id}', params: { id: started.body.id } });
        expect(read.body).toMatchObject({ status: 'completed', total: 3, processed: 3, succeeded: 2 });
        expect(read.body.refusals).toEqual([expect.objectContaining({ userId: poisoned, reason: BULK_MESSAGES.unexpectedFailure })]);
        const failures = await db.selectFrom('bulk_action_targets').select('failures').where('bulk_action_id', '=', started.body.id).where('user_id', '=', poisoned).executeTakeFirstOrThrow();
        expect(failures.failures).toBe(MAX_PERSON_FAILURES);
        expect(await deactivations(t, ids.slice(0, 3))).toEqual([1, 0, 1]);
      } finally {
        await sql`drop trigger poisoned on users`.execute(db);
        await sql`drop function refuse_poisoned()`.execute(db);
      }
    });

    it('never does a person twice when two workers work on one job at the same time', async () => {
      const { t, ids } = await jobOnNewUsers({ runBulkActions: false });
      const other = await startTestApp(backend, { database: t.database });
      apps.push(other);
      const started = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'deactivate', userIds: ids } });
      let second: Promise<number> | null = null;
      t.app.bulkActions.onPerson(() => {
        // After the first worker's first person, its lease is taken from it and a second worker starts on the same
        // job: both hold the persons still to do, and run them side by side.
        second ??= t.database.handle.db
          .updateTable('bulk_actions')
          .set({ lease_owner: null, lease_until: null })
          .where('id', '=', started.body.id)
          .execute()
          .then(() => other.app.bulkActions.drain());
      });
      await t.app.bulkActions.drain();
      expect(await second).toBe(1);
      const all = await outcomes(t, started.body.id);
      expect(all).toEqual(ids.map(() => ({ outcome: 'succeeded', reason: null })));
      expect(await deactivations(t, ids)).toEqual(ids.map(() => 1));
    });
  });
}
