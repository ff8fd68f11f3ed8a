import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.gen';

/**
 * The one retry layer of the SPA (spec §7 and §9 as one rule, issue 18): 502, 503, 504 and network failures,
 * 3 attempts in all, waiting 1 s then 2 s, or what the answer's Retry-After asks; never more than 30 s of
 * waiting in all (a Retry-After beyond it is answered as it is). Only requests that may be sent twice are
 * retried: reads, and the writes that are idempotent (deactivate, reactivate). TanStack Query does not retry
 * on top of it (src/main.tsx).
 */
export const RETRY_POLICY = { attempts: 3, baseDelayMs: 1000, statuses: [502, 503, 504], maxWaitMs: 30_000 } as const;

/** The writes that leave the same state however many times they are sent. */
const IDEMPOTENT_WRITES = /\/api\/v2\/users\/[^/]+\/(deactivate|reactivate)$/;

/** Whether a request may be sent again after a failure: a read, or an idempotent write. */
export function mayRetry(request: Request): boolean {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return true;
  return method === 'POST' && IDEMPOTENT_WRITES.test(new URL(request.url).pathname);
}

/** What a Retry-After header asks, in milliseconds (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export const TRANSPORT_MESSAGES = {
  backendUnavailable: 'Backend temporarily unavailable',
  backendUnavailableDetails: 'Please retry in a few moments.',
  network: 'Network error: Unable to connect to the server. Please check your connection.',
} as const;

export interface ErrorBody {
  error?: string;
  message?: string;
  details?: string;
  fieldErrors?: { field: string; message: string }[];
  requestId?: string;
}

/**
 * A failed call, as the screens see it. `status` 0 is the synthetic answer of §8
 * for a network failure after every retry.
 */
export class ApiFailure extends Error {
  readonly status: number;
  readonly body: ErrorBody | undefined;
  readonly statusText: string;
  constructor(status: number, message: string, body?: ErrorBody, statusText = '') {
    super(message);
    this.name = 'ApiFailure';
    this.status = status;
    this.body = body;
    this.statusText = statusText;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  /** The bearer token: from memory, else from the portail.accessToken cookie. */
  getToken: () => string | null;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
}

export type ApiClient = Client<paths>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * fetch with the retry policy and the §8 transport rules: a body containing
 * 'ServiceFactory not initialized' becomes a synthetic 503; a network failure
 * after the last attempt (the only one for a write that may not be sent twice)
 * becomes an ApiFailure of status 0.
 */
export function transportFetch(baseFetch: typeof globalThis.fetch, sleep: (ms: number) => Promise<void> = defaultSleep) {
  return async (input: Request): Promise<Response> => {
    const attempts = mayRetry(input) ? RETRY_POLICY.attempts : 1;
    // The original stays untouched so that its body can be replayed on every attempt.
    const original = input.clone();
    let waited = 0;
    /** Waits before the next attempt, unless that would pass the 30 s in all: then false, no more attempts. */
    const waitBefore = async (attempt: number, asked: number | null): Promise<boolean> => {
      const delay = asked ?? RETRY_POLICY.baseDelayMs * 2 ** (attempt - 1);
      if (waited + delay > RETRY_POLICY.maxWaitMs) return false;
      waited += delay;
      await sleep(delay);
      return true;
    };
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= attempts;
      let response: Response;
      try {
        response = await baseFetch(original.clone());
      } catch (error) {
        if ((error as Error)?.name === 'AbortError') throw error;
        if (last || !(await waitBefore(attempt, null))) throw new ApiFailure(0, TRANSPORT_MESSAGES.network);
        continue;
      }
      response = await withServiceFactoryRule(response);
      if (!last && (RETRY_POLICY.statuses as readonly number[]).includes(response.status) && (await waitBefore(attempt, retryAfterMs(response.headers.get('retry-after'))))) continue;
      return response;
    }
  };
}

async function withServiceFactoryRule(response: Response): Promise<Response> {
  if (response.ok) return response;
  const text = await response.clone().text();
  if (!text.includes('ServiceFactory not initialized')) return response;
  return new Response(JSON.stringify({ error: 'ServiceUnavailable', message: TRANSPORT_MESSAGES.backendUnavailable, details: TRANSPORT_MESSAGES.backendUnavailableDetails }), {
    status: 503,
    statusText: 'Service Unavailable',
    headers: { 'content-type': 'application/json' },
  });
}

function authMiddleware(getToken: () => string | null): Middleware {
  return {
    onRequest({ request }) {
      const token = getToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

/** The one API client of the SPA. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: transportFetch(options.fetch ?? globalThis.fetch.bind(globalThis), options.sleep),
  });
  client.use(authMiddleware(options.getToken));
  return client;
}

/** The data of a call, or an ApiFailure carrying the server's message (or `fallback`). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, fallback: string): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const body = (error ?? undefined) as ErrorBody | undefined;
    throw new ApiFailure(response.status, body?.message || fallback, body, response.statusText);
  }
  return data as T;
}
