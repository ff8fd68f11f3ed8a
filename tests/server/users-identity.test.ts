import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely, Transaction } from 'kysely';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, confirmEmailChange, createUserAs, PERSONAS, rowCounts, startUsersApp, uniqueEmail, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import { createIdentityAccount, setIdentityPassword, verifyLocalCredentials } from '../../server/identity/local-accounts.ts';
import type { Database } from '../../server/db/schema.ts';
import { IdentityDirectoryError, LocalIdentityDirectory, type IdentityDirectory } from '../../server/identity/directory.ts';

const PASSWORD = 'Mot-de-passe-de-test-2026';
const EMAIL_TAKEN = 'Cette adresse email est déjà utilisée par un autre utilisateur.';

type Db = Transaction<Database> | Kysely<Database>;

/**
 * The local directory, which can pass for a remote one (it cannot join the transaction, so the edit puts back
 * what it changed) and refuse to disable accounts, after the e-mail changed; its account updates are recorded.
 */
class TestDirectory implements IdentityDirectory {
  kind: 'local' | 'graph' = 'local';
  refuseDisable = false;
  readonly updates: { subject: string; email: string; displayName: string }[] = [];
  private readonly local = new LocalIdentityDirectory();
  createAccount(trx: Transaction<Database>, input: { email: string; displayName: string }) {
    return this.local.createAccount(trx, input);
  }
  enableAccount(trx: Transaction<Database>, subject: string) {
    return this.local.enableAccount(trx, subject);
  }
  async disableAccount(trx: Transaction<Database>, subject: string) {
    if (this.refuseDisable) throw new IdentityDirectoryError('directory down');
    return this.local.disableAccount(trx, subject);
  }
  deleteAccount(trx: Db, subject: string) {
    return this.local.deleteAccount(trx, subject);
  }
  revokeSessions(trx: Db, subject: string) {
    return this.local.revokeSessions(trx, subject);
  }
  updateAccount(trx: Db, subject: string, input: { email: string; displayName: string }) {
    this.updates.push({ subject, ...input });
    return this.local.updateAccount(trx, subject, input);
  }
}

