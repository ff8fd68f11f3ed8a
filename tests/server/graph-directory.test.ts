// The Microsoft Graph directory against a local server standing in for Graph and its token endpoint.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Transaction } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { IdentityDirectoryError, IdentityTakenError } from '../../server/identity/directory.ts';
import { GraphDirectoryError, GraphIdentityDirectory, strongPassword, type GraphDirectoryOptions } from '../../server/identity/graph-directory.ts';

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
interface Reply {
  status: number;
  body?: unknown;
}

const TENANT_ID = '6f1c2b1e-0000-4000-8000-00000000c0de';
const SECRET = 'Sup3r~Secret.Value_ForTests';
const TENANT_DOMAIN = 'opcosante.onmicrosoft.com';
const USER_ID = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
/** A database answering no rows to every query (Graph is not in the database; createAccount only reads it, to find who holds an identity). */
const emptyDatabase = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const trx = emptyDatabase as unknown as Transaction<Database>;

let server: http.Server;
let base: string;
let requests: Recorded[];
let tokensIssued: number;
/** Graph's answer to each call (the token endpoint answers on its own unless tokenReply is set). */
let graphReply: (request: Recorded) => Reply;
let tokenReply: ((request: Recorded) => Reply) | null;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      let reply: Reply;
      if (recorded.path === `/${TENANT_ID}/oauth2/v2.0/token`) {
        reply = tokenReply ? tokenReply(recorded) : { status: 200, body: { token_type: 'Bearer', expires_in: 3599, access_token: `token-${++tokensIssued}` } };
      } else {
        reply = graphReply(recorded);
      }
      res.writeHead(reply.status, reply.body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests = [];
  tokensIssued = 0;
  tokenReply = null;
  graphReply = (request) => (request.method === 'POST' ? { status: 201, body: { id: USER_ID, displayName: 'x' } } : { status: 204 });
});

function directory(overrides: Partial<GraphDirectoryOptions> = {}) {
  return new GraphIdentityDirectory({
    tenantId: TENANT_ID,
    clientId: 'graph-client-id',
    clientSecret: SECRET,
    tenantDomain: TENANT_DOMAIN,
    graphBaseUrl: base,
    loginBaseUrl: base,
    ...overrides,
  });
}
const graphCalls = () => requests.filter((r) => r.path.startsWith('/v1.0/'));
const tokenCalls = () => requests.filter((r) => r.path.endsWith('/oauth2/v2.0/token'));

/** The rejection of a call, which must be an IdentityDirectoryError whose text never holds the secret. */
async function failureOf(call: Promise<unknown>): Promise<GraphDirectoryError> {
  const error = await call.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(IdentityDirectoryError);
  expect(error).toBeInstanceOf(GraphDirectoryError);
  expect(`${(error as Error).message} ${(error as Error).stack} ${JSON.stringify(error)}`).not.toContain(SECRET);
  return error as GraphDirectoryError;
}

