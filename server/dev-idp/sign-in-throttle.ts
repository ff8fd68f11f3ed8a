// Password guessing on the local sign-in form: after a few failures for one account from one address,
// that pair waits until the end of the minute, and its password is not even checked meanwhile.
// Counts live in this process's memory: each node of a cluster keeps its own (the local provider is for
// development, tests and demonstrations, which run one).

export const TOO_MANY_SIGN_IN_ATTEMPTS = 'Trop de tentatives de connexion. Réessayez dans une minute.';

export interface SignInThrottleOptions {
  /** Failures allowed in a window; the next attempts of the window are refused. */
  maxFailures?: number;
  windowMs?: number;
  /** Pairs remembered at most: expired ones go first, then the oldest. */
  maxEntries?: number;
  now?: () => number;
}

export interface SignInThrottle {
  /** Seconds until this account may try again from this address; 0 when it may now. */
  secondsBlocked(email: string, address: string): number;
  recordFailure(email: string, address: string): void;
  /** Clears this pair's failures only: the account's failures from other addresses stay. */
  recordSuccess(email: string, address: string): void;
  /** Pairs remembered now (for tests of the bound). */
  readonly size: number;
}

interface Entry {
  failures: number;
  windowStart: number;
}

export function createSignInThrottle(options: SignInThrottleOptions = {}): SignInThrottle {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? (() => Date.now());
  const entries = new Map<string, Entry>();
  // The address first: an e-mail address cannot hold a newline, an address neither.
  const keyOf = (email: string, address: string) => `${address}\n${email.trim().toLowerCase()}`;
  const live = (entry: Entry | undefined, at: number): entry is Entry => entry !== undefined && at - entry.windowStart < windowMs;

  function makeRoom(at: number) {
    if (entries.size <= maxEntries) return;
    for (const [key, entry] of entries) if (!live(entry, at)) entries.delete(key);
    // Still full of live pairs: forget the oldest windows (insertion order is window order).
    for (const key of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(key);
    }
  }

  return {
    secondsBlocked(email, address) {
      const at = now();
      const entry = entries.get(keyOf(email, address));
      if (!live(entry, at) || entry.failures < maxFailures) return 0;
      return Math.max(1, Math.ceil((entry.windowStart + windowMs - at) / 1000));
    },
    recordFailure(email, address) {
      const at = now();
      const key = keyOf(email, address);
      const entry = entries.get(key);
      if (live(entry, at)) {
        entry.failures += 1;
        return;
      }
      entries.delete(key);
      entries.set(key, { failures: 1, windowStart: at });
      makeRoom(at);
    },
    recordSuccess(email, address) {
      entries.delete(keyOf(email, address));
    },
    get size() {
      return entries.size;
    },
  };
}
