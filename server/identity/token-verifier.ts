import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { AuthConfig } from '../config.ts';

export interface VerifiedToken {
  subject: string;
  email: string | null;
  name: string | null;
  expiresAt: number;
  /** When the person signed in (auth_time, else iat), in seconds. */
  signedInAt: number;
}

export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

/** Asymmetric algorithms only: 'none' and HMAC (signed with a public key) are never accepted. */
export const ALLOWED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export function createTokenVerifier(options: {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
  clockToleranceSeconds?: number;
  /** The claim naming the account in the provider's directory: 'oid' for Entra External ID, whose `sub` is per application. */
  subjectClaim?: 'sub' | 'oid';
  /** The time, in milliseconds since the epoch (tests give their own clock). */
  clock?: () => number;
}): TokenVerifier {
  const clock = options.clock ?? Date.now;
  const subjectClaim = options.subjectClaim ?? 'sub';
  const tolerance = options.clockToleranceSeconds ?? 30;
  // A token's text verified in the last minute verifies the same way until it expires: its signature is
  // not checked again (an RSA verification costs about a tenth of a users page). Bounded in time and size.
  const verified = new Map<string, { token: VerifiedToken; until: number }>();
  return async (token) => {
    const now = clock();
    const kept = verified.get(token);
    if (kept && kept.until > now) return kept.token;
    if (kept) verified.delete(token);
    const result = Object.freeze(await verifyNow(token));
    verified.set(token, { token: result, until: Math.min(now + VERIFIED_FOR_MS, (result.expiresAt + tolerance) * 1000) });
    if (verified.size > MAX_VERIFIED) verified.delete(verified.keys().next().value!);
    return result;
  };

  async function verifyNow(token: string): Promise<VerifiedToken> {
    try {
      const { payload } = await jwtVerify(token, options.keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ALLOWED_ALGORITHMS,
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: tolerance,
        currentDate: new Date(clock()),
      });
      const subject = payload[subjectClaim];
      if (typeof subject !== 'string' || subject === '') throw new InvalidTokenError(`token has no ${subjectClaim}`);
      const emails = Array.isArray(payload.emails) ? payload.emails : [];
      const email = typeof payload.email === 'string' ? payload.email : typeof emails[0] === 'string' ? emails[0] : null;
      return {
        subject,
        email,
        name: typeof payload.name === 'string' ? payload.name : null,
        expiresAt: payload.exp ?? 0,
        signedInAt: typeof payload.auth_time === 'number' ? payload.auth_time : (payload.iat ?? 0),
      };
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof errors.JOSEError) throw new InvalidTokenError(error.code);
      throw new InvalidTokenError('malformed token');
    }
  }
}

const VERIFIED_FOR_MS = 60_000;
const MAX_VERIFIED = 1_000;

/** The verifier of the configured provider: the local provider's keys in-process, else the provider's published keys. */
export async function verifierFor(auth: AuthConfig, localJwks: JSONWebKeySet | null): Promise<TokenVerifier> {
  if (auth.kind === 'local') {
    if (!localJwks || !auth.issuer) throw new Error('the local identity provider needs its keys');
    return createTokenVerifier({ issuer: auth.issuer, audience: auth.clientId, keys: createLocalJWKSet(localJwks) });
  }
  if (!auth.discoveryUrl) throw new Error('Missing required environment variable: OIDC_AUTHORITY');
  const response = await fetch(auth.discoveryUrl);
  if (!response.ok) throw new Error(`cannot read the identity provider's discovery document (${response.status} at ${auth.discoveryUrl})`);
  const discovery = (await response.json()) as { issuer?: string; jwks_uri?: string };
  if (!discovery.jwks_uri) throw new Error(`the discovery document at ${auth.discoveryUrl} has no jwks_uri`);
  const issuer = auth.issuer ?? discovery.issuer;
  if (!issuer) throw new Error('Missing required environment variable: AUTH_ISSUER');
  return createTokenVerifier({
    issuer,
    audience: auth.clientId,
    keys: createRemoteJWKSet(new URL(discovery.jwks_uri)),
    // Entra External ID: the directory's object id is `oid`, which the Graph directory stores as the subject.
    subjectClaim: auth.kind === 'entra' ? 'oid' : 'sub',
  });
}
