// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { forgetEmailConfirmation, rememberEmailConfirmation, takeEmailConfirmation } from '../../src/auth/return-after-sign-in';

const token = 'aB3_-'.repeat(8) + 'xyz';

describe('coming back to the e-mail confirmation after signing in', () => {
  afterEach(() => sessionStorage.clear());

  it('goes back to the confirmation page with the remembered token, once', () => {
    rememberEmailConfirmation(token);
    expect(takeEmailConfirmation()).toEqual({ to: '/compte/confirmer-email', search: { token } });
    expect(takeEmailConfirmation()).toBeNull();
  });

  it('remembers nothing of a malformed or missing token, so that the sign-in goes to /dashboard', () => {
    for (const bad of [undefined, '', 'court', `${token}/../../admin`, `${token}a`, 'é'.repeat(43)]) {
      rememberEmailConfirmation(bad);
      expect(takeEmailConfirmation(), String(bad)).toBeNull();
    }
  });

  it('forgets it after 30 minutes, and when the page is shown signed in', () => {
    const now = Date.now();
    rememberEmailConfirmation(token, now);
    expect(takeEmailConfirmation(now + 30 * 60 * 1000 + 1)).toBeNull();
    rememberEmailConfirmation(token, now);
    forgetEmailConfirmation();
    expect(takeEmailConfirmation(now)).toBeNull();
  });

  it('never goes anywhere a stored value names: only the token is read, and checked again', () => {
    sessionStorage.setItem('portail.afterSignIn.emailConfirmation', JSON.stringify({ token: 'https://ailleurs.example/x', until: Date.now() + 1000, to: 'https://ailleurs.example' }));
    expect(takeEmailConfirmation()).toBeNull();
    sessionStorage.setItem('portail.afterSignIn.emailConfirmation', '{not json');
    expect(takeEmailConfirmation()).toBeNull();
  });
});