describe('GraphIdentityDirectory', () => {
  it('asks the tenant for a client-credentials token for Graph', async () => {
    await directory().disableAccount(trx, USER_ID);
    const [token] = tokenCalls();
    expect(token).toMatchObject({ method: 'POST', path: `/${TENANT_ID}/oauth2/v2.0/token` });
    expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token!.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'graph-client-id',
      client_secret: SECRET,
      scope: 'https://graph.microsoft.com/.default',
    });
  });

  it('creates a local account signing in with its e-mail, in the shape Graph documents for B2C, and answers its id as subject', async () => {
    const account = await directory().createAccount(trx, { email: 'marie.dupont@exemple.fr', displayName: 'Marie Dupont' });
    expect(account).toEqual({ subject: USER_ID, reused: false });
    const [create] = graphCalls();
    expect(create).toMatchObject({ method: 'POST', path: '/v1.0/users' });
    expect(create!.headers.authorization).toBe('Bearer token-1');
    expect(create!.headers['content-type']).toBe('application/json');
    const body = JSON.parse(create!.body);
    expect(body).toEqual({
      accountEnabled: true,
      displayName: 'Marie Dupont',
      identities: [{ signInType: 'emailAddress', issuer: TENANT_DOMAIN, issuerAssignedId: 'marie.dupont@exemple.fr' }],
      passwordProfile: { password: expect.any(String), forceChangePasswordNextSignIn: true },
      passwordPolicies: 'DisablePasswordExpiration',
    });
    const password: string = body.passwordProfile.password;
    expect(password.length).toBeGreaterThanOrEqual(16);
    for (const kind of [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/]) expect(password).toMatch(kind);
  });

  it('draws a new random password for every account', () => {
    const passwords = new Set(Array.from({ length: 50 }, () => strongPassword()));
    expect(passwords.size).toBe(50);
  });

  it('disables and enables with PATCH /v1.0/users/{id} { accountEnabled }', async () => {
    const graph = directory();
    await graph.disableAccount(trx, USER_ID);
    await graph.enableAccount(trx, USER_ID);
    expect(graphCalls().map((r) => [r.method, r.path, JSON.parse(r.body), r.headers['content-type']])).toEqual([
      ['PATCH', `/v1.0/users/${USER_ID}`, { accountEnabled: false }, 'application/json'],
      ['PATCH', `/v1.0/users/${USER_ID}`, { accountEnabled: true }, 'application/json'],
    ]);
  });

  it('deletes with DELETE /v1.0/users/{id}, without a body', async () => {
    await directory().deleteAccount(trx, USER_ID);
    const [call] = graphCalls();
    expect(call).toMatchObject({ method: 'DELETE', path: `/v1.0/users/${USER_ID}`, body: '' });
    expect(call!.headers.authorization).toBe('Bearer token-1');
  });

  it('counts a missing account as deleted, and as disabled, but not as enabled', async () => {
    graphReply = () => ({ status: 404, body: { error: { code: 'Request_ResourceNotFound', message: `Resource '${USER_ID}' does not exist.` } } });
    const graph = directory();
    await expect(graph.deleteAccount(trx, USER_ID)).resolves.toBeUndefined();
    await expect(graph.disableAccount(trx, USER_ID)).resolves.toBeUndefined();
    const error = await failureOf(graph.enableAccount(trx, USER_ID));
    expect(error).toMatchObject({ status: 404, code: 'Request_ResourceNotFound' });
  });

  it('asks for one token for several calls, and a new one shortly before it expires', async () => {
    let now = Date.UTC(2026, 10, 2, 9);
    const graph = directory({ now: () => now });
    await graph.createAccount(trx, { email: 'a@exemple.fr', displayName: 'A' });
    await graph.disableAccount(trx, USER_ID);
    await graph.enableAccount(trx, USER_ID);
    await graph.deleteAccount(trx, USER_ID);
    expect(tokenCalls()).toHaveLength(1);
    now += 50 * 60_000;
    await graph.disableAccount(trx, USER_ID);
    expect(tokenCalls()).toHaveLength(1);
    now += 6 * 60_000; // 56 minutes: within the last 5 minutes of a 3599-second token
    await graph.disableAccount(trx, USER_ID);
    expect(tokenCalls()).toHaveLength(2);
    expect(graphCalls().at(-1)!.headers.authorization).toBe('Bearer token-2');
  });

  it('shares one token request between concurrent calls', async () => {
    const graph = directory();
    await Promise.all([graph.disableAccount(trx, 'a'), graph.disableAccount(trx, 'b'), graph.enableAccount(trx, 'c')]);
    expect(tokenCalls()).toHaveLength(1);
    expect(graphCalls()).toHaveLength(3);
  });

  it('renews a token Graph refuses (401) once, then retries the call', async () => {
    let refused = false;
    graphReply = () => {
      if (refused) return { status: 204 };
      refused = true;
      return { status: 401, body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } } };
    };
    await directory().disableAccount(trx, USER_ID);
    expect(tokenCalls()).toHaveLength(2);
    expect(graphCalls().map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it("turns Graph's refusal into an IdentityDirectoryError with Graph's code and message", async () => {
    graphReply = () => ({
      status: 400,
      body: { error: { code: 'Request_BadRequest', message: 'The specified password does not comply with password complexity requirements.' } },
    });
    const error = await failureOf(directory().createAccount(trx, { email: 'a@exemple.fr', displayName: 'A' }));
    expect(error).toMatchObject({ status: 400, code: 'Request_BadRequest' });
    expect(error.message).toContain('Request_BadRequest');
    expect(error.message).toContain('password complexity requirements');
    expect(error.message).not.toContain(JSON.parse(graphCalls()[0]!.body).passwordProfile.password);
  });

  it('reports a refused token with the endpoint code, and masks the secret even when the answer echoes it', async () => {
    tokenReply = () => ({ status: 401, body: { error: 'invalid_client', error_description: `AADSTS7000215: Invalid client secret provided: '${SECRET}'.\r\nTrace ID: x` } });
    const error = await failureOf(directory().disableAccount(trx, USER_ID));
    expect(error).toMatchObject({ status: 401, code: 'invalid_client' });
    expect(error.message).toContain('AADSTS7000215');
    expect(graphCalls()).toHaveLength(0);
  });

  it('reports an unreachable Graph without the request', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(directory({ loginBaseUrl: `http://127.0.0.1:${port}` }).disableAccount(trx, USER_ID));
    expect(error).toMatchObject({ status: 503, code: 'Unreachable' });
  });

  it('reuses and enables the account already signing in with that e-mail (a deleted user came back)', async () => {
    graphReply = (request) => {
      if (request.method === 'POST' && request.path === '/v1.0/users') {
        return { status: 400, body: { error: { code: 'Request_BadRequest', message: 'Another object with the same value for property identities already exists.' } } };
      }
      if (request.method === 'GET') return { status: 200, body: { value: [{ id: 'existing-id' }] } };
      return { status: 204 };
    };
    const account = await directory().createAccount(trx, { email: "o'neil@exemple.fr", displayName: "Anne O'Neil" });
    expect(account).toEqual({ subject: 'existing-id', reused: true });
    const [, lookup, patch, revoke] = graphCalls();
    // Issue 19: whoever was signed in with the reused identity is signed out.
    expect(revoke).toMatchObject({ method: 'POST', path: '/v1.0/users/existing-id/revokeSignInSessions' });
    const url = new URL(lookup!.path, base);
    expect(url.pathname).toBe('/v1.0/users');
    expect(url.searchParams.get('$filter')).toBe(`identities/any(c:c/issuerAssignedId eq 'o''neil@exemple.fr' and c/issuer eq '${TENANT_DOMAIN}')`);
    expect(url.searchParams.get('$select')).toBe('id');
    expect(patch).toMatchObject({ method: 'PATCH', path: '/v1.0/users/existing-id' });
    // Issue 19: a reused identity also gets a new random password, to change at the next sign-in.
    expect(JSON.parse(patch!.body)).toEqual({ accountEnabled: true, displayName: "Anne O'Neil", passwordProfile: { password: expect.stringMatching(/^.{32}$/), forceChangePasswordNextSignIn: true } });
  });
  describe('updateAccount', () => {
    const UPN = { signInType: 'userPrincipalName', issuer: TENANT_DOMAIN, issuerAssignedId: `${USER_ID}@${TENANT_DOMAIN}` };
    const EMAIL = { signInType: 'emailAddress', issuer: TENANT_DOMAIN, issuerAssignedId: 'marie.dupont@exemple.fr' };
    /** Graph holding these identities for the account; PATCH answers as Graph does, or as `patch` says. */
    const holding = (identities: object[], patch: Reply = { status: 204 }) => {
      graphReply = (request) => (request.method === 'GET' ? { status: 200, body: { '@odata.context': 'x', identities } } : patch);
    };

    it('reads the identities, then writes the whole collection back with the emailAddress one changed, and the display name', async () => {
      holding([EMAIL, UPN]);
      await directory().updateAccount(trx, USER_ID, { email: 'marie.martin@exemple.fr', displayName: 'Marie Martin' });
      const [read, write] = graphCalls();
      const url = new URL(read!.path, base);
      expect([read!.method, url.pathname, url.searchParams.get('$select')]).toEqual(['GET', `/v1.0/users/${USER_ID}`, 'identities']);
      expect(write).toMatchObject({ method: 'PATCH', path: `/v1.0/users/${USER_ID}` });
      expect(write!.headers['content-type']).toBe('application/json');
      expect(JSON.parse(write!.body)).toEqual({ displayName: 'Marie Martin', identities: [{ ...EMAIL, issuerAssignedId: 'marie.martin@exemple.fr' }, UPN] });
      expect(graphCalls()).toHaveLength(2);
    });

    it('changes only the display name when the emailAddress identity holds the e-mail already', async () => {
      holding([UPN, EMAIL]);
      await directory().updateAccount(trx, USER_ID, { email: EMAIL.issuerAssignedId, displayName: 'Marie Dupont-Martin' });
      expect(JSON.parse(graphCalls()[1]!.body)).toEqual({ displayName: 'Marie Dupont-Martin' });
    });

    it('adds an emailAddress identity of the tenant to an account that had none, keeping the others', async () => {
      holding([UPN]);
      await directory().updateAccount(trx, USER_ID, { email: 'marie.martin@exemple.fr', displayName: 'Marie Martin' });
      expect(JSON.parse(graphCalls()[1]!.body).identities).toEqual([UPN, { ...EMAIL, issuerAssignedId: 'marie.martin@exemple.fr' }]);
    });

    it('answers IdentityTakenError when another account signs in with that e-mail', async () => {
      holding([EMAIL, UPN], { status: 400, body: { error: { code: 'Request_BadRequest', message: 'Another object with the same value for property identities already exists.' } } });
      const error = await directory().updateAccount(trx, USER_ID, { email: 'pris@exemple.fr', displayName: 'Marie Martin' }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(IdentityTakenError);
      expect(error).toBeInstanceOf(IdentityDirectoryError);
    });

    it('reports a missing account as a refusal with Graph\'s code, and writes nothing', async () => {
      graphReply = () => ({ status: 404, body: { error: { code: 'Request_ResourceNotFound', message: `Resource '${USER_ID}' does not exist.` } } });
      const error = await failureOf(directory().updateAccount(trx, USER_ID, { email: 'a@exemple.fr', displayName: 'A' }));
      expect(error).toMatchObject({ status: 404, code: 'Request_ResourceNotFound' });
      expect(graphCalls().map((r) => r.method)).toEqual(['GET']);
    });
  });
});
