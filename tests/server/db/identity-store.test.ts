import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT_PARAMS } from '../../../server/identity/passwords.ts';
import {
  createIdentityAccount,
  DECOY_HASH,
  findIdentityByEmail,
  findIdentityBySubject,
  setIdentityPassword,
  verifyLocalCredentials,
} from '../../../server/identity/local-accounts.ts';
import { migrate } from '../../../server/db/migrate.ts';
import type { Database } from '../../../server/db/schema.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from '../../../server/seed/seed.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';

describe('the decoy hash of unknown accounts', () => {
  it('costs what a stored hash costs: made with the default scrypt parameters', () => {
    const { N, r, p } = DEFAULT_SCRYPT_PARAMS;
    expect(DECOY_HASH.split('$').slice(0, 4)).toEqual(['scrypt', String(N), String(r), String(p)]);
  });
});

describe.each(backends)('local identity store on $name', (backend) => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    await seedDemoData(testDb.handle);
    db = testDb.handle.db;
  }, 120_000);

  afterAll(async () => {
    await testDb?.dispose();
  });

  it('accepts the demo password for each demo account, the inactive one included, and answers its subject', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const user = await db.selectFrom('users').select(['auth_id', 'first_name', 'last_name']).where('email', '=', account.email).executeTakeFirstOrThrow();
      expect(await verifyLocalCredentials(db, account.email, account.password)).toEqual({
        subject: user.auth_id,
        email: account.email,
        displayName: `${user.first_name} ${user.last_name}`,
      });
    }
  });

  it('finds the account whatever the case and surrounding spaces of the email', async () => {
    expect(await verifyLocalCredentials(db, '  BackOffice@Portail.TEST ', DEMO_PASSWORD)).toMatchObject({ email: 'backoffice@portail.test' });
  });

  it('refuses a wrong password', async () => {
    expect(await verifyLocalCredentials(db, 'backoffice@portail.test', 'demo-portail-2026')).toBeNull();
    expect(await verifyLocalCredentials(db, 'backoffice@portail.test', '')).toBeNull();
  });

  it('refuses an unknown email', async () => {
    expect(await verifyLocalCredentials(db, 'personne@portail.test', DEMO_PASSWORD)).toBeNull();
  });

  it('refuses an account that has no password yet', async () => {
    const withoutPassword = await db.selectFrom('identity_accounts').select('email').where('password_hash', 'is', null).executeTakeFirstOrThrow();
    expect(await verifyLocalCredentials(db, withoutPassword.email, DEMO_PASSWORD)).toBeNull();
  });

  it('refuses a disabled account even with the right password', async () => {
    await createIdentityAccount(db, { subject: 'test-disabled', email: 'desactive@portail.test', displayName: 'Compte Désactivé', password: DEMO_PASSWORD, enabled: false });
    expect(await verifyLocalCredentials(db, 'desactive@portail.test', DEMO_PASSWORD)).toBeNull();
    await db.updateTable('identity_accounts').set({ enabled: true }).where('subject', '=', 'test-disabled').execute();
    expect(await verifyLocalCredentials(db, 'desactive@portail.test', DEMO_PASSWORD)).toMatchObject({ subject: 'test-disabled' });
  });

  it('lets an account sign in once a password is set, and no longer once it is removed', async () => {
    await createIdentityAccount(db, { subject: 'test-new', email: 'Nouveau.Compte@portail.test', displayName: 'Nouveau Compte' });
    expect(await findIdentityByEmail(db, 'nouveau.compte@portail.test')).toMatchObject({ subject: 'test-new', hasPassword: false, enabled: true });
    expect(await verifyLocalCredentials(db, 'nouveau.compte@portail.test', 'Un-Mot-De-Passe-1')).toBeNull();
    expect(await setIdentityPassword(db, 'test-new', 'Un-Mot-De-Passe-1')).toBe(true);
    expect(await verifyLocalCredentials(db, 'nouveau.compte@portail.test', 'Un-Mot-De-Passe-1')).toMatchObject({ subject: 'test-new' });
    expect(await setIdentityPassword(db, 'test-new', null)).toBe(true);
    expect(await verifyLocalCredentials(db, 'nouveau.compte@portail.test', 'Un-Mot-De-Passe-1')).toBeNull();
    expect(await setIdentityPassword(db, 'no-such-subject', 'x')).toBe(false);
  });

  it('finds identities by subject and by email, without exposing the password hash', async () => {
    const user = await db.selectFrom('users').select(['auth_id']).where('email', '=', 'lecteur@portail.test').executeTakeFirstOrThrow();
    const bySubject = await findIdentityBySubject(db, user.auth_id!);
    expect(bySubject).toEqual({
      subject: user.auth_id,
      email: 'lecteur@portail.test',
      displayName: expect.any(String),
      enabled: true,
      hasPassword: true,
      createdAt: expect.any(Date),
      // Issue 19: when the account's sessions were last ended (never, here).
      sessionsRevokedAt: null,
    });
    expect(await findIdentityByEmail(db, 'LECTEUR@portail.test')).toEqual(bySubject);
    expect(await findIdentityBySubject(db, 'no-such-subject')).toBeNull();
    expect(await findIdentityByEmail(db, 'no-such@portail.test')).toBeNull();
  });
});
