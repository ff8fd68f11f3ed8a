// Serialization failures and deadlocks (SQLSTATE 40001, 40P01) are retried once inside the unit of work, the
// whole work run again; then answered 409 (serialization) or 503 (deadlock), never 500 (issue 19).
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.ts';
import { inTransaction } from '../../server/db/unit-of-work.ts';
import type { CreatedAccount, IdentityDirectory } from '../../server/identity/directory.ts';
import { backends } from './db/test-databases.ts';
import { callApi } from './support/api.ts';
import { transactionConflictSwitch } from './support/transaction-conflict.ts';
import { completePayload, PERSONAS, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

const conflictError = (code: string) => Object.assign(new Error(`conflict ${code}`), { code });

for (const backend of backends) {
  describe(`a transaction given up for another on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    let conflicts: Awaited<ReturnType<typeof transactionConflictSwitch>>;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      conflicts = await transactionConflictSwitch(t.database.handle);
    });
    afterAll(() => t?.close());

    const create = (email: string) =>
      callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/complete', payload: completePayload([orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email }) });
    const written = async (email: string) => {
      const db = t.database.handle.db;
      const users = await db.selectFrom('users').select('id').where('email', '=', email).execute();
      const audit = users.length ? await db.selectFrom('audit_log').select('id').where('entity_id', '=', users[0]!.id).execute() : [];
      const mails = await db.selectFrom('outbox').select('id').where('recipient', '=', email).execute();
      return { users: users.length, audit: audit.length, mails: mails.length };
    };

    it.each(['40001', '40P01'] as const)('runs the whole work again after one %s at commit: created once, one audit entry, one e-mail', async (sqlstate) => {
      const email = `retry.${sqlstate.toLowerCase()}.${Date.now()}@exemple.fr`;
      const { result, failures } = await conflicts.during(sqlstate, 1, () => create(email));
      expect(failures).toBe(1);
      expect(result.status).toBe(201);
      expect(await written(email)).toEqual({ users: 1, audit: 1, mails: 1 });
    });

    it('answers 409 in French when the serialization failure comes back on the retry, and writes nothing', async () => {
      const email = `retry.twice.${Date.now()}@exemple.fr`;
      const { result, failures } = await conflicts.during('40001', 5, () => create(email));
      expect(failures).toBe(2);
      expect(result.status).toBe(409);
      expect(result.body.message).toBe('Ces données ont été modifiées au même moment par une autre requête. Rechargez la page puis réessayez.');
      expect(await written(email)).toEqual({ users: 0, audit: 0, mails: 0 });
    });

    it('answers 503 with Retry-After when the deadlock comes back on the retry, and writes nothing', async () => {
      const email = `retry.deadlock.${Date.now()}@exemple.fr`;
      const { result, failures } = await conflicts.during('40P01', 5, () => create(email));
      expect(failures).toBe(2);
      expect(result.status).toBe(503);
      expect(result.headers['retry-after']).toBe('5');
      expect(await written(email)).toEqual({ users: 0, audit: 0, mails: 0 });
    });
  });
}

/** A directory outside the database, as Graph is: it records its calls and cannot roll back with a transaction. */
class RemoteDirectory implements IdentityDirectory {
  readonly kind = 'graph' as const;
  readonly calls: string[] = [];
  async createAccount(_trx: Transaction<Database>): Promise<CreatedAccount> {
    const subject = randomUUID();
    this.calls.push(`create ${subject}`);
    return { subject, reused: false };
  }
  async disableAccount(_db: Kysely<Database>, subject: string) {
    this.calls.push(`disable ${subject}`);
  }
  async enableAccount(_db: Kysely<Database>, subject: string) {
    this.calls.push(`enable ${subject}`);
  }
  async deleteAccount(_db: Kysely<Database>, subject: string) {
    this.calls.push(`delete ${subject}`);
  }
  async updateAccount(_db: Kysely<Database>, subject: string) {
    this.calls.push(`update ${subject}`);
  }
  async revokeSessions(_db: Kysely<Database>, subject: string) {
    this.calls.push(`revoke ${subject}`);
  }
}

describe('a retried unit of work with a remote identity directory', () => {
  let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
  let conflicts: Awaited<ReturnType<typeof transactionConflictSwitch>>;
  const remote = new RemoteDirectory();
  beforeAll(async () => {
    ({ t, orgs, roles } = await startUsersApp(backends[0]!, { directory: remote }));
    conflicts = await transactionConflictSwitch(t.database.handle);
  });
  afterAll(() => t?.close());

  it("deletes the first attempt's remote account before creating the user again: one account left, the user's", async () => {
    const email = `retry.remote.${Date.now()}@exemple.fr`;
    remote.calls.length = 0;
    const { result } = await conflicts.during('40001', 1, () =>
      callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/complete', payload: completePayload([orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email }) }),
    );
    expect(result.status).toBe(201);
    const [first, second] = remote.calls.filter((c) => c.startsWith('create ')).map((c) => c.slice('create '.length));
    expect(remote.calls).toEqual([`create ${first}`, `delete ${first}`, `create ${second}`]);
    const user = await t.database.handle.db.selectFrom('users').select('auth_id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.auth_id).toBe(second);
  });

  it('puts a remote account back as it was before deactivating it again', async () => {
    const id = await userIdOf(t, PERSONAS.rhClinique);
    const subject = (await t.database.handle.db.selectFrom('users').select('auth_id').where('id', '=', id).executeTakeFirstOrThrow()).auth_id;
    remote.calls.length = 0;
    const { result } = await conflicts.during('40P01', 1, () => callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } }));
    expect(result.status).toBe(200);
    // Each deactivation also ends the person's sessions (issue 19); the undo of the first attempt only enables again.
    expect(remote.calls).toEqual([`disable ${subject}`, `revoke ${subject}`, `enable ${subject}`, `disable ${subject}`, `revoke ${subject}`]);
  });
});

describe('the unit of work retrying a serialization failure or a deadlock', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await startUsersApp(backends[0]!));
  });
  afterAll(() => t?.close());

  it("undoes the first attempt's remote steps before running the work again, and runs only the second's afterCommit", async () => {
    const events: string[] = [];
    let attempt = 0;
    const result = await inTransaction(t.database.handle.db, async (uow) => {
      attempt += 1;
      const n = attempt;
      events.push(`work ${n}`);
      uow.onRollback({ what: 'undo remote change', run: () => void events.push(`undo ${n}`) });
      uow.afterCommit({ what: 'announce', run: () => void events.push(`after commit ${n}`) });
      if (n === 1) throw conflictError('40P01');
      return n;
    });
    expect(result).toBe(2);
    expect(events).toEqual(['work 1', 'undo 1', 'work 2', 'after commit 2']);
  });

  it('gives up after the retry, with the error and its SQLSTATE', async () => {
    let attempts = 0;
    const outcome = inTransaction(t.database.handle.db, async () => {
      attempts += 1;
      throw conflictError('40001');
    });
    await expect(outcome).rejects.toMatchObject({ code: '40001' });
    expect(attempts).toBe(2);
  });

  it('runs the work only once when an undo step failed (the remote state is no longer known), or for any other error', async () => {
    const logged: string[] = [];
    let attempts = 0;
    const undoFails = inTransaction(
      t.database.handle.db,
      async (uow) => {
        attempts += 1;
        uow.onRollback({ what: 'deleteAccount', run: () => Promise.reject(new Error('Graph unreachable')) });
        throw conflictError('40001');
      },
      { error: (_details, message) => void logged.push(message) },
    );
    await expect(undoFails).rejects.toMatchObject({ code: '40001' });
    expect(attempts).toBe(1);
    expect(logged).toEqual(['étape « deleteAccount » en échec']);

    let others = 0;
    await expect(
      inTransaction(t.database.handle.db, async () => {
        others += 1;
        throw Object.assign(new Error('duplicate'), { code: '23505' });
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(others).toBe(1);
  });
});
