// Latency summaries. Pure.

export interface Measure {
  /** Answered requests (any status) or replayed statement sequences. */
  requests: number;
  /** Failures: connection errors, timeouts and non-2xx answers (HTTP), statements that threw (database). */
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The value below which `q` (0..1) of the sorted values lie (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Latencies in milliseconds of the successful requests, the number of failures, over `seconds`. */
export function summarize(latencies: readonly number[], errors: number, seconds: number): Measure {
  const sorted = [...latencies].sort((a, b) => a - b);
  const requests = sorted.length + errors;
  return {
    requests,
    errors,
    seconds,
    rps: seconds > 0 ? sorted.length / seconds : 0,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}
