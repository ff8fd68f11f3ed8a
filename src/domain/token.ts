/** Reading a JWT in the browser: claims only, unverified (the server verifies). */
export interface TokenClaims {
  sub?: string;
  name?: string;
  email?: string;
  exp?: number;
}

export function decodeTokenClaims(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))) as unknown;
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

export function tokenSubject(token: string | null): string | null {
  const sub = token ? decodeTokenClaims(token)?.sub : undefined;
  return typeof sub === 'string' && sub !== '' ? sub : null;
}
