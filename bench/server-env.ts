// How the benchmark starts the server: production mode, plain HTTP as behind a TLS-terminating load
// balancer, and the local identity provider allowed explicitly so that the benchmark can sign tokens with
// its keys (as tests/server/support/test-app.ts does). Everything else is the production configuration.
import { importJWK, SignJWT } from 'jose';
import { LOCAL_CLIENT_ID } from '../server/config.ts';
import { loadSigningKeys } from '../server/dev-idp/signing-keys.ts';

/** Connections of the server's PostgreSQL pool, of the database floor and of the load generator. */
export const BENCH_POOL_SIZE = 32;

export function serverEnv(options: { databaseUrl: string; port: number; dataDir: string; poolSize: number }): Record<string, string> {
  const origin = `http://127.0.0.1:${options.port}`;
  return {
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_SIZE: String(options.poolSize),
    HOST: '127.0.0.1',
    PORT: String(options.port),
    PUBLIC_ORIGIN: origin,
    TLS: 'off',
    DATA_DIR: options.dataDir,
    WEB_ROOT: `${options.dataDir}/no-web`,
    IDENTITY_PROVIDER: 'local',
    ALLOW_LOCAL_IDENTITY_PROVIDER: 'true',
    API_RATE_LIMIT_PER_MINUTE: '0',
    // The benchmark and the resilience loads create thousands of users and requests as one back-office person.
    USER_CREATIONS_PER_HOUR: '0',
    // Their connections are one person's lists in parallel (64 at once in tests/resilience/load.test.ts).
    LISTS_IN_FLIGHT_PER_PERSON: '0',
    INVITATIONS_PER_HOUR: '0',
    // The 1M database's users were seeded with sign-ins long past: about half a million are dormant, and the
    // warning job of issue 23 would write its 10,000 e-mails of the hour during each run (seen on 2026-11-27: 10,000
    // warnings and 10,269 SIREN notices written while the scenarios ran). Off: the scenarios measure the API.
    DORMANCY_WARN_AFTER_DAYS: '0',
    MEMBER_AREA_URL: 'https://adherent.example.org/',
    SUPPORT_HOURS: 'de 9 h à 17 h',
    SUPPORT_PHONE: '01 99 00 12 34',
    SUPPORT_EMAIL: 'relation.adherents@example.org',
  };
}

/** Signs access tokens as the server's local provider would: its key, issuer and audience. */
export async function tokenSigner(dataDir: string, origin: string): Promise<(subject: string, email: string) => Promise<string>> {
  const keys = await loadSigningKeys(dataDir);
  const jwk = keys.privateJwks.keys[0]!;
  const key = await importJWK(jwk, 'RS256');
  return async (subject, email) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email, iat: now, auth_time: now, exp: now + 12 * 3600 })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid! })
      .setIssuer(`${origin}/oidc`)
      .setAudience(LOCAL_CLIENT_ID)
      .setSubject(subject)
      .sign(key);
  };
}
