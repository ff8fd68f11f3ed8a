// The job that deletes expired rows (the shared counts, the local provider's payloads): batch after batch until
// one is not full, each table in turn, and no further once the server stops.
import { describe, expect, it } from 'vitest';
import { expiredRowsJob } from '../../../server/jobs/expired-rows.ts';

const log = { info: () => {}, warn: () => {}, error: () => {} };

describe('the expired rows job', () => {
  it('runs each purge batch after batch until a batch is not full, and counts what went', async () => {
    const left = { counts: 12, payloads: 3 };
    const purge = (table: keyof typeof left) => async (batch: number) => {
      const deleted = Math.min(batch, left[table]);
      left[table] -= deleted;
      return deleted;
    };
    const job = expiredRowsJob({ purges: [purge('counts'), purge('payloads')], batch: 5 });
    const context = { now: new Date(), signal: new AbortController().signal, log };
    expect(await job.run(context)).toEqual({ deleted: 15 });
    expect(left).toEqual({ counts: 0, payloads: 0 });
    expect(await job.run(context)).toEqual({ deleted: 0 });
  });

  it('stops between batches once the server stops', async () => {
    const stop = new AbortController();
    let calls = 0;
    const purge = async (batch: number) => {
      calls += 1;
      if (calls === 2) stop.abort();
      return batch;
    };
    const job = expiredRowsJob({ purges: [purge], batch: 10 });
    expect(await job.run({ now: new Date(), signal: stop.signal, log })).toEqual({ deleted: 20 });
    expect(calls).toBe(2);
  });
});
