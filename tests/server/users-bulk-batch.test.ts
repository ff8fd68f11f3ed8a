// A deactivation or a reactivation on many users done by batches, each in one transaction (issue 22's 30 s goal):
// each person decided by the single action's policy, journaled as the single action journals them, once; the
// starter's rights read inside each batch (a change of them comes between two batches, or waits for the batch);
// a batch that fails mid-way leaves nothing half-written, and its persons are done one by one.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../server/core/policy.ts';
import { ALREADY_INACTIVE, USER_NOT_FOUND } from '../../server/features/users/users.policy.ts';
import { backends } from './db/test-databases.ts';
import type { GraphCall } from './support/graph-stub.ts';
import { callApi, createUserAs, PERSONAS, userIdOf, usersAppFor, usersAppOnGraph } from './support/users-api.ts';

for (const backend of backends) {
  describe(`actions on many users by batches on ${backend.name}`, () => {
    const { app, db, freshUser } = usersAppFor(backend, { bulkBatches: { batchSize: 4 } });
    const start = (as: string, action: string, userIds: string[]) => callApi(app.t, { as, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action, userIds } });
    const report = (id: string) => db().selectFrom('bulk_action_targets').select(['user_id', 'outcome', 'reason', 'failures']).where('bulk_action_id', '=', id).orderBy('position').execute();
    const versions = async (ids: string[]) => {
      const rows = await db().selectFrom('users').select(['id', 'version']).where('id', 'in', ids).execute();
      return ids.map((id) => rows.find((r) => r.id === id)?.version);
    };
    const journal = (ids: string[]) =>
      db().selectFrom('audit_log').select(['entity_id', 'action', 'at']).where('entity_id', 'in', ids).where('action', 'in', ['user.deactivate', 'user.reactivate']).orderBy('id').execute();
    /** Runs the worker until `persons` persons are done, then stops it between two batches. */
    async function drainFor(persons: number) {
      const stop = new AbortController();
      let done = 0;
      const off = app.t.app.bulkActions.onPerson(() => {
        done += 1;
        if (done === persons) stop.abort();
      });
      try {
        await app.t.app.bulkActions.drain(stop.signal);
      } finally {
        off();
      }
    }

    it("does a batch in one transaction: the persons the single action's policy refuses are reported, the others done", async () => {
      const [a, b, inactive] = [await freshUser(), await freshUser(), await freshUser()];
      await callApi(app.t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: inactive.user.id } });
      const theirs = await createUserAs(app.t, PERSONAS.backoffice, [app.orgs.ehpadSirets[0]!.code], [app.roles.COMPTABLE!]);
      const self = await userIdOf(app.t, PERSONAS.adminClinique);
      const administrator = (await db().selectFrom('users').select('id').where('first_name', '=', 'Hélène').where('last_name', '=', 'Lefèvre').executeTakeFirstOrThrow()).id;
      const ids = [a.user.id, inactive.user.id, theirs.user.id, b.user.id, self, administrator];
      const before = await versions(ids);
      const started = await start(PERSONAS.adminClinique, 'deactivate', ids);
      await app.t.app.bulkActions.drain();
      expect((await report(started.body.id)).map((r) => [r.outcome, r.reason])).toEqual([
        ['succeeded', null],
        ['refused', ALREADY_INACTIVE],
        ['refused', USER_NOT_FOUND],
        ['succeeded', null],
        ['refused', MESSAGES.self],
        ['refused', MESSAGES.protectedTarget],
      ]);
      // Only the persons done changed, each once; their entries written by one transaction (one moment).
      expect(await versions(ids)).toEqual(before.map((v, i) => (i === 0 || i === 3 ? v! + 1 : v)));
      const entries = await journal([a.user.id, b.user.id]);
      expect(entries.map((e) => e.entity_id)).toEqual([a.user.id, b.user.id]);
      expect(entries[0]!.at).toEqual(entries[1]!.at);
    });

    it("journals each person exactly as the single action does, and tells the identity provider the same", async () => {
      const [alone, inJob] = [await freshUser(), await freshUser()];
      const subjects = await db().selectFrom('users').select(['id', 'auth_id']).where('id', 'in', [alone.user.id, inJob.user.id]).execute();
      const entryOf = async (id: string, action: string) => {
        const entry = await db()
          .selectFrom('audit_log')
          .select(['id', 'actor_id', 'actor_email', 'actor_name', 'action', 'entity_type', 'organization_id', 'changes', 'subject_name', 'search_text', 'subject_search_text'])
          .where('entity_id', '=', id)
          .where('action', '=', action as never)
          .executeTakeFirstOrThrow();
        const organizations = await db().selectFrom('audit_log_organizations').select(['organization_id', 'siren_id']).where('audit_id', '=', entry.id).execute();
        const { id: _id, ...rest } = entry;
        // The person's own name and e-mail differ (each a new user): compared without them.
        const own = (text: string | null) => text?.replaceAll(alone.user.email, '«email»').replaceAll(inJob.user.email, '«email»');
        return { ...rest, search_text: own(rest.search_text), subject_search_text: own(rest.subject_search_text), organizations };
      };
      const account = async (id: string) =>
        db()
          .selectFrom('identity_accounts')
          .select(['enabled', (eb) => eb('sessions_revoked_at', 'is not', null).as('revoked')])
          .where('subject', '=', subjects.find((s) => s.id === id)!.auth_id!)
          .executeTakeFirstOrThrow();
      for (const [action, route] of [
        ['deactivate', '/api/v2/users/{id}/deactivate'],
        ['reactivate', '/api/v2/users/{id}/reactivate'],
      ] as const) {
        expect((await callApi(app.t, { as: PERSONAS.adminClinique, method: 'POST', route, params: { id: alone.user.id } })).status).toBe(200);
        await start(PERSONAS.adminClinique, action, [inJob.user.id]);
        await app.t.app.bulkActions.drain();
        expect(await entryOf(inJob.user.id, `user.${action}`)).toEqual(await entryOf(alone.user.id, `user.${action}`));
        expect(await account(inJob.user.id)).toEqual(await account(alone.user.id));
      }
      expect(await versions([inJob.user.id])).toEqual(await versions([alone.user.id]));
    });

    it('restarts the dormancy clock of a person reactivated in a batch, as the single reactivation does (issue 23)', async () => {
      const [alone, inJob] = [await freshUser(), await freshUser()];
      const ids = [alone.user.id, inJob.user.id];
      // Both warned, then deactivated by the portal's dormancy job.
      await db().updateTable('users').set({ is_active: false, dormancy_warned_at: new Date(Date.now() - 40 * 86_400_000), dormancy_deactivated_at: new Date(Date.now() - 86_400_000) }).where('id', 'in', ids).execute();
      const dormancy = (id: string) => db().selectFrom('users').select(['dormancy_warned_at', 'dormancy_deactivated_at', (eb) => eb('reactivated_at', 'is not', null).as('reactivated')]).where('id', '=', id).executeTakeFirstOrThrow();
      expect((await callApi(app.t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/reactivate', params: { id: alone.user.id } })).status).toBe(200);
      await start(PERSONAS.adminClinique, 'reactivate', [inJob.user.id]);
      await app.t.app.bulkActions.drain();
      expect(await dormancy(alone.user.id)).toEqual({ dormancy_warned_at: null, dormancy_deactivated_at: null, reactivated: true });
      expect(await dormancy(inJob.user.id)).toEqual(await dormancy(alone.user.id));
    });

    it("refuses the next batches once the starter's rights change between two batches", async () => {
      const starterId = await userIdOf(app.t, PERSONAS.adminClinique);
      const ids: string[] = [];
      for (let i = 0; i < 10; i += 1) ids.push((await freshUser()).user.id);
      const started = await start(PERSONAS.adminClinique, 'deactivate', ids);
      await drainFor(4);
      expect((await report(started.body.id)).filter((r) => r.outcome !== null)).toHaveLength(4);
      await db().updateTable('users').set({ is_active: false }).where('id', '=', starterId).execute();
      try {
        await app.t.app.bulkActions.drain();
      } finally {
        await db().updateTable('users').set({ is_active: true }).where('id', '=', starterId).execute();
      }
      expect((await report(started.body.id)).map((r) => r.reason)).toEqual([...ids.slice(0, 4).map(() => null), ...ids.slice(4).map(() => MESSAGES.inactive)]);
      expect((await journal(ids)).map((e) => e.entity_id)).toEqual(ids.slice(0, 4));
    });

    it('leaves nothing half-written when a batch fails mid-way, and does its persons one by one', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) ids.push((await freshUser()).user.id);
      const before = await versions(ids);
      const counts = async () => (await sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from user_counts where not is_active`.execute(db())).rows[0]!.n;
      const inactiveBefore = Number(await counts());
      // The journal refuses any statement writing more than one entry: the batch fails after its users were changed.
      await sql`create function refuse_many_entries() returns trigger language plpgsql as $$
        begin if (select count(*) from new_rows) > 1 then raise exception 'panne simulée au milieu du lot'; end if; return null; end $$`.execute(db());
      await sql`create trigger refuse_many_entries after insert on audit_log referencing new table as new_rows for each statement execute function refuse_many_entries()`.execute(db());
      try {
        const started = await start(PERSONAS.adminClinique, 'deactivate', ids);
        await app.t.app.bulkActions.drain();
        // Each person done once, by their own unit of work: no version bumped twice, one entry each, no failure counted.
        expect((await report(started.body.id)).map((r) => [r.outcome, r.failures])).toEqual(ids.map(() => ['succeeded', 0]));
        expect(await versions(ids)).toEqual(before.map((v) => v! + 1));
        expect((await journal(ids)).map((e) => e.entity_id).sort()).toEqual([...ids].sort());
        expect(Number(await counts())).toBe(inactiveBefore + ids.length);
      } finally {
        await sql`drop trigger refuse_many_entries on audit_log`.execute(db());
        await sql`drop function refuse_many_entries()`.execute(db());
      }
    });
  });
}

for (const backend of backends.filter((b) => b.name === 'postgres')) {
  describe(`a change of the starter's rights during a batch, on ${backend.name}`, () => {
    const { app, db, freshUser } = usersAppFor(backend);

    it('makes the batch wait for it, and the batch then refuses every person', async () => {
      const starterId = await userIdOf(app.t, PERSONAS.adminClinique);
      const held = await db().selectFrom('role_assignments').selectAll().where('user_id', '=', starterId).execute();
      const ids = [(await freshUser()).user.id, (await freshUser()).user.id];
      const started = await callApi(app.t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'deactivate', userIds: ids } });
      const other = await app.t.database.openAnother();
      // The starter's role is being removed (not committed yet) when the batch starts: the batch waits for it.
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => (commit = resolve));
      const removal = other.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('role_assignments').where('user_id', '=', starterId).execute();
        await committed;
      });
      try {
        await vi.waitFor(async () => expect(await db().selectFrom('role_assignments').select('id').where('user_id', '=', starterId).forUpdate().skipLocked().execute()).toEqual([]));
        const drained = app.t.app.bulkActions.drain();
        await vi.waitFor(
          async () => {
            const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db());
            expect(rows[0]!.n).toBeGreaterThan(0);
          },
          { timeout: 10_000 },
        );
        commit();
        await removal;
        await drained;
        const outcomes = await db().selectFrom('bulk_action_targets').select('outcome').where('bulk_action_id', '=', started.body.id).execute();
        expect(outcomes.map((o) => o.outcome)).toEqual(['refused', 'refused']);
      } finally {
        commit();
        await removal;
        await other.close();
        await db().insertInto('role_assignments').values(held.map(({ id: _id, ...rest }: Record<string, unknown>) => rest) as never).execute();
      }
    });
  });
}

