// A remote identity directory (Microsoft Graph) does not roll back with the database: what it changed
// for a change whose commit failed is put back, and a permanent delete removes the account only once the
// user is gone (security review, item 6).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely, Transaction } from 'kysely';
import { backends } from './db/test-databases.ts';
import { commitFailureSwitch } from './support/commit-failure.ts';
import { fixtures } from './support/fixtures.ts';
import { PERSONAS, startUsersApp, type DemoOrganizations } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';
import type { Database } from '../../server/db/schema.ts';
import { IdentityDirectoryError, type CreatedAccount, type IdentityDirectory } from '../../server/identity/directory.ts';

type AccountState = 'enabled' | 'disabled' | 'deleted';

/** A directory outside the database, as Graph is: it records its calls and the state of each account it was told about. */
class RemoteDirectory implements IdentityDirectory {
  readonly kind = 'graph' as const;
  readonly calls: string[] = [];
  readonly accounts = new Map<string, AccountState>();
  /** Calls (by name) that fail, as an unreachable Graph would. */
  readonly failing = new Set<string>();

  stateOf(subject: string): AccountState {
    return this.accounts.get(subject) ?? 'enabled';
  }

  private step(name: string, subject: string, state?: AccountState): void {
    this.calls.push(`${name} ${subject}`);
    if (this.failing.has(name)) throw new IdentityDirectoryError(`${name} refusé`);
    if (state) this.accounts.set(subject, state);
  }

  async createAccount(_trx: Transaction<Database>): Promise<CreatedAccount> {
    const subject = randomUUID();
    this.step('create', subject, 'enabled');
    return { subject, reused: false };
  }
  async disableAccount(_trx: Kysely<Database>, subject: string) {
    this.step('disable', subject, 'disabled');
  }
  async enableAccount(_trx: Kysely<Database>, subject: string) {
    this.step('enable', subject, 'enabled');
  }
  async deleteAccount(_trx: Kysely<Database>, subject: string) {
    this.step('delete', subject, 'deleted');
  }
  async revokeSessions(_trx: Kysely<Database>, subject: string) {
    this.step('revoke', subject);
  }
  async updateAccount(_trx: Kysely<Database>, subject: string) {
    this.step('update', subject);
  }
}

for (const backend of backends) {
  describe(`undoing the identity directory's changes on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations;
    let failCommits: Awaited<ReturnType<typeof commitFailureSwitch>>;
    const remote = new RemoteDirectory();
    const lines: string[] = [];
    beforeAll(async () => {
      ({ t, orgs } = await startUsersApp(backend, { directory: remote, env: { LOG_LEVEL: 'error' }, logStream: { write: (line) => lines.push(line) } }));
      failCommits = await commitFailureSwitch(t.database.handle);
    });
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    const clinicUser = (active = true) => fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE', active });
    /** The call as the back office, its answer unchecked (a failed commit answers 500, which the contract does not list). */
    const call = async (method: 'POST' | 'DELETE', url: string) => (await t.app.inject({ method, url, headers: { authorization: `Bearer ${await t.tokenFor(PERSONAS.backoffice)}` } })).statusCode;
    const callsDuring = async (work: () => Promise<number>) => {
      const from = remote.calls.length;
      const status = await work();
      return { status, calls: remote.calls.slice(from) };
    };
    const userRow = (id: string) => db().selectFrom('users').select(['is_active']).where('id', '=', id).executeTakeFirst();

    it('enables the account again when a deactivation fails to commit', async () => {
      const user = await clinicUser();
      const { status, calls } = await callsDuring(() => failCommits.during(() => call('POST', `/api/v2/users/${user.id}/deactivate`)));
      expect(status).toBe(500);
      expect(calls).toEqual([`disable ${user.subject}`, `revoke ${user.subject}`, `enable ${user.subject}`]);
      expect(remote.stateOf(user.subject)).toBe('enabled');
      expect(await userRow(user.id)).toEqual({ is_active: true });
    });

    it('disables the account again when a reactivation fails to commit', async () => {
      const user = await clinicUser(false);
      remote.accounts.set(user.subject, 'disabled');
      const { status, calls } = await callsDuring(() => failCommits.during(() => call('POST', `/api/v2/users/${user.id}/reactivate`)));
      expect(status).toBe(500);
      expect(calls).toEqual([`enable ${user.subject}`, `disable ${user.subject}`]);
      expect(remote.stateOf(user.subject)).toBe('disabled');
    });

    it('disables the account with the permanent delete, and deletes it once committed', async () => {
      const user = await clinicUser();
      const { status, calls } = await callsDuring(() => call('DELETE', `/api/v2/users/${user.id}?hardDelete=true`));
      expect(status).toBe(204);
      expect(calls).toEqual([`disable ${user.subject}`, `revoke ${user.subject}`, `delete ${user.subject}`]);
      expect(remote.stateOf(user.subject)).toBe('deleted');
      expect(await userRow(user.id)).toBeUndefined();
    });

    it('never deletes the account of a user whose permanent delete failed to commit, and enables it again', async () => {
      const user = await clinicUser();
      const { status, calls } = await callsDuring(() => failCommits.during(() => call('DELETE', `/api/v2/users/${user.id}?hardDelete=true`)));
      expect(status).toBe(500);
      expect(calls).toEqual([`disable ${user.subject}`, `revoke ${user.subject}`, `enable ${user.subject}`]);
      expect(remote.stateOf(user.subject)).toBe('enabled');
      expect(await userRow(user.id)).toEqual({ is_active: true });
    });

    it('logs a remote delete failing after the commit, and leaves the account disabled', async () => {
      const user = await clinicUser();
      remote.failing.add('delete');
      try {
        const from = lines.length;
        const { status } = await callsDuring(() => call('DELETE', `/api/v2/users/${user.id}?hardDelete=true`));
        expect(status).toBe(204);
        expect(await userRow(user.id)).toBeUndefined();
        expect(remote.stateOf(user.subject)).toBe('disabled');
        const logged = lines.slice(from).map((line) => JSON.parse(line) as { level: number; userId?: string; msg: string });
        expect(logged).toContainEqual(expect.objectContaining({ level: 50, userId: user.id, msg: expect.stringContaining('reste à supprimer') }));
      } finally {
        remote.failing.delete('delete');
      }
    });

    it("writes the directory's failure after the commit with the request's id", async () => {
      const user = await clinicUser();
      remote.failing.add('delete');
      try {
        const from = lines.length;
        expect(await call('DELETE', `/api/v2/users/${user.id}?hardDelete=true`)).toBe(204);
        const logged = lines.slice(from).map((line) => JSON.parse(line) as { level: number; userId?: string; reqId?: string });
        expect(logged).toContainEqual(expect.objectContaining({ level: 50, userId: user.id, reqId: expect.any(String) }));
      } finally {
        remote.failing.delete('delete');
      }
    });
  });
}
