// A local HTTP server standing in for Microsoft Graph and its token endpoint, recording every Graph call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphIdentityDirectory, type GraphDirectoryOptions } from '../../../server/identity/graph-directory.ts';

export interface GraphCall {
  method: string;
  path: string;
  body: string;
}

export interface GraphReply {
  status: number;
  body?: unknown;
  /** e.g. { 'retry-after': '2' } */
  headers?: Record<string, string>;
}

const TENANT_ID = '6f1c2b1e-0000-4000-8000-00000000c0de';
export const GRAPH_TENANT_DOMAIN = 'opcosante.onmicrosoft.com';

/** Graph's answer when another account already signs in with the e-mail of a POST /v1.0/users. */
export const IDENTITY_TAKEN: GraphReply = {
  status: 400,
  body: { error: { code: 'Request_BadRequest', message: 'Another object with the same value for property identities already exists.' } },
};

export async function startGraphStub() {
  const calls: GraphCall[] = [];
  const tokenCalls: GraphCall[] = [];
  const issueToken = (): GraphReply => ({ status: 200, body: { token_type: 'Bearer', expires_in: 3599, access_token: 'token' } });
  let tokenReply: (call: GraphCall) => GraphReply = issueToken;
  let reply: (call: GraphCall) => GraphReply = (call) => (call.method === 'POST' ? { status: 201, body: { id: 'created-id' } } : { status: 204 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call: GraphCall = { method: req.method ?? '', path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') };
      let answer: GraphReply;
      if (call.path.endsWith('/oauth2/v2.0/token')) {
        tokenCalls.push(call);
        answer = tokenReply(call);
      } else {
        calls.push(call);
        answer = reply(call);
      }
      res.writeHead(answer.status, { ...(answer.body === undefined ? {} : { 'content-type': 'application/json' }), ...answer.headers });
      res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    calls,
    /** The requests to the token endpoint. */
    tokenCalls,
    /** How Graph answers from now on. */
    answer(next: (call: GraphCall) => GraphReply) {
      reply = next;
    },
    /** How the token endpoint answers from now on (`issue`: as it does by default). */
    answerTokens(next: (call: GraphCall, issue: () => GraphReply) => GraphReply) {
      tokenReply = (call) => next(call, issueToken);
    },
    /** A directory on this stub; `options`: e.g. a fake sleep and clock for the retries. */
    directory: (options: Partial<GraphDirectoryOptions> = {}) =>
      new GraphIdentityDirectory({ tenantId: TENANT_ID, clientId: 'graph-client-id', clientSecret: 'secret', tenantDomain: GRAPH_TENANT_DOMAIN, graphBaseUrl: base, loginBaseUrl: base, ...options }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
