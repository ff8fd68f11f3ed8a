// The one fake API of the UI tests: the real client (src/api/client.ts) on an in-memory fetch that answers
// what each test declares, route by route, typed from the generated schema (src/api/schema.gen.ts). Every
// answer it gives is checked against openapi/openapi.yaml with the validator the server tests use
// (tests/server/support/contract.ts): a fixture that drifts from the contract fails its test.
import { onTestFinished, vi } from 'vitest';
import { createApiClient, type ApiClient } from '../../../src/api/client';
import type { components, paths } from '../../../src/api/schema.gen';
import { loadApiDocument } from '../../../server/api/openapi-document.ts';
import { expectMatchesContract } from '../../server/support/contract.ts';

type Method = 'get' | 'post' | 'put' | 'delete';
type Operation<R extends keyof paths, M extends Method> = NonNullable<paths[R][M]>;
/** The contract's routes that have this method, e.g. RouteOf<'post'> holds '/api/v2/invitations'. */
export type RouteOf<M extends Method> = { [R in keyof paths]: [Operation<R, M>] extends [never] ? never : R }[keyof paths];

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
type Responses<O> = O extends { responses: infer Rs } ? Rs : never;
/** An answer the contract documents for the operation: one of its statuses with that status's body. */
export type Answer<O> = { [S in keyof Responses<O>]: { status: S; body: Json<Responses<O>[S]>; statusText?: string; headers?: Record<string, string> } }[keyof Responses<O>];
export type AnswerOf<M extends Method, R extends RouteOf<M>> = Answer<Operation<R, M>>;

export type ErrorBody = components['schemas']['ErrorBody'];
/**
 * An answer the contract leaves out on purpose: a 5xx any route may give when something breaks behind it.
 * Its body is still the contract's ErrorBody (checked as the operation's documented 503, the same schema).
 */
export interface Fault {
  fault: true;
  status: 500 | 502 | 504;
  body: ErrorBody;
  statusText?: string;
}
export const fault = (status: Fault['status'], body: ErrorBody, statusText = ''): Fault => ({ fault: true, status, body, statusText });

/** A request as the fake received it. */
export interface ApiCall<O = unknown> {
  method: Uppercase<Method>;
  /** The contract's route, e.g. '/api/v2/users/{id}'. */
  route: string;
  url: URL;
  params: O extends { parameters: { path: infer P } } ? P : Record<string, string>;
  query: URLSearchParams;
  /** The JSON body, parsed; `text` is the body as sent. */
  body: O extends { requestBody?: infer B } ? Json<NonNullable<B>> : undefined;
  text: string;
  headers: Headers;
}

export type Handler<O> = (call: ApiCall<O>) => Answer<O> | Fault | Promise<Answer<O> | Fault>;

const NOT_FOUND: ErrorBody = { error: 'NotFound', message: 'Ressource introuvable.', requestId: 'test' };

const contract = loadApiDocument();
/** The contract's routes, literal ones first ('/api/v2/users/me' before '/api/v2/users/{id}'). */
const templates = Object.keys(contract.paths)
  .map((route) => ({ route, pattern: new RegExp(`^${route.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`), params: (route.match(/\{/g) ?? []).length }))
  .sort((a, b) => a.params - b.params);

function routeOf(method: Method, pathname: string): { route: string; params: Record<string, string> } | null {
  for (const t of templates) {
    const match = t.pattern.exec(pathname);
    if (match && contract.paths[t.route]?.[method]) return { route: t.route, params: Object.fromEntries(Object.entries(match.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)])) };
  }
  return null;
}

/**
 * One overload per operation rather than a generic signature: inferring the route from the arguments would
 * type the handler's answer before the route is known, widening its literals ('SIREN' to string).
 */
type On = Overloads<{ [M in Method]: { [R in RouteOf<M>]: (method: M, route: R, handler: Handler<Operation<R, M>>) => FakeApi }[RouteOf<M>] }[Method]>;
type Overloads<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

export interface FakeApi {
  /** Answers METHOD route (a contract route, e.g. '/api/v2/users/{id}') with the handler; replaces an earlier one. */
  on: On;
  /** The fetch the client is given (a vi.fn, called with the Request). */
  fetch: ReturnType<typeof vi.fn<(input: RequestInfo | URL) => Promise<Response>>> & typeof globalThis.fetch;
  /** Every request received, in order. */
  calls: ApiCall[];
  /** What broke the contract so far; the test fails at its end unless this is empty (the fake's own tests empty it). */
  breaches: string[];
  /** The portal's client on this fake (no retry delays). */
  client(): ApiClient;
}

/**
 * A fake API for one test (call it inside the test). A request without a handler is answered 404 NotFound
 * as the server does for a missing resource; a route the contract does not know, or an answer that breaks
 * the contract, fails the request (the fetch rejects) and the test.
 */
export function fakeApi(): FakeApi {
  const handlers = new Map<string, Handler<never>>();
  const calls: ApiCall[] = [];
  const breaches: string[] = [];
  onTestFinished(() => {
    if (breaches.length) throw new Error(`The fake API answered against the contract:\n${[...new Set(breaches)].join('\n')}`);
  });
  const breach = (message: string): never => {
    // ajv lists every error (a hundred items missing the same field): the first few say enough.
    const short = message.length > 600 ? `${message.slice(0, 600)}…` : message;
    breaches.push(short);
    throw new Error(short);
  };

  const fetch = vi.fn(async (input: RequestInfo | URL): Promise<Response> => {
    const request = input as Request;
    const url = new URL(request.url);
    const method = request.method.toLowerCase() as Method;
    const found = routeOf(method, url.pathname) ?? breach(`${request.method} ${url.pathname} is not in openapi.yaml`);
    const text = await request.text();
    const call = { method: request.method as Uppercase<Method>, route: found.route, url, params: found.params, query: url.searchParams, body: text ? JSON.parse(text) : undefined, text, headers: request.headers } as ApiCall;
    calls.push(call);
    const handler = handlers.get(`${method} ${found.route}`) as Handler<unknown> | undefined;
    const answer = (handler ? await handler(call as ApiCall<unknown>) : { status: 404, body: NOT_FOUND }) as { status: number; body: unknown; statusText?: string; headers?: Record<string, string>; fault?: true };
    const { status, body, statusText } = answer;
    try {
      expectMatchesContract(request.method, found.route, answer.fault ? 503 : status, body);
    } catch (error) {
      breach((error as Error).message);
    }
    const headers = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...answer.headers };
    return new Response(body === undefined ? null : JSON.stringify(body), { status, statusText: statusText ?? '', headers });
  }) as FakeApi['fetch'];

  const api: FakeApi = {
    on: ((method: Method, route: string, handler: Handler<never>) => {
      handlers.set(`${method} ${route}`, handler);
      return api;
    }) as On,
    fetch,
    calls,
    breaches,
    client: () => createApiClient({ baseUrl: 'https://portal.test', getToken: () => 't', fetch, sleep: async () => {} }),
  };
  return api;
}
