// Tracing across services: an incoming `x-request-id` becomes the request's id (in every log line of the
// request and in the answer's `x-request-id`), and a W3C `traceparent` puts its trace and parent span ids in
// the request's log lines. A malformed value is ignored: a fresh id, no trace ids.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Ids of a load balancer or a caller: letters, digits and . _ : - only (no log injection), up to 128 characters. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the caller's x-request-id when well formed, else a new uuid. */
export function requestIdFor(request: Pick<IncomingMessage, 'headers'>): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export interface TraceContext {
  traceId: string;
  parentSpanId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** A `traceparent` header read as the W3C Trace Context says (version ff, all-zero ids: invalid, ignored). */
export function traceContextOf(header: string | string[] | undefined): TraceContext | null {
  if (typeof header !== 'string') return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, parentSpanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentSpanId)) return null;
  return { traceId, parentSpanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The bindings a request's log lines carry beyond Fastify's own: the trace context, when one came. */
export function traceBindingsOf(request: Pick<IncomingMessage, 'headers'>): Record<string, string> {
  const trace = traceContextOf(request.headers.traceparent);
  return trace ? { traceId: trace.traceId, parentSpanId: trace.parentSpanId } : {};
}
