import { describe, expect, it } from 'vitest';
import { ApiFailure, createApiClient, retryAfterMs, unwrap, type ApiClient } from '../../src/api/client';
import { createQueryClient } from '../../src/api/query-client';
import { readTokenCookie } from '../../src/auth/token-cookie';

/** One planned outcome of a fetch attempt: an answer, or a network failure. */
type Outcome = { status: number; body?: unknown; retryAfter?: string } | { networkError: true } | { abort: true };

interface Harness {
  client: ApiClient;
  /** Every request that reached the network, in order, with its body read as text. */
  requests: { request: Request; body: string }[];
  /** The delays the client waited between attempts. */
  delays: number[];
}

function jsonResponse(status: number, body: unknown, retryAfter?: string): Response {
  const extra: Record<string, string> = retryAfter ? { 'retry-after': retryAfter } : {};
  if (body === undefined) return new Response(null, { status, headers: extra });
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...extra },
  });
}

/** A client whose network answers `outcomes` in turn (the last one repeats). */
function harness(outcomes: Outcome[], getToken: () => string | null = () => 'token-abc'): Harness {
  const requests: Harness['requests'] = [];
  const delays: number[] = [];
  const stub = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push({ request, body: await request.clone().text() });
    const outcome = outcomes[Math.min(requests.length - 1, outcomes.length - 1)]!;
    if ('networkError' in outcome) throw new TypeError('fetch failed');
    if ('abort' in outcome) throw new DOMException('The operation was aborted.', 'AbortError');
    return jsonResponse(outcome.status, outcome.body, outcome.retryAfter);
  };
  const sleep = async (ms: number) => {
    delays.push(ms);
  };
  const client = createApiClient({ baseUrl: 'https://portal.test', getToken, fetch: stub as typeof fetch, sleep });
  return { client, requests, delays };
}

const me = { id: 'u-1', email: 'agent@opco.example', userType: 'BACKOFFICE', isActive: true };
const rejectBody = { rejectionReason: 'Le SIREN ne correspond pas à la demande.' };

function reject(client: ApiClient) {
  return client.POST('/api/v2/invitations/{id}/reject', { params: { path: { id: 1 } }, body: rejectBody });
}

