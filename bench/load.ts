// HTTP load with autocannon: fixed connections, each request's latency taken from autocannon's
// 'response' event (process.hrtime, sub-millisecond), variants taken in turn.
import autocannon from 'autocannon';
import { summarize, type Measure } from './stats.ts';
import type { Variant } from './scenarios.ts';

/**
 * Seconds of the same load before a measured one, not measured: the pool's connections opened, each statement prepared
 * on each of them and past its first planned runs, the server's code compiled (run.ts, search.ts).
 */
export const WARM_UP_SECONDS = 2;

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds of load; or `amount` requests (each variant once, for writes). */
  duration?: number;
  amount?: number;
  token?: string;
  variants: readonly Variant[];
  /** Called twice a second, e.g. to sample the server's memory. */
  onTick?: () => void;
}

export interface LoadResult extends Measure {
  statuses: Record<string, number>;
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const variants = options.variants;
  let next = 0;
  const latencies: number[] = [];
  let failed = 0;
  const statuses: Record<string, number> = {};
  const headers: Record<string, string> = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  if (variants.some((v) => v.body)) headers['content-type'] = 'application/json';
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        timeout: 30,
        headers,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 10 }),
        requests: [
          {
            setupRequest(request) {
              const variant = options.amount !== undefined ? variants[Math.min(next, variants.length - 1)]! : variants[next % variants.length]!;
              next += 1;
              return { ...request, method: variant.method, path: variant.path, ...(variant.body ? { body: variant.body } : {}) };
            },
          },
        ],
      },
      (error, result) => {
        clearInterval(ticker);
        if (error) return reject(error);
        const seconds = (performance.now() - started) / 1000;
        const connectionErrors = result.errors + result.timeouts;
        resolve({ ...summarize(latencies, failed + connectionErrors, seconds), statuses });
      },
    );
    const ticker = setInterval(() => options.onTick?.(), 500);
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else failed += 1;
    });
  });
}
