// Password guessing on the local sign-in form. After 5 failures for one account less than a minute apart, from
// whatever addresses, each further attempt of that account waits a delay: 15 s after the fifth failure, then
// twice the last one, 60 s at most; meanwhile its password is not even checked. A lockout never lasts longer
// than a minute (the owner can always get in soon), and a quiet minute after the last wait forgets the failures. Counting per
// account rather than per account and address: a guesser changing address gains nothing.
// The counts are the database's (rate_limit_hits, server/db/rate-limit-hits.ts): every node of a cluster counts
// the same failures, whichever node the balancer sends each attempt to.
import type { HitCounter } from '../db/rate-limit-hits.ts';

export const TOO_MANY_SIGN_IN_ATTEMPTS = 'Trop de tentatives de connexion. Réessayez dans une minute.';

export interface SignInThrottleOptions {
  counter: HitCounter;
  /** Failures allowed before the delays begin. */
  maxFailures?: number;
  /** Failures further apart than this are forgotten. */
  windowMs?: number;
  /** The delay after the maxFailures-th failure; each further failure doubles it. */
  firstDelayMs?: number;
  /** The longest delay. */
  maxDelayMs?: number;
}

export interface SignInThrottle {
  /** Seconds until this account may try again; 0 when it may now. */
  secondsBlocked(email: string): Promise<number>;
  recordFailure(email: string): Promise<void>;
  /** The account signed in: its failures are forgotten. */
  recordSuccess(email: string): Promise<void>;
}

export function createSignInThrottle(options: SignInThrottleOptions): SignInThrottle {
  const { counter } = options;
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const firstDelayMs = options.firstDelayMs ?? 15_000;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const account = (email: string) => email.trim().toLowerCase();
  const failuresKey = (email: string) => `sign-in:failures\n${account(email)}`;
  const waitKey = (email: string) => `sign-in:wait\n${account(email)}`;

  return {
    async secondsBlocked(email) {
      const { count, msLeft } = await counter.read(waitKey(email));
      return count > 0 ? Math.max(1, Math.ceil(msLeft / 1000)) : 0;
    },
    async recordFailure(email) {
      // The window slides: each failure keeps the count for another minute.
      const { count } = await counter.hit(failuresKey(email), windowMs, { sliding: true });
      if (count < maxFailures) return;
      const delayMs = Math.min(maxDelayMs, firstDelayMs * 2 ** (count - maxFailures));
      await counter.restart(waitKey(email), delayMs);
      // Forgotten a quiet minute after the wait, not during it: waiting out a delay does not reset the count.
      await counter.extend(failuresKey(email), delayMs + windowMs);
    },
    async recordSuccess(email) {
      await counter.clear(failuresKey(email));
      await counter.clear(waitKey(email));
    },
  };
}
