// A clock and timers that move only when a test says: the job runner's time, without sleeping.
export interface FakeClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Moves time on and fires, in order, the timers now due. */
  advance(ms: number): void;
  /** Timers waiting, as delays from now. */
  pending(): number[];
}

export function fakeClock(start: number): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) break;
        timers.delete(id);
        timer.run();
      }
    },
    pending: () => [...timers.values()].map((timer) => timer.at - now),
  };
}
