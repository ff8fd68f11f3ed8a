// The sweep of expired rows (the shared counts, the local provider's payloads): batch after batch until one is
// not full, now and then, and stopped with the server.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createExpiredRowsSweep } from '../../../server/db/expired-rows.ts';

const log = { warn: vi.fn() };

describe('the sweep of expired rows', () => {
  afterEach(() => {
    vi.useRealTimers();
    log.warn.mockReset();
  });

  it('runs each purge batch after batch until a batch is not full, and counts what went', async () => {
    const left = { counts: 12, payloads: 3 };
    const purge = (table: keyof typeof left) => async (batch: number) => {
      const deleted = Math.min(batch, left[table]);
      left[table] -= deleted;
      return deleted;
    };
    const sweep = createExpiredRowsSweep({ purges: [purge('counts'), purge('payloads')], batch: 5, log });
    expect(await sweep.runOnce()).toBe(15);
    expect(left).toEqual({ counts: 0, payloads: 0 });
    expect(await sweep.runOnce()).toBe(0);
  });

  it('runs every interval once started, logs a failed round and goes on, and runs no more once stopped', async () => {
    vi.useFakeTimers();
    const purge = vi.fn<(batch: number) => Promise<number>>().mockRejectedValueOnce(new Error('base arrêtée')).mockResolvedValue(0);
    const sweep = createExpiredRowsSweep({ purges: [purge], intervalMs: 1000, log });
    sweep.start();
    expect(purge).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(purge).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'deleting expired rows failed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(purge).toHaveBeenCalledTimes(2);
    await sweep.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(purge).toHaveBeenCalledTimes(2);
  });
});
