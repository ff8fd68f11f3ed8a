// A request a benchmark may send again (reading a job's progress): when the server answers 503 or 429 with Retry-After
// (busy, its database failing over, closing), the delay it asks is waited out and the request sent again, a bounded
// number of times; any other answer, a failure included, is the caller's at once.

/** How many times a request is sent at the most, and the longest wait between two. */
export const RETRY_TRIES = 10;
export const RETRY_MAX_DELAY_MS = 60_000;

/** The wait an answer asks before trying again (ms, at most RETRY_MAX_DELAY_MS), or null when it is not to be tried again. */
export function retryDelayMs(status: number, retryAfter: string | null, now = Date.now()): number | null {
  if ((status !== 503 && status !== 429) || retryAfter === null) return null;
  const value = retryAfter.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, RETRY_MAX_DELAY_MS);
}

export interface RetryOptions {
  tries?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Told of each wait: the status answered and the delay. */
  onRetry?: (status: number, ms: number) => void;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends the request until an answer is not to be waited out, or `tries` times; answers the last answer. */
export async function fetchRetrying(send: () => Promise<Response>, options: RetryOptions = {}): Promise<Response> {
  const { tries = RETRY_TRIES, sleep = wait, onRetry } = options;
  for (let attempt = 1; ; attempt += 1) {
    const answer = await send();
    const delay = retryDelayMs(answer.status, answer.headers.get('retry-after'));
    if (delay === null || attempt >= tries) return answer;
    await answer.body?.cancel();
    onRetry?.(answer.status, delay);
    await sleep(delay);
  }
}
