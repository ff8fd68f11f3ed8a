// Deletes rows that have expired (the shared counts of the rate limit and the sign-in throttle, the local
// provider's payloads) every 5 minutes, so that these tables stay small. A scheduled job: one node at a time;
// each purge deletes batch after batch (short statements, rows another transaction holds skipped) until a
// batch is not full, or the server stops.
import type { ScheduledJob } from './runner.ts';

/** Deletes at most `batch` expired rows of one table and says how many it deleted. */
export type ExpiredRowsPurge = (batch: number) => Promise<number>;

export function expiredRowsJob({ purges, batch = 5_000 }: { purges: readonly ExpiredRowsPurge[]; batch?: number }): ScheduledJob {
  return {
    name: 'expired-rows.purge',
    everyMs: 5 * 60_000,
    async run({ signal }) {
      let deleted = 0;
      for (const purge of purges) {
        for (;;) {
          if (signal.aborted) return { deleted };
          const count = await purge(batch);
          deleted += count;
          if (count < batch) break;
        }
      }
      return { deleted };
    },
  };
}
