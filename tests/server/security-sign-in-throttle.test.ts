// Password guessing on the local provider's sign-in form: after 5 failures for one account (e-mail, any case)
// less than a minute apart, from any address, each further attempt waits a delay that doubles (15, 30, then
// 60 s at most, never a lockout longer than a minute), even with the right password; other accounts do not.
// Changing address does not help (issue 19: before, the count was per account and address).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { createSignInThrottle, TOO_MANY_SIGN_IN_ATTEMPTS } from '../../server/dev-idp/sign-in-throttle.ts';
import { createHitCounter } from '../../server/db/rate-limit-hits.ts';
import { migrate } from '../../server/db/migrate.ts';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { openSignInForm } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { PERSONAS } from './support/users-api.ts';

const WRONG = 'Pas-le-bon-mot-de-passe';
const INCORRECT = 'Adresse email ou mot de passe incorrect.';

// The form's answers on PGlite; the counts' storage on every backend below (and across two server processes in concurrency.test.ts).
describe('the local sign-in form under password guessing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ name: 'pglite' });
  });
  afterAll(() => t?.close());
  afterEach(() => vi.useRealTimers());

  /** Five wrong passwords for this account from this address, each refused as incorrect (401). */
  async function failFiveTimes(email: string, address: string) {
    const form = await openSignInForm(t, address);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const answer = await form.post(attempt % 2 ? email : email.toUpperCase(), WRONG);
      expect(answer.statusCode, `attempt ${attempt}`).toBe(401);
      expect(answer.body).toContain(INCORRECT);
    }
  }
  const signsIn = async (email: string, address: string) => (await (await openSignInForm(t, address)).post(email, DEMO_PASSWORD)).statusCode === 303;

  it('refuses the sixth attempt of the minute with 429 and a French message, even with the right password', async () => {
    await failFiveTimes(PERSONAS.lecteur, '10.1.0.1');
    const answer = await (await openSignInForm(t, '10.1.0.1')).post('Lecteur@Portail.TEST', DEMO_PASSWORD);
    expect(answer.statusCode).toBe(429);
    expect(answer.headers['content-type']).toContain('text/html');
    expect(answer.body).toContain(TOO_MANY_SIGN_IN_ATTEMPTS);
    expect(answer.body).toContain('role="alert"');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(answer.headers.location).toBeUndefined();
  });

  it('refuses the account from every address once it failed five times, each from another address; other accounts stay free', async () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await (await openSignInForm(t, `10.2.0.${attempt}`)).post(PERSONAS.backoffice, WRONG)).statusCode).toBe(401);
    }
    expect((await (await openSignInForm(t, '10.2.0.99')).post(PERSONAS.backoffice, DEMO_PASSWORD)).statusCode).toBe(429);
    expect((await (await openSignInForm(t, '10.2.0.1')).post(PERSONAS.backoffice, DEMO_PASSWORD)).statusCode).toBe(429);
    expect(await signsIn(PERSONAS.adminClinique, '10.2.0.1')).toBe(true);
  });

  it('counts four failures and a success as no block: the success clears the account’s failures', async () => {
    const form = await openSignInForm(t, '10.3.0.1');
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await form.post(PERSONAS.rhClinique, WRONG)).statusCode).toBe(401);
    expect(await signsIn(PERSONAS.rhClinique, '10.3.0.1')).toBe(true);
    const again = await openSignInForm(t, '10.3.0.1');
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await again.post(PERSONAS.rhClinique, WRONG)).statusCode).toBe(401);
    expect(await signsIn(PERSONAS.rhClinique, '10.3.0.1')).toBe(true);
  });

  it('lets the account try again once its delay is over: 15 s after the fifth failure, 30 s after the sixth', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    await failFiveTimes(PERSONAS.adminEhpad, '10.4.0.1');
    expect(await signsIn(PERSONAS.adminEhpad, '10.4.0.2')).toBe(false);
    vi.setSystemTime(Date.now() + 15_500);
    expect((await (await openSignInForm(t, '10.4.0.3')).post(PERSONAS.adminEhpad, WRONG)).statusCode).toBe(401);
    const refused = await (await openSignInForm(t, '10.4.0.1')).post(PERSONAS.adminEhpad, DEMO_PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(30);
    vi.setSystemTime(Date.now() + 30_500);
    expect(await signsIn(PERSONAS.adminEhpad, '10.4.0.1')).toBe(true);
  });
});

describe.each(backends)('the sign-in throttle’s counts on $name', (backend) => {
  let testDb: TestDatabase;
  let now = 1_000;
  const clock = { now: () => now };
  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
  }, 60_000);
  afterAll(() => testDb?.dispose());

  it('makes each failure after the fifth wait twice as long, 60 s at most, and forgets after a quiet minute', async () => {
    const throttle = createSignInThrottle({ counter: createHitCounter(testDb.handle.db, clock) });
    const blocked = () => throttle.secondsBlocked('quelqu.un@exemple.fr');
    for (let i = 0; i < 4; i += 1) await throttle.recordFailure(' Quelqu.Un@Exemple.fr ');
    expect(await blocked()).toBe(0);
    await throttle.recordFailure('QUELQU.UN@exemple.fr');
    expect(await blocked()).toBe(15);
    now += 14_500;
    expect(await blocked()).toBe(1);
    now += 500;
    expect(await blocked()).toBe(0);
    const waits: number[] = [];
    for (let failure = 6; failure <= 9; failure += 1) {
      await throttle.recordFailure('quelqu.un@exemple.fr');
      const wait = await blocked();
      waits.push(wait);
      now += wait * 1000;
    }
    expect(waits).toEqual([30, 60, 60, 60]);
    // A minute without a failure after the last wait: the count starts again.
    now += 60_000;
    await throttle.recordFailure('quelqu.un@exemple.fr');
    expect(await blocked()).toBe(0);
  });

  it('keeps its counts in the database: another node’s throttle sees them, and a success there clears them', async () => {
    const other = backend.name === 'postgres' ? await testDb.openAnother() : testDb.handle;
    const here = createSignInThrottle({ counter: createHitCounter(testDb.handle.db, clock) });
    const there = createSignInThrottle({ counter: createHitCounter(other.db, clock) });
    for (let i = 0; i < 5; i += 1) await (i % 2 ? there : here).recordFailure('vise@exemple.fr');
    expect(await there.secondsBlocked('vise@exemple.fr')).toBe(15);
    expect(await here.secondsBlocked('vise@exemple.fr')).toBe(15);
    expect(await here.secondsBlocked('autre@exemple.fr')).toBe(0);
    await there.recordSuccess('vise@exemple.fr');
    expect(await here.secondsBlocked('vise@exemple.fr')).toBe(0);
  });
});
