// Deletes rows that have expired (the shared counts, the local provider's payloads) now and then, so that these
// tables stay small. Each node runs it; the deletes skip the rows another node's sweep holds (SKIP LOCKED), so
// two nodes never wait on each other, and a row is deleted once.

export interface ExpiredRowsSweep {
  /** One round of every purge, each until it deletes less than a full batch: the rows deleted. */
  runOnce(): Promise<number>;
  /** Rounds every intervalMs until stop(); the timer keeps no process alive. */
  start(): void;
  /** Stops the rounds and waits for the one under way. */
  stop(): Promise<void>;
}

export interface ExpiredRowsSweepOptions {
  /** Each deletes at most `batch` expired rows and says how many it deleted. */
  purges: ReadonlyArray<(batch: number) => Promise<number>>;
  intervalMs?: number;
  batch?: number;
  log: { warn(details: object, message: string): void };
}

export function createExpiredRowsSweep(options: ExpiredRowsSweepOptions): ExpiredRowsSweep {
  const intervalMs = options.intervalMs ?? 5 * 60_000;
  const batch = options.batch ?? 5_000;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();

  const runOnce = async () => {
    let deleted = 0;
    for (const purge of options.purges) {
      for (;;) {
        const count = await purge(batch);
        deleted += count;
        if (count < batch) break;
      }
    }
    return deleted;
  };

  return {
    runOnce,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        running = runOnce().catch((error: unknown) => options.log.warn({ err: error }, 'deleting expired rows failed'));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
