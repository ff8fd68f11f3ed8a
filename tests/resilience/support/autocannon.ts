// autocannon 9 with the parts of its API the load test uses beyond those bench/autocannon.d.ts types: each
// connection's own request loop (setupClient, client.setRequests) and the answers read back (onResponse).
import autocannon from 'autocannon';

export interface LaneRequest {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (request: LaneRequest, context: Record<string, unknown>) => LaneRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
}

export interface LoadClient {
  setRequests(requests: LaneRequest[]): void;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Seconds without an answer before a request counts as timed out. */
  timeout: number;
  requests: LaneRequest[];
  /** Called once for each connection, before its first request. */
  setupClient: (client: LoadClient) => void;
}

export interface LoadResult {
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface LoadInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
}

export const runAutocannon = autocannon as unknown as (options: LoadOptions, callback: (error: Error | null, result: LoadResult) => void) => LoadInstance;
