// The local provider's storage (migration 0007, oidc_payloads): sessions, interactions, codes, tokens and grants
// in the database, so that a sign-in begun on one node finishes on another and survives a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOidcAdapter, purgeExpiredOidcPayloads } from '../../server/dev-idp/oidc-adapter.ts';
import { migrate } from '../../server/db/migrate.ts';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';

describe.each(backends)('the local provider’s adapter on $name', (backend) => {
  let testDb: TestDatabase;
  let now = Date.parse('2026-03-02T09:00:00Z');
  let adapterFor: ReturnType<typeof createOidcAdapter>;
  const epoch = () => Math.floor(now / 1000);

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    adapterFor = createOidcAdapter(testDb.handle.db, { now: () => now });
  }, 60_000);
  afterAll(() => testDb?.dispose());

  it('finds what it stored by model and id, replaced by a second upsert, and nothing of another model', async () => {
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('code-1', { accountId: 'sub-1', grantId: 'g-1', scope: 'openid' }, 60);
    expect(await codes.find('code-1')).toEqual({ accountId: 'sub-1', grantId: 'g-1', scope: 'openid' });
    await codes.upsert('code-1', { accountId: 'sub-1', grantId: 'g-1', scope: 'openid email' }, 60);
    expect(await codes.find('code-1')).toEqual({ accountId: 'sub-1', grantId: 'g-1', scope: 'openid email' });
    expect(await adapterFor('AccessToken').find('code-1')).toBeUndefined();
    expect(await codes.find('no-such-code')).toBeUndefined();
  });

  it('keeps a payload until it expires, and one without a lifetime for good', async () => {
    const interactions = adapterFor('Interaction');
    await interactions.upsert('i-1', { uid: 'i-1', kind: 'Interaction' }, 10);
    await adapterFor('Client').upsert('client-x', { client_id: 'client-x' });
    now += 9_999;
    expect(await interactions.find('i-1')).toEqual({ uid: 'i-1', kind: 'Interaction' });
    now += 1;
    expect(await interactions.find('i-1')).toBeUndefined();
    now += 365 * 24 * 3600_000;
    expect(await adapterFor('Client').find('client-x')).toEqual({ client_id: 'client-x' });
  });

  it('marks a payload consumed, with the time of its consumption', async () => {
    const codes = adapterFor('AuthorizationCode');
    await codes.upsert('code-2', { accountId: 'sub-2', grantId: 'g-2' }, 60);
    await codes.consume('code-2');
    expect(await codes.find('code-2')).toEqual({ accountId: 'sub-2', grantId: 'g-2', consumed: epoch() });
  });

  it('finds a session by its uid and a device code by its user code', async () => {
    await adapterFor('Session').upsert('session-1', { uid: 'uid-1', accountId: 'sub-3' }, 3600);
    expect(await adapterFor('Session').findByUid('uid-1')).toEqual({ uid: 'uid-1', accountId: 'sub-3' });
    expect(await adapterFor('Session').findByUid('uid-2')).toBeUndefined();
    await adapterFor('DeviceCode').upsert('device-1', { userCode: 'ABCD-EFGH', grantId: 'g-4' }, 600);
    expect(await adapterFor('DeviceCode').findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH', grantId: 'g-4' });
  });

  it('destroys one payload, and revokes by grant the tokens of its own model only', async () => {
    await adapterFor('Grant').upsert('g-5', { accountId: 'sub-5', clientId: 'c' }, 3600);
    await adapterFor('AccessToken').upsert('at-5', { grantId: 'g-5' }, 3600);
    await adapterFor('RefreshToken').upsert('rt-5', { grantId: 'g-5' }, 3600);
    await adapterFor('AccessToken').upsert('at-6', { grantId: 'g-6' }, 3600);
    await adapterFor('AccessToken').revokeByGrantId('g-5');
    expect(await adapterFor('AccessToken').find('at-5')).toBeUndefined();
    expect(await adapterFor('AccessToken').find('at-6')).toEqual({ grantId: 'g-6' });
    expect(await adapterFor('RefreshToken').find('rt-5')).toEqual({ grantId: 'g-5' });
    await adapterFor('Grant').destroy('g-5');
    expect(await adapterFor('Grant').find('g-5')).toBeUndefined();
  });

  it('drops NUL characters from what it stores (PostgreSQL refuses them in text), and finds nothing under an id holding one', async () => {
    const interactions = adapterFor('Interaction');
    await interactions.upsert('i-nul', { uid: 'i-nul', params: { state: 'a\u0000b', nonce: 'n\\u0000' } }, 60);
    expect(await interactions.find('i-nul')).toEqual({ uid: 'i-nul', params: { state: 'ab', nonce: 'n\\u0000' } });
    expect(await adapterFor('AuthorizationCode').find('code\u0000')).toBeUndefined();
    expect(await adapterFor('Session').findByUid('uid\u0000')).toBeUndefined();
    await adapterFor('AuthorizationCode').consume('code\u0000');
    await adapterFor('AuthorizationCode').destroy('code\u0000');
  });

  it('deletes expired payloads, and those only', async () => {
    await testDb.handle.db.deleteFrom('oidc_payloads').execute();
    await adapterFor('Session').upsert('short', { uid: 'u-short' }, 60);
    await adapterFor('Session').upsert('long', { uid: 'u-long' }, 3600);
    await adapterFor('Client').upsert('forever', { client_id: 'forever' });
    now += 60_000;
    expect(await purgeExpiredOidcPayloads(testDb.handle.db, { now: () => now })).toBe(1);
    const left = await testDb.handle.db.selectFrom('oidc_payloads').select('id').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(['forever', 'long']);
  });
});
