// Password guessing on the local sign-in form: after a few failures for one account from one address,
// that pair waits until the end of the minute, and its password is not even checked meanwhile.
// The counts are the database's (rate_limit_hits, server/db/rate-limit-hits.ts): every node of a cluster counts
// the same failures, whichever node the balancer sends each attempt to.
import type { HitCounter } from '../db/rate-limit-hits.ts';

export const TOO_MANY_SIGN_IN_ATTEMPTS = 'Trop de tentatives de connexion. Réessayez dans une minute.';

export interface SignInThrottleOptions {
  counter: HitCounter;
  /** Failures allowed in a window; the next attempts of the window are refused. */
  maxFailures?: number;
  /** The window opens at a pair's first failure. */
  windowMs?: number;
}

export interface SignInThrottle {
  /** Seconds until this account may try again from this address; 0 when it may now. */
  secondsBlocked(email: string, address: string): Promise<number>;
  recordFailure(email: string, address: string): Promise<void>;
  /** Clears this pair's failures only: the account's failures from other addresses stay. */
  recordSuccess(email: string, address: string): Promise<void>;
}

export function createSignInThrottle(options: SignInThrottleOptions): SignInThrottle {
  const { counter } = options;
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  // The address first: an e-mail address cannot hold a newline, an address neither.
  const keyOf = (email: string, address: string) => `sign-in:${address}\n${email.trim().toLowerCase()}`;

  return {
    async secondsBlocked(email, address) {
      const { count, msLeft } = await counter.read(keyOf(email, address));
      if (count < maxFailures) return 0;
      return Math.max(1, Math.ceil(msLeft / 1000));
    },
    async recordFailure(email, address) {
      await counter.hit(keyOf(email, address), windowMs);
    },
    async recordSuccess(email, address) {
      await counter.clear(keyOf(email, address));
    },
  };
}
