// Password guessing on the local provider's sign-in form (issue 9, hardening): after 5 failures in a minute
// for one account (e-mail, any case) from one client address, that pair is refused for the rest of the
// minute, even with the right password; other addresses and other accounts are not.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { createSignInThrottle, TOO_MANY_SIGN_IN_ATTEMPTS } from '../../server/dev-idp/sign-in-throttle.ts';
import { openSignInForm } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { PERSONAS } from './support/users-api.ts';

const WRONG = 'Pas-le-bon-mot-de-passe';
const INCORRECT = 'Adresse email ou mot de passe incorrect.';

// The throttle does not depend on the database: PGlite only.
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

  it('leaves the same account from another address, and another account from the same address, free; a success clears no one else', async () => {
    await failFiveTimes(PERSONAS.backoffice, '10.2.0.1');
    expect(await signsIn(PERSONAS.backoffice, '10.2.0.2')).toBe(true);
    expect(await signsIn(PERSONAS.adminClinique, '10.2.0.1')).toBe(true);
    expect((await (await openSignInForm(t, '10.2.0.1')).post(PERSONAS.backoffice, DEMO_PASSWORD)).statusCode).toBe(429);
  });

  it('counts four failures and a success as no block: the success clears its own pair', async () => {
    const form = await openSignInForm(t, '10.3.0.1');
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await form.post(PERSONAS.rhClinique, WRONG)).statusCode).toBe(401);
    expect(await signsIn(PERSONAS.rhClinique, '10.3.0.1')).toBe(true);
    const again = await openSignInForm(t, '10.3.0.1');
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await again.post(PERSONAS.rhClinique, WRONG)).statusCode).toBe(401);
    expect(await signsIn(PERSONAS.rhClinique, '10.3.0.1')).toBe(true);
  });

  it('lets the pair try again once the minute is over', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    await failFiveTimes(PERSONAS.adminEhpad, '10.4.0.1');
    expect(await signsIn(PERSONAS.adminEhpad, '10.4.0.1')).toBe(false);
    vi.setSystemTime(Date.now() + 59_000);
    expect(await signsIn(PERSONAS.adminEhpad, '10.4.0.1')).toBe(false);
    vi.setSystemTime(Date.now() + 2_000);
    expect(await signsIn(PERSONAS.adminEhpad, '10.4.0.1')).toBe(true);
  });
});

describe('the sign-in throttle’s memory', () => {
  it('never holds more pairs than its bound: expired pairs go first, then the oldest', () => {
    let now = 0;
    const throttle = createSignInThrottle({ maxEntries: 100, now: () => now });
    for (let i = 0; i < 5; i += 1) throttle.recordFailure('vise@exemple.fr', '192.0.2.1');
    for (let i = 0; i < 1000; i += 1) throttle.recordFailure(`personne${i}@exemple.fr`, '192.0.2.2');
    expect(throttle.size).toBe(100);
    // The oldest pair (the blocked one) was forgotten for the newest.
    expect(throttle.secondsBlocked('vise@exemple.fr', '192.0.2.1')).toBe(0);
    now = 60_000;
    throttle.recordFailure('nouvelle@exemple.fr', '192.0.2.3');
    expect(throttle.size).toBe(1);
  });

  it('blocks for what is left of the window, rounded up to a second', () => {
    let now = 1_000;
    const throttle = createSignInThrottle({ now: () => now });
    for (let i = 0; i < 5; i += 1) throttle.recordFailure(' Quelqu.Un@Exemple.fr ', '192.0.2.9');
    expect(throttle.secondsBlocked('quelqu.un@exemple.fr', '192.0.2.9')).toBe(60);
    now += 59_500;
    expect(throttle.secondsBlocked('quelqu.un@exemple.fr', '192.0.2.9')).toBe(1);
    now += 500;
    expect(throttle.secondsBlocked('quelqu.un@exemple.fr', '192.0.2.9')).toBe(0);
  });
});
