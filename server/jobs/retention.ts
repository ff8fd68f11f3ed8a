// A retention job: every hour, what is older than a number of days goes (`purge`, in batches, stopping between
// batches when the server stops); the rest waits for the next run.
import type { ScheduledJob } from './runner.ts';
import { DAY_MS } from '../core/time.ts';


export function retentionJob({ name, retentionDays, purge }: { name: string; retentionDays: number; purge: (before: Date, signal: AbortSignal) => Promise<number> }): ScheduledJob {
  return {
    name,
    everyMs: 3600_000,
    async run({ now, signal }) {
      return { purged: await purge(new Date(now.getTime() - retentionDays * DAY_MS), signal) };
    },
  };
}
