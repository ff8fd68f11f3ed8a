import { describe, expect, it } from 'vitest';
import { fetchRetrying, retryDelayMs } from '../../bench/retry.ts';

const answer = (status: number, retryAfter?: string) => new Response(JSON.stringify({ status }), { status, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });

/** A fetch answering these in turn, and a sleep that records the delays instead of waiting. */
function scripted(...answers: [status: number, retryAfter?: string][]) {
  const slept: number[] = [];
  let calls = 0;
  const send = () => Promise.resolve(answer(...answers[Math.min(calls++, answers.length - 1)]!));
  return { send, sleep: (ms: number) => Promise.resolve(void slept.push(ms)), slept, calls: () => calls };
}

describe("bench:bulk's reading of a job, tried again when the server asks to wait", () => {
  it('waits a 503 or 429 out when it says for how long (seconds or a date), within a bound; nothing else', () => {
    const now = Date.parse('2026-11-27T15:00:00Z');
    expect(retryDelayMs(503, '5', now)).toBe(5000);
    expect(retryDelayMs(429, '0', now)).toBe(0);
    expect(retryDelayMs(503, 'Fri, 27 Nov 2026 15:00:03 GMT', now)).toBe(3000);
    expect(retryDelayMs(503, 'Fri, 27 Nov 2026 14:59:00 GMT', now)).toBe(0);
    expect(retryDelayMs(429, '3600', now)).toBe(60_000);
    expect(retryDelayMs(503, null, now)).toBeNull();
    expect(retryDelayMs(503, 'bientôt', now)).toBeNull();
    expect(retryDelayMs(500, '5', now)).toBeNull();
    expect(retryDelayMs(404, '5', now)).toBeNull();
    expect(retryDelayMs(200, '5', now)).toBeNull();
  });

  it('tries again after the delay asked until an answer is not to be waited out', async () => {
    const s = scripted([503, '5'], [429, '2'], [200]);
    const got = await fetchRetrying(s.send, { sleep: s.sleep });
    expect(got.status).toBe(200);
    expect(s.slept).toEqual([5000, 2000]);
    expect(s.calls()).toBe(3);
  });

  it('answers any other error at once, and the last 503 once it has tried 10 times', async () => {
    for (const fatal of [[500], [503], [404, '1']] as const) {
      const s = scripted([...fatal]);
      expect((await fetchRetrying(s.send, { sleep: s.sleep })).status).toBe(fatal[0]);
      expect(s.calls()).toBe(1);
    }
    const busy = scripted([503, '1']);
    expect((await fetchRetrying(busy.send, { sleep: busy.sleep })).status).toBe(503);
    expect(busy.calls()).toBe(10);
    expect(busy.slept).toHaveLength(9);
  });
});
