import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnPostgres } from '../support/on-postgres.ts';
import { importJWK, SignJWT } from 'jose';
import { loadSigningKeys } from '../../server/dev-idp/signing-keys.ts';
import { createHash, randomBytes } from 'node:crypto';
import { DEMO_PASSWORD } from '../../server/seed/seed.ts';
import { tooManyRequestsMessage } from '../../server/plugins/rate-limit.ts';
import { TOO_MANY_SIGN_IN_ATTEMPTS } from '../../server/dev-idp/sign-in-throttle.ts';
import { createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { PERSONAS } from './support/users-api.ts';

// Two API nodes on one PostgreSQL, as behind a load balancer with no affinity: decisions and versioned updates
// must not both succeed, and what a node remembers between requests (the rate limit, the sign-in throttle, the
// local provider's sessions and grants) is the cluster's, not the node's. PGlite is one process's database, so
// this runs on PostgreSQL only.

/** Per person and minute, for both nodes together. Each test below uses its own person; only the rate limit's reaches it. */
const RATE_LIMIT = 60;

describeOnPostgres('two server processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let dataDir: string;
  let nodes: ServerProcess[] = [];
  let token: (email: string) => Promise<string>;
  const origin = 'http://portail.test';
  const clientId = 'portail-habilitations-spa';
  const redirectUri = `${origin}/redirect.html`;

  beforeAll(async () => {
    database = await createTestDatabase({ name: 'postgres' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portail-nodes-'));
    // Development nodes (the local provider and its demo data) on an origin that is not a loopback address: said on purpose.
    const env = { DATABASE_URL: database.url!, DATA_DIR: dataDir, PUBLIC_ORIGIN: origin, API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), ALLOW_DEMO_DATA_ON_PUBLIC_ORIGIN: 'true' };
    // Started together, as a deployment does: one migrates and seeds while the other waits, and they agree on the
    // local provider's keys (one token works on both).
    nodes = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const keys = await loadSigningKeys(dataDir);
    const key = await importJWK(keys.privateJwks.keys[0]!, 'RS256');
    token = async (email) => {
      const row = await database.handle.db.selectFrom('identity_accounts').select('subject').where('email', '=', email).executeTakeFirstOrThrow();
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: `${origin}/oidc`, aud: clientId, sub: row.subject, iat: now, exp: now + 600 })
        .setProtectedHeader({ alg: 'RS256', kid: keys.privateJwks.keys[0]!.kid })
        .sign(key);
    };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    nodes = [];
    await database?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (i: number, method: string, url: string, bearer: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${nodes[i % nodes.length]!.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('approves a pending administrator-rights request exactly once out of 20 parallel approvals on two nodes; the others are told it was decided', async () => {
    const staff = await token('backoffice@portail.test');
    // A request of its own: the demo's pending ones may be past their period by the day this runs (issue 22).
    const clinic = await fixtures(database.handle.db).organization('Clinique des Tilleuls');
    const pending = await fixtures(database.handle.db).pendingInvitation({ sirenId: clinic.id });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i, 'POST', `/api/v2/invitations/${pending.id}/approve`, staff)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const refusals = await Promise.all(answers.filter((a) => a.status === 409).map((a) => a.json()));
    expect(new Set(refusals.map((r) => `${r.error}: ${r.message}`))).toEqual(new Set(['Conflict: Cette demande a déjà été traitée.']));
    const audit = await database.handle.db.selectFrom('audit_log').select('id').where('action', '=', 'invitation.approve').where('entity_id', '=', String(pending.id)).execute();
    expect(audit).toHaveLength(1);
  });

  it('accepts exactly one of 20 parallel full updates made with the same version on two nodes', async () => {
    const staff = await token('backoffice@portail.test');
    const target = await database.handle.db
      .selectFrom('users')
      .select(['id'])
      .where('email', 'not like', '%@portail.test')
      .where('user_type', '=', 'ORGANIZATION')
      .orderBy('email')
      .executeTakeFirstOrThrow();
    const details = await (await call(0, 'GET', `/api/v2/users/${target.id}/full-details`, staff)).json();
    const user = details.user;
    const assignments = details.assignments.map((a: { organizationId: string; roleId: number; inheritsToChildren: boolean }) => ({
      organizationId: a.organizationId,
      roleIds: [a.roleId],
      inheritsToChildren: a.inheritsToChildren,
    }));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i, 'PUT', `/api/v2/users/${target.id}/full-update`, staff, {
          firstName: user.firstName,
          lastName: user.lastName,
          email: user.email,
          jobTitle: `Fonction ${i + 10}`,
          phoneNumber: user.phoneNumber,
          mobilePhone: user.mobilePhone,
          street: user.street,
          city: user.city,
          postalCode: user.postalCode,
          isActive: user.isActive,
          roleAssignments: assignments,
          version: user.version,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const after = await database.handle.db.selectFrom('users').select(['version']).where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(after.version).toBe(user.version + 1);
  });


  /** A browser's cookies, kept across both nodes (one origin behind the balancer). */
  const jar = () => {
    const cookies = new Map<string, string>();
    return {
      keep(answer: Response) {
        for (const line of answer.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const at = pair.indexOf('=');
          cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
      },
      header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
  };

  /** A sign-in as the SPA starts it (code flow, PKCE, its scopes) on one node, up to the French form. */
  async function beginSignIn(node: number) {
    const cookies = jar();
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile offline_access',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'etat',
      nonce: 'nonce',
    });
    const get = async (at: number, pathname: string) => {
      const answer = await fetch(`${nodes[at]!.url}${pathname}`, { redirect: 'manual', headers: { cookie: cookies.header() } });
      cookies.keep(answer);
      return answer;
    };
    const start = await get(node, `/oidc/auth?${query}`);
    const formPath = start.headers.get('location') ?? '';
    expect(formPath, `${start.status}`).toMatch(/^\/oidc\/interaction\//);
    return {
      formPath,
      get,
      async post(at: number, email: string, password: string) {
        const answer = await fetch(`${nodes[at]!.url}${formPath}/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email, password }),
        });
        cookies.keep(answer);
        return answer;
      },
      /** Follows the provider's redirects on the given nodes, in turn, up to the SPA's redirect page: its code. */
      async code(afterPost: Response, on: number[]) {
        let answer = afterPost;
        for (let hop = 0; ; hop += 1) {
          const location = new URL(answer.headers.get('location') ?? '', origin);
          if (location.pathname === '/redirect.html') {
            expect(location.searchParams.get('error'), location.searchParams.get('error_description') ?? '').toBeNull();
            return location.searchParams.get('code')!;
          }
          expect(answer.status, `hop ${hop}: ${location}`).toBeGreaterThanOrEqual(300);
          expect(hop).toBeLessThan(6);
          answer = await get(on[hop % on.length]!, `${location.pathname}${location.search}`);
        }
      },
      async tokens(at: number, code: string) {
        const answer = await fetch(`${nodes[at]!.url}/oidc/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
        });
        expect(answer.status, await answer.clone().text()).toBe(200);
        return (await answer.json()) as { id_token: string; refresh_token?: string };
      },
    };
  }

  const me = (node: number, bearer: string) => fetch(`${nodes[node]!.url}/api/v2/users/me`, { headers: { authorization: `Bearer ${bearer}` } });

  it('starts the local provider on its database storage, without the in-memory adapter’s warning', () => {
    for (const node of nodes) expect(node.output()).not.toContain('in-memory adapter');
  });

  it('finishes on node B a sign-in begun on node A, and the token works on both; the refresh token on A', async () => {
    const signIn = await beginSignIn(0);
    expect((await signIn.get(1, signIn.formPath)).status).toBe(200);
    const posted = await signIn.post(0, PERSONAS.adminClinique, DEMO_PASSWORD);
    expect(posted.status).toBe(303);
    const code = await signIn.code(posted, [1]);
    const tokens = await signIn.tokens(1, code);
    for (const node of [0, 1]) expect((await me(node, tokens.id_token)).status).toBe(200);
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await fetch(`${nodes[0]!.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId }),
    });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
  });

  it('counts failed sign-ins on both nodes together: the sixth attempt is refused on either', async () => {
    const signIn = await beginSignIn(0);
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await signIn.post(attempt % 2, PERSONAS.rhClinique, 'Pas-le-bon-mot-de-passe')).status).toBe(401);
    for (const node of [0, 1]) {
      const refused = await signIn.post(node, PERSONAS.rhClinique, DEMO_PASSWORD);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain(TOO_MANY_SIGN_IN_ATTEMPTS);
    }
  });

  it('counts API requests once across both nodes: of 70 made together on both, exactly the limit is served', async () => {
    const signIn = await beginSignIn(1);
    const tokens = await signIn.tokens(0, await signIn.code(await signIn.post(1, PERSONAS.lecteur, DEMO_PASSWORD), [0]));
    const answers = await Promise.all(Array.from({ length: RATE_LIMIT + 10 }, (_, i) => me(i % 2, tokens.id_token)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const refused = answers.find((a) => a.status === 429)!;
    const wait = Number(refused.headers.get('retry-after'));
    expect(await refused.json()).toMatchObject({ error: 'TooManyRequests', message: tooManyRequestsMessage(wait) });
    for (const node of [0, 1]) expect((await me(node, tokens.id_token)).status).toBe(429);
  });
});
