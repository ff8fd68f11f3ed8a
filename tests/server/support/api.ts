// The one way server tests call the API: as a demo account (or without a token), through the real app,
// the answer's body parsed when it is JSON and checked against what the contract documents for the
// operation and the status, every error answer carrying its request id.
import { expect } from 'vitest';
import type { paths } from '../../../src/api/schema.gen.ts';
import { expectMatchesContract } from './contract.ts';
import type { TestApp } from './test-app.ts';

/** A path of the contract, e.g. '/api/v2/users/{id}'. */
export type ApiRoute = keyof paths & `/api/${string}`;
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, unknown>;
}

export interface ApiCall {
  /** The e-mail of the account whose token is sent; null: no token. */
  as: string | null;
  method: ApiMethod;
  route: ApiRoute;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined> | string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** The URL of a call: the route with its parameters, and the query (an object, or a string as written). */
export function urlOf(call: Pick<ApiCall, 'route' | 'params' | 'query'>): string {
  const url = call.route.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(call.params?.[name] ?? `missing-${name}`)));
  if (typeof call.query === 'string') return call.query ? `${url}?${call.query}` : url;
  const query = Object.entries(call.query ?? {}).filter(([, v]) => v !== undefined);
  return query.length ? `${url}?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : url;
}

/** Sends a request as `as` to a URL, unchecked: its status, headers and body (parsed when JSON). */
export async function send(t: TestApp, as: string | null, request: { method: ApiMethod; url: string; payload?: unknown; headers?: Record<string, string> }): Promise<ApiAnswer> {
  const authorization: Record<string, string> = as ? { authorization: `Bearer ${await t.tokenFor(as)}` } : {};
  const answer = await t.app.inject({
    method: request.method,
    url: request.url,
    headers: { ...authorization, ...request.headers },
    ...(request.payload !== undefined ? { payload: request.payload as object } : {}),
  });
  const isJson = String(answer.headers['content-type'] ?? '').includes('json');
  return { status: answer.statusCode, body: isJson && answer.body ? answer.json() : answer.body || undefined, headers: answer.headers };
}

/** Calls an operation of the contract and checks the answer against it. */
export async function callApi(t: TestApp, call: ApiCall): Promise<ApiAnswer> {
  const answer = await send(t, call.as, { method: call.method, url: urlOf(call), payload: call.payload, headers: call.headers });
  expectMatchesContract(call.method, call.route, answer.status, answer.body);
  if (answer.status >= 400) expect(answer.body.requestId).toBe(answer.headers['x-request-id']);
  return answer;
}
