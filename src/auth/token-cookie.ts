/** The portail.accessToken cookie (spec §9): 12 h, Secure, SameSite=Lax, shared with the parent domain when configured. */
export const TOKEN_COOKIE = 'portail.accessToken';
export const TOKEN_COOKIE_MAX_AGE_SECONDS = 12 * 60 * 60;

export interface TokenClaims {
  sub?: string;
  name?: string;
  email?: string;
  exp?: number;
}

export function readTokenCookie(cookieString: string = document.cookie): string | null {
  for (const part of cookieString.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(rest.join('=')) || null;
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

/** The claims of a JWT, unverified: the server verifies; the browser only reads sub, name and exp. */
export function decodeTokenClaims(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

export function isTokenUnexpired(token: string | null, nowMs: number = Date.now()): token is string {
  if (!token) return false;
  const exp = decodeTokenClaims(token)?.exp;
  return typeof exp === 'number' && exp * 1000 > nowMs;
}