for (const backend of backends) {
  describe(`a batch and Microsoft Graph on ${backend.name}`, () => {
    const app = usersAppOnGraph(backend);
    let objectId = 0;
    let refused = '';
    beforeAll(() => {
      app.graph.answer((call: GraphCall) => {
        if (call.method === 'POST' && call.path === '/v1.0/users') return { status: 201, body: { id: `lot-${++objectId}` } };
        if (call.method === 'PATCH' && call.path === `/v1.0/users/${refused}` && call.body.includes('"accountEnabled":false')) return { status: 403, body: { error: { code: 'Authorization_RequestDenied', message: 'refusé' } } };
        if (call.method === 'POST') return { status: 200, body: { value: true } };
        return { status: 204 };
      });
    });

    it('tells Graph as the single action does; a batch failing there puts back what it changed, then its persons are done one by one', async () => {
      const persons: { id: string; subject: string }[] = [];
      for (let i = 0; i < 3; i += 1) {
        const created = await createUserAs(app.t, PERSONAS.backoffice, [app.orgs.cliniqueSirets[0]!.code], [app.roles.COMPTABLE!]);
        const { auth_id } = await app.t.database.handle.db.selectFrom('users').select('auth_id').where('id', '=', created.user.id).executeTakeFirstOrThrow();
        persons.push({ id: created.user.id, subject: auth_id! });
      }
      const [s1, s2, s3] = persons.map((p) => p.subject);
      refused = s3!;
      const from = app.graph.calls.length;
      const started = await callApi(app.t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'deactivate', userIds: persons.map((p) => p.id) } });
      await app.t.app.bulkActions.drain();
      const calls = app.graph.calls.slice(from).map((c) => `${c.method} ${c.path} ${c.body}`);
      const disable = (s: string) => `PATCH /v1.0/users/${s} {"accountEnabled":false}`;
      const enable = (s: string) => `PATCH /v1.0/users/${s} {"accountEnabled":true}`;
      const revoke = (s: string) => `POST /v1.0/users/${s}/revokeSignInSessions `;
      expect(calls).toEqual([
        // The batch: as the single action, account by account; the third refused, the two changed put back.
        disable(s1!), revoke(s1!), disable(s2!), revoke(s2!), disable(s3!), enable(s2!), enable(s1!),
        // Then each person in their own unit of work, as the single action: the third refused with its answer.
        disable(s1!), revoke(s1!), disable(s2!), revoke(s2!), disable(s3!),
      ]);
      const read = await callApi(app.t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users/bulk-actions/{id}', params: { id: started.body.id } });
      expect(read.body).toMatchObject({ status: 'completed', processed: 3, succeeded: 2 });
      const alone = await callApi(app.t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: persons[2]!.id } });
      expect(alone.status).toBeGreaterThanOrEqual(400);
      expect(read.body.refusals).toEqual([expect.objectContaining({ userId: persons[2]!.id, reason: alone.body.message })]);
      const active = await app.t.database.handle.db.selectFrom('users').select('is_active').where('id', 'in', persons.map((p) => p.id)).orderBy('is_active').execute();
      expect(active.map((r) => r.is_active)).toEqual([false, false, true]);
    });
  });
}
