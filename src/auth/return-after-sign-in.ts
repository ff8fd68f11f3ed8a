/**
 * Where the post-login steps go instead of /dashboard (spec §2), in one case only: a person who opened the link
 * confirming their new address (/compte/confirmer-email?token=…) while signed out comes back to it once signed
 * in, rather than having to find the e-mail again. Only the token is kept (this tab's sessionStorage, 30
 * minutes), never a path: nothing here can send the person elsewhere.
 */
const KEY = 'portail.afterSignIn.emailConfirmation';
const LIFETIME_MS = 30 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const EMAIL_CONFIRMATION_PATH = '/compte/confirmer-email';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Called when the confirmation page is reached, signed in or not. */
export function rememberEmailConfirmation(token: string | undefined, now = Date.now()): void {
  if (!token || !TOKEN.test(token)) return;
  storage()?.setItem(KEY, JSON.stringify({ token, until: now + LIFETIME_MS }));
}

/** Forgets it (the page has been shown signed in). */
export function forgetEmailConfirmation(): void {
  storage()?.removeItem(KEY);
}

/** Once signed in: the confirmation to go back to, if one was remembered and is still fresh; forgotten either way. */
export function takeEmailConfirmation(now = Date.now()): { to: typeof EMAIL_CONFIRMATION_PATH; search: { token: string } } | null {
  const store = storage();
  const raw = store?.getItem(KEY);
  if (!raw) return null;
  store!.removeItem(KEY);
  try {
    const saved = JSON.parse(raw) as { token?: unknown; until?: unknown };
    if (typeof saved.token !== 'string' || !TOKEN.test(saved.token) || typeof saved.until !== 'number' || saved.until < now) return null;
    return { to: EMAIL_CONFIRMATION_PATH, search: { token: saved.token } };
  } catch {
    return null;
  }
}