describe('the retry policy (spec §7, §9)', () => {
  it.each([502, 503, 504])('retries a %i twice with delays of 1000 then 2000 ms, then answers it', async (status) => {
    const { client, requests, delays } = harness([{ status, body: { error: 'Upstream', message: `status ${status}` } }]);
    const { error, response } = await client.GET('/api/v2/users/me');
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
    expect(response.status).toBe(status);
    expect(error).toEqual({ error: 'Upstream', message: `status ${status}` });
  });

  it('answers the success that follows a 503, after one delay of 1000 ms', async () => {
    const { client, requests, delays } = harness([{ status: 503, body: { message: 'busy' } }, { status: 200, body: me }]);
    const { data, response } = await client.GET('/api/v2/users/me');
    expect(response.status).toBe(200);
    expect(data).toEqual(me);
    expect(requests).toHaveLength(2);
    expect(delays).toEqual([1000]);
  });

  it('answers the success of a third attempt after a 502 and a 504', async () => {
    const { client, requests, delays } = harness([{ status: 502 }, { status: 504 }, { status: 200, body: me }]);
    const { data } = await client.GET('/api/v2/users/me');
    expect(data).toEqual(me);
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  it.each([400, 401, 404, 500])('does not retry a %i', async (status) => {
    const { client, requests, delays } = harness([{ status, body: { error: 'E', message: `refused ${status}` } }, { status: 200, body: me }]);
    const { error, response } = await client.GET('/api/v2/users/me');
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(response.status).toBe(status);
    expect(error).toEqual({ error: 'E', message: `refused ${status}` });
  });

  it('retries a network failure and answers the success that follows it', async () => {
    const { client, requests, delays } = harness([{ networkError: true }, { status: 200, body: me }]);
    const { data } = await client.GET('/api/v2/users/me');
    expect(data).toEqual(me);
    expect(requests).toHaveLength(2);
    expect(delays).toEqual([1000]);
  });

  it("turns a network failure on every one of the 3 attempts into an ApiFailure of status 0 with the §8 message", async () => {
    const { client, requests, delays } = harness([{ networkError: true }]);
    const failure = await client.GET('/api/v2/users/me').then(
      () => null,
      (error: unknown) => error,
    );
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({
      status: 0,
      message: 'Network error: Unable to connect to the server. Please check your connection.',
    });
  });

  it('answers the 503 of a last attempt that follows network failures', async () => {
    const { client, requests } = harness([{ networkError: true }, { networkError: true }, { status: 503, body: { message: 'still down' } }]);
    const { error, response } = await client.GET('/api/v2/users/me');
    expect(requests).toHaveLength(3);
    expect(response.status).toBe(503);
    expect(error).toEqual({ message: 'still down' });
  });

  it('does not retry an aborted request and lets the abort through', async () => {
    const { client, requests, delays } = harness([{ abort: true }, { status: 200, body: me }]);
    await expect(client.GET('/api/v2/users/me')).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each([
    ['a creation', (c: ApiClient) => c.POST('/api/v2/users/complete', { body: { email: 'a@b.fr', firstName: 'Ab', lastName: 'Cd', organizationCodes: ['12345678900012'], roleIds: [1] } as never })],
    ['a rejection', reject],
    ['an approval', (c: ApiClient) => c.POST('/api/v2/invitations/{id}/approve', { params: { path: { id: 1 } } })],
    ['an update', (c: ApiClient) => c.PUT('/api/v2/users/{id}', { params: { path: { id: 'u-1' } }, body: { firstName: 'Ab', lastName: 'Cd', email: 'a@b.fr', metadata: null } })],
    ['an invitation', (c: ApiClient) => c.POST('/api/v2/invitations', { body: {} as never })],
    ['a permanent delete', (c: ApiClient) => c.DELETE('/api/v2/users/{id}', { params: { path: { id: 'u-1' }, query: { hardDelete: true } } })],
  ])('never sends %s twice: a 503 is answered as it is', async (_name, send) => {
    const { client, requests, delays } = harness([{ status: 503, body: { message: 'busy' } }, { status: 200, body: {} }]);
    const { response } = await send(client);
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('never sends a write twice after a network failure either: ApiFailure of status 0 at once', async () => {
    const { client, requests, delays } = harness([{ networkError: true }, { status: 200, body: {} }]);
    await expect(reject(client)).rejects.toMatchObject({ status: 0 });
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each(['deactivate', 'reactivate'] as const)('retries a %s (idempotent), replaying the same request', async (action) => {
    const { client, requests, delays } = harness([{ status: 503 }, { networkError: true }, { status: 200, body: { id: 'u-1' } }]);
    const { response } = await client.POST(`/api/v2/users/{id}/${action}`, { params: { path: { id: 'u-1' } } });
    expect(response.status).toBe(200);
    expect(delays).toEqual([1000, 2000]);
    for (const { request } of requests) {
      expect(request.method).toBe('POST');
      expect(request.url).toBe(`https://portal.test/api/v2/users/u-1/${action}`);
      expect(request.headers.get('authorization')).toBe('Bearer token-abc');
    }
  });

  it('waits what a Retry-After asks (seconds), within the 30 s in all', async () => {
    const { client, requests, delays } = harness([{ status: 503, retryAfter: '5' }, { status: 503, retryAfter: '20' }, { status: 200, body: me }]);
    const { data } = await client.GET('/api/v2/users/me');
    expect(data).toEqual(me);
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([5000, 20000]);
  });

  it('answers the 503 as it is when its Retry-After would pass the 30 s in all', async () => {
    const { client, requests, delays } = harness([{ status: 503, retryAfter: '10' }, { status: 503, retryAfter: '25' }, { status: 200, body: me }]);
    const { response } = await client.GET('/api/v2/users/me');
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(2);
    expect(delays).toEqual([10000]);
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Fri, 27 Nov 2026 10:00:12 GMT', now)).toBe(12000);
    expect(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('bientôt', now)).toBeNull();
  });
});

describe('the query cache on top of the client (issue 18: one retry layer)', () => {
  it('sends a failing read 3 times in all, over 3 s of waiting, not 3 × 4 times', async () => {
    const { client, requests, delays } = harness([{ status: 503, body: { message: 'busy' } }]);
    const queries = createQueryClient();
    await expect(queries.fetchQuery({ queryKey: ['me'], queryFn: () => unwrap(client.GET('/api/v2/users/me'), 'Failed') })).rejects.toMatchObject({ status: 503 });
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });
});

describe("the 'ServiceFactory not initialized' rule (spec §8)", () => {
  it('answers a synthetic 503 Backend temporarily unavailable, with details asking to retry', async () => {
    const { client } = harness([{ status: 500, body: { error: 'InternalError', message: 'ServiceFactory not initialized yet' } }]);
    const { error, response } = await client.GET('/api/v2/users/me');
    expect(response.status).toBe(503);
    expect(error).toEqual({
      error: 'ServiceUnavailable',
      message: 'Backend temporarily unavailable',
      details: 'Please retry in a few moments.',
    });
  });

  it('recognises the text in a plain-text error body as well', async () => {
    const { client } = harness([{ status: 500, body: 'Error: ServiceFactory not initialized' }]);
    const failure = await unwrap(client.GET('/api/v2/users/me'), 'Failed to fetch user profile').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ status: 503, message: 'Backend temporarily unavailable', body: { details: 'Please retry in a few moments.' } });
  });

  it('leaves another 500 as it is', async () => {
    const { client } = harness([{ status: 500, body: { error: 'InternalError', message: 'Something else broke' } }]);
    const { error, response } = await client.GET('/api/v2/users/me');
    expect(response.status).toBe(500);
    expect(error).toEqual({ error: 'InternalError', message: 'Something else broke' });
  });
});

describe('the bearer token', () => {
  it('sends the token getToken gives as a bearer Authorization header', async () => {
    const { client, requests } = harness([{ status: 200, body: me }], () => 'eyJ.payload.sig');
    await client.GET('/api/v2/users/me');
    expect(requests[0]!.request.headers.get('authorization')).toBe('Bearer eyJ.payload.sig');
  });

  it('asks getToken on every call, so a token kept in memory wins over the cookie once it exists', async () => {
    let inMemory: string | null = null;
    const cookie = 'theme=dark; portail.accessToken=from-cookie; lang=fr';
    const { client, requests } = harness([{ status: 200, body: me }], () => inMemory ?? readTokenCookie(cookie));
    await client.GET('/api/v2/users/me');
    inMemory = 'from-memory';
    await client.GET('/api/v2/users/me');
    expect(requests.map((r) => r.request.headers.get('authorization'))).toEqual(['Bearer from-cookie', 'Bearer from-memory']);
  });

  it('sends no Authorization header when getToken returns null', async () => {
    const { client, requests } = harness([{ status: 200, body: me }], () => null);
    await client.GET('/api/v2/users/me');
    expect(requests[0]!.request.headers.has('authorization')).toBe(false);
  });

  it('sends no Authorization header when getToken returns an empty string', async () => {
    const { client, requests } = harness([{ status: 200, body: me }], () => '');
    await client.GET('/api/v2/users/me');
    expect(requests[0]!.request.headers.has('authorization')).toBe(false);
  });
});

describe('requests', () => {
  it('sends no Content-Type and no body on a body-less POST', async () => {
    const { client, requests } = harness([{ status: 200, body: { id: 7, status: 'APPROVED' } }]);
    await client.POST('/api/v2/invitations/{id}/approve', { params: { path: { id: 7 } } });
    expect(requests[0]!.request.url).toBe('https://portal.test/api/v2/invitations/7/approve');
    expect(requests[0]!.request.headers.has('content-type')).toBe(false);
    expect(requests[0]!.body).toBe('');
  });

  it('drops a trailing slash of the base URL', async () => {
    const requests: string[] = [];
    const client = createApiClient({
      baseUrl: 'https://portal.test/',
      getToken: () => null,
      fetch: (async (input: Request) => {
        requests.push(input.url);
        return jsonResponse(200, me);
      }) as typeof fetch,
      sleep: async () => {},
    });
    await client.GET('/api/v2/users/me');
    expect(requests).toEqual(['https://portal.test/api/v2/users/me']);
  });
});

describe('unwrap', () => {
  it('gives the data of a successful call', async () => {
    const { client } = harness([{ status: 200, body: me }]);
    await expect(unwrap(client.GET('/api/v2/users/me'), 'Failed to fetch user profile')).resolves.toEqual(me);
  });

  it("throws an ApiFailure with the server's message, status and body", async () => {
    const body = { error: 'ValidationError', message: 'rejectionReason: 10 caractères minimum', requestId: 'r-1' };
    const { client } = harness([{ status: 400, body }]);
    const failure = await unwrap(reject(client), 'Failed to reject invitation').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ name: 'ApiFailure', status: 400, message: 'rejectionReason: 10 caractères minimum', body });
  });

  it('throws the fallback message when the error body has no message', async () => {
    const { client } = harness([{ status: 404, body: { error: 'NotFound' } }]);
    await expect(unwrap(client.GET('/api/v2/users/me'), 'Failed to fetch user profile')).rejects.toMatchObject({
      status: 404,
      message: 'Failed to fetch user profile',
    });
  });

  it('throws the fallback message when the error has no body at all', async () => {
    const { client } = harness([{ status: 401 }]);
    await expect(unwrap(client.GET('/api/v2/users/me'), 'Failed to fetch user profile')).rejects.toMatchObject({
      status: 401,
      message: 'Failed to fetch user profile',
    });
  });

  it('throws the fallback message when the server message is empty', async () => {
    const { client } = harness([{ status: 500, body: { error: 'E', message: '' } }]);
    await expect(unwrap(client.GET('/api/v2/users/me'), 'Failed to fetch user profile')).rejects.toMatchObject({
      status: 500,
      message: 'Failed to fetch user profile',
    });
  });
});
