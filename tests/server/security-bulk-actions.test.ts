// Attacks on the actions on many users (issue 22, security review): a job acts with the starter's rights of the
// moment each batch of persons is done, read inside the batch's transaction (a starter deactivated, or whose
// administrator role is removed, mid-job acts on nobody after the batches under way); one job of a person at a time (no queue of 10,000 unknown ids holding everyone's jobs back); a
// progress read answers the first 100 refusals, not every name and e-mail of a 100,000-person selection.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BULK_MESSAGES } from '../../server/features/users/users-bulk.policy.ts';
import { REFUSALS_SHOWN } from '../../server/features/users/users-bulk.repository.ts';
import { backends } from './db/test-databases.ts';
import { callApi, PERSONAS, userIdOf, usersAppFor } from './support/users-api.ts';

const PERSONS = 12;
/** Small batches, so that a change of the starter's rights comes between two (users-bulk-batch.test.ts: at the boundary). */
const BATCHES = { batchSize: 2 };

for (const backend of backends) {
  describe(`the starter's rights, read again for each batch, on ${backend.name}`, () => {
    const { app, db, freshUser } = usersAppFor(backend, { bulkBatches: BATCHES });

    async function jobOf(as: string) {
      const ids: string[] = [];
      for (let i = 0; i < PERSONS; i += 1) ids.push((await freshUser()).user.id);
      const started = await callApi(app.t, { as, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'deactivate', userIds: ids } });
      expect(started.status).toBe(202);
      return { ids, id: started.body.id as string };
    }
    const report = async (id: string) =>
      db().selectFrom('bulk_action_targets').select(['outcome', 'reason']).where('bulk_action_id', '=', id).orderBy('position').execute();

    it('refuses every person when the starter is deactivated before the job runs', async () => {
      const starterId = await userIdOf(app.t, PERSONAS.adminClinique);
      const { id } = await jobOf(PERSONAS.adminClinique);
      await db().updateTable('users').set({ is_active: false }).where('id', '=', starterId).execute();
      try {
        await app.t.app.bulkActions.drain();
      } finally {
        await db().updateTable('users').set({ is_active: true }).where('id', '=', starterId).execute();
      }
      expect((await report(id)).filter((r) => r.outcome === 'succeeded')).toHaveLength(0);
    });

    it('stops acting once the starter is deactivated mid-job', async () => {
      const starterId = await userIdOf(app.t, PERSONAS.adminClinique);
      const { id } = await jobOf(PERSONAS.adminClinique);
      let change: Promise<unknown> | null = null;
      const off = app.t.app.bulkActions.onPerson(() => {
        change ??= db().updateTable('users').set({ is_active: false }).where('id', '=', starterId).execute();
      });
      try {
        await app.t.app.bulkActions.drain();
      } finally {
        off();
        await change;
        await db().updateTable('users').set({ is_active: true }).where('id', '=', starterId).execute();
      }
      const rows = await report(id);
      const succeeded = rows.filter((r) => r.outcome === 'succeeded').length;
      // At most the batch under way and one whose rights were read before the change was committed may still
      // succeed; every later person is refused (with one batch of 12, all 12 would).
      expect(succeeded, JSON.stringify(rows)).toBeLessThanOrEqual(2 * BATCHES.batchSize);
      expect(rows.at(-1)!.outcome).toBe('refused');
    });

    it("stops acting once the starter's administrator role is removed mid-job", async () => {
      const starterId = await userIdOf(app.t, PERSONAS.adminClinique);
      const held = await db().selectFrom('role_assignments').selectAll().where('user_id', '=', starterId).execute();
      const { id } = await jobOf(PERSONAS.adminClinique);
      let change: Promise<unknown> | null = null;
      const off = app.t.app.bulkActions.onPerson(() => {
        change ??= db().deleteFrom('role_assignments').where('user_id', '=', starterId).execute();
      });
      try {
        await app.t.app.bulkActions.drain();
      } finally {
        off();
        await change;
        await db().insertInto('role_assignments').values(held.map(({ id: _id, ...rest }: Record<string, unknown>) => rest) as never).execute();
      }
      const rows = await report(id);
      const succeeded = rows.filter((r) => r.outcome === 'succeeded').length;
      expect(succeeded, JSON.stringify(rows)).toBeLessThanOrEqual(2 * BATCHES.batchSize);
      expect(rows.at(-1)!.outcome).toBe('refused');
    });
  });
}

for (const backend of backends) {
  describe(`one job at a time, and the progress read, on ${backend.name}`, () => {
    const { app, db } = usersAppFor(backend);
    const start = (as: string, userIds: string[]) => callApi(app.t, { as, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'deactivate', userIds } });

    it('refuses a second job while the same person already has one running (429), rather than queueing any number', async () => {
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await start(PERSONAS.adminClinique, Array.from({ length: 10_000 }, () => randomUUID())));
      const stored = await db().selectFrom('bulk_action_targets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(answers.map((a) => a.status)).toEqual([202, 429, 429]);
      expect(answers[1]!.body.message).toBe(BULK_MESSAGES.alreadyRunning);
      expect(Number(stored.n)).toBe(10_000);
      // Once it completed, the same person may start another.
      await app.t.app.bulkActions.drain();
      expect((await start(PERSONAS.adminClinique, [randomUUID()])).status).toBe(202);
      await app.t.app.bulkActions.drain();
    }, 120_000);

    it('answers the first 100 refusals of a job, the others counted from its totals', async () => {
      await db().deleteFrom('bulk_actions').execute();
      const job = await start(PERSONAS.adminClinique, Array.from({ length: 2_000 }, () => randomUUID()));
      expect(job.status).toBe(202);
      await app.t.app.bulkActions.drain();
      const read = await callApi(app.t, { as: PERSONAS.adminClinique, method: 'GET', route: '/api/v2/users/bulk-actions/{id}', params: { id: job.body.id } });
      expect(read.body).toMatchObject({ status: 'completed', total: 2_000, processed: 2_000, succeeded: 0 });
      expect(read.body.refusals).toHaveLength(REFUSALS_SHOWN);
    }, 120_000);
  });
}
