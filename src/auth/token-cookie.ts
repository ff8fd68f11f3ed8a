export { decodeTokenClaims, isTokenUnexpired, type TokenClaims } from '../domain/token';

/** The portail.accessToken cookie (spec §9): 12 h, Secure, SameSite=Lax, shared with the parent domain when configured. */
export const TOKEN_COOKIE = 'portail.accessToken';
export const TOKEN_COOKIE_MAX_AGE_SECONDS = 12 * 60 * 60;

export function readTokenCookie(cookieString: string = document.cookie): string | null {
  for (const part of cookieString.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== TOKEN_COOKIE) continue;
    try {
      return decodeURIComponent(rest.join('=')) || null;
    } catch {
      // A malformed value (the cookie may be shared with the parent domain) is no token.
      return null;
    }
  }
  return null;
}

export function writeTokenCookie(token: string, domain: string | null): void {
  const domainPart = domain ? `; Domain=${domain}` : '';
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${TOKEN_COOKIE_MAX_AGE_SECONDS}; Path=/${domainPart}; Secure; SameSite=Lax`;
}

/** Expires the cookie for the path and, when configured, the parent domain. */
export function expireTokenCookie(domain: string | null): void {
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/; Secure; SameSite=Lax`;
  if (domain) document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/; Domain=${domain}; Secure; SameSite=Lax`;
}
