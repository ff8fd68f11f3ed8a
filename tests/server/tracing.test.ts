// An incoming x-request-id and a W3C traceparent reach the log lines of the request (and the id its answer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { requestIdFor, traceContextOf } from '../../server/plugins/tracing.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('the trace context (W3C traceparent)', () => {
  it('reads a valid header, and ignores malformed or forbidden ones', () => {
    expect(traceContextOf(`00-${TRACE_ID}-${PARENT}-01`)).toEqual({ traceId: TRACE_ID, parentSpanId: PARENT, sampled: true });
    expect(traceContextOf(`00-${TRACE_ID}-${PARENT}-00`)?.sampled).toBe(false);
    // A later version may carry more fields after the four it shares.
    expect(traceContextOf(`01-${TRACE_ID}-${PARENT}-01-more`)?.traceId).toBe(TRACE_ID);
    for (const bad of [
      undefined,
      '',
      `ff-${TRACE_ID}-${PARENT}-01`,
      `00-${'0'.repeat(32)}-${PARENT}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `00-${TRACE_ID.toUpperCase()}-${PARENT}-01`,
      `00-${TRACE_ID}-${PARENT}-01-more`,
      `00-${TRACE_ID}-${PARENT}`,
      ['a', 'b'],
    ]) {
      expect(traceContextOf(bad), String(bad)).toBeNull();
    }
  });

  it("takes the caller's request id when it is made of safe characters, else makes one", () => {
    expect(requestIdFor({ headers: { 'x-request-id': 'lb-1234.abc:9_Z' } })).toBe('lb-1234.abc:9_Z');
    for (const bad of ['', 'a b', 'x\ninjected', 'é', 'x'.repeat(129)]) {
      expect(requestIdFor({ headers: { 'x-request-id': bad } })).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdFor({ headers: {} })).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the log lines of a request', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestApp(backends[0]!, { env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => lines.push(line) } });
  });
  afterAll(() => t?.close());

  it('carry the incoming request id, trace id and parent span id; the answer carries the request id', async () => {
    const from = lines.length;
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/v2/users/me',
      headers: { 'x-request-id': 'from-the-balancer-42', traceparent: `00-${TRACE_ID}-${PARENT}-01` },
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.headers['x-request-id']).toBe('from-the-balancer-42');
    expect(answer.json()).toMatchObject({ requestId: 'from-the-balancer-42' });
    const log = lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log.length).toBeGreaterThanOrEqual(2);
    for (const line of log) expect(line).toMatchObject({ reqId: 'from-the-balancer-42', traceId: TRACE_ID, parentSpanId: PARENT });
  });

  it('carry a new request id and no trace ids when the headers are malformed', async () => {
    const from = lines.length;
    const answer = await t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { 'x-request-id': 'two words', traceparent: 'garbage' } });
    const id = String(answer.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const log = lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of log) {
      expect(line.reqId).toBe(id);
      expect(line).not.toHaveProperty('traceId');
    }
  });
});