for (const backend of backends) {
  describe(`the sign-in account follows the user's email and names on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const directory = new TestDirectory();
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { directory }));
    });
    afterAll(() => t?.close());

    const db = () => t.database.handle.db;
    const siret = () => orgs.cliniqueSirets[0]!;
    const put = (path: '' | '/full-update' | '/complete', id: string, payload: unknown) =>
      callApi(t, { as: PERSONAS.backoffice, method: 'PUT', route: `/api/v2/users/{id}${path}`, params: { id }, payload });
    const details = { jobTitle: 'Comptable', phoneNumber: null, mobilePhone: null, street: null, postalCode: '69003', city: 'Lyon' };
    const fullUpdate = (email: string, overrides: Record<string, unknown> = {}) => ({
      firstName: 'Jeanne', lastName: 'Martin', email, ...details, isActive: true, roleAssignments: [{ organizationId: siret().id, roleIds: [roles.COMPTABLE!] }], ...overrides,
    });

    /** A new user of the clinic who has chosen their password; answers their id, email and identity subject. */
    async function userWithPassword() {
      const created = await createUserAs(t, PERSONAS.backoffice, [siret().code], [roles.COMPTABLE!]);
      const { auth_id } = await db().selectFrom('users').select('auth_id').where('id', '=', created.user.id).executeTakeFirstOrThrow();
      await setIdentityPassword(db(), auth_id!, PASSWORD);
      return { id: created.user.id, email: created.user.email, subject: auth_id! };
    }
    const identity = (subject: string) => db().selectFrom('identity_accounts').select(['email', 'display_name']).where('subject', '=', subject).executeTakeFirstOrThrow();

    it('signs in with the new email and no longer with the old one, after each of updateUser, fullUpdateUser and updateUserComplete', async () => {
      const user = await userWithPassword();
      const edits = [
        { path: '', displayName: 'Annie Morel', payload: { firstName: 'Annie', lastName: 'Morel', email: uniqueEmail('apres.update'), metadata: null } },
        { path: '/full-update', displayName: 'Jeanne Martin', payload: fullUpdate(uniqueEmail('apres.full')) },
        { path: '/complete', displayName: 'Paul Roux', payload: { firstName: 'Paul', lastName: 'Roux', email: uniqueEmail('apres.complete'), ...details, organizationCodes: [siret().code], roleIds: [roles.COMPTABLE!] } },
      ] as const;
      let previous = user.email;
      for (const { path, displayName, payload } of edits) {
        const answer = await put(path, user.id, payload);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        // Issue 19: the sign-in e-mail changes once its owner confirms it, not before.
        expect(await verifyLocalCredentials(db(), payload.email, PASSWORD)).toBeNull();
        expect((await confirmEmailChange(t, payload.email)).status).toBe(200);
        expect(await verifyLocalCredentials(db(), payload.email, PASSWORD)).toEqual({ subject: user.subject, email: payload.email, displayName });
        expect(await verifyLocalCredentials(db(), previous, PASSWORD)).toBeNull();
        previous = payload.email;
      }
    });

    it('keeps the display name in step with a change of names alone', async () => {
      const user = await userWithPassword();
      expect((await put('', user.id, { firstName: 'Annie', lastName: 'Morel', email: user.email, metadata: null })).status).toBe(200);
      expect(await identity(user.subject)).toEqual({ email: user.email, display_name: 'Annie Morel' });
      expect(await verifyLocalCredentials(db(), user.email, PASSWORD)).toMatchObject({ subject: user.subject, displayName: 'Annie Morel' });
    });

    it('refuses (409) to confirm an email another sign-in account holds, whatever its case, and changes nothing', async () => {
      const user = await userWithPassword();
      const taken = uniqueEmail('identite.seule');
      // A sign-in account without a portal user (as a deleted user's would be, had it stayed).
      await createIdentityAccount(db(), { subject: `orphan-${taken}`, email: taken, displayName: 'Personne' });
      // Issue 19: the new address waits for its owner; the sign-in account holding it refuses the confirmation.
      expect((await put('/full-update', user.id, fullUpdate(taken.toUpperCase()))).status).toBe(200);
      const before = { counts: await rowCounts(t), row: await db().selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow() };
      const refused = await confirmEmailChange(t, taken.toUpperCase());
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain(EMAIL_TAKEN);
      expect(await rowCounts(t)).toEqual(before.counts);
      expect(await db().selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow()).toEqual(before.row);
      expect((await identity(user.subject)).email).toBe(user.email);
    });

    it("rolls the account's email back with the rest when the change fails after it, in the same transaction", async () => {
      const user = await userWithPassword();
      const before = await identity(user.subject);
      directory.refuseDisable = true;
      try {
        const { status } = await put('/full-update', user.id, fullUpdate(uniqueEmail('jamais'), { isActive: false }));
        expect(status).toBe(503);
      } finally {
        directory.refuseDisable = false;
      }
      expect(await identity(user.subject)).toEqual(before);
      expect(await verifyLocalCredentials(db(), user.email, PASSWORD)).toMatchObject({ subject: user.subject });
    });

    it('puts a remote account back to its email and name when the change fails after updating it', async () => {
      const user = await userWithPassword();
      const before = await identity(user.subject);
      const email = uniqueEmail('distant');
      directory.kind = 'graph';
      directory.refuseDisable = true;
      directory.updates.length = 0;
      try {
        expect((await put('/full-update', user.id, fullUpdate(email, { isActive: false }))).status).toBe(503);
      } finally {
        directory.kind = 'local';
        directory.refuseDisable = false;
      }
      // Issue 19: the new email waits for its owner's confirmation; the name changes at once.
      expect(directory.updates).toEqual([
        { subject: user.subject, email: before.email, displayName: 'Jeanne Martin' },
        { subject: user.subject, email: before.email, displayName: before.display_name },
      ]);
    });
  });
}
