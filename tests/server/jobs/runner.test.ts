// The scheduled-job runner (server/jobs/runner.ts) on a migrated database, with a fake clock: each job runs
// on one runner at a time, its state is kept in scheduled_jobs, a run cut short is reported and run again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../server/db/migrate.ts';
import type { DatabaseHandle } from '../../../server/db/database.ts';
import { createJobRunner, type JobLog, type JobRunEvent, type JobRunnerOptions, type ScheduledJob } from '../../../server/jobs/runner.ts';
import { backends, createTestDatabase, type TestDatabase } from '../db/test-databases.ts';
import { fakeClock, type FakeClock } from '../support/fake-clock.ts';

const T0 = Date.UTC(2026, 10, 2, 9);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function recordingLog(): JobLog & { lines: { level: string; details: object; message: string }[] } {
  const lines: { level: string; details: object; message: string }[] = [];
  const at = (level: string) => (details: object, message: string) => void lines.push({ level, details, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

let counter = 0;
/** A job of its own name (tests share a database), counting its runs. */
function countingJob(overrides: Partial<ScheduledJob> = {}): ScheduledJob & { runs: number } {
  const job: ScheduledJob & { runs: number } = {
    name: `test.job-${++counter}`,
    everyMs: HOUR,
    runs: 0,
    async run(): Promise<{ done: number }> {
      job.runs += 1;
      return { done: job.runs };
    },
    ...overrides,
  };
  return job;
}

/** A promise and its resolver: a job that waits for the test. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.each(backends)('the scheduled-job runner on $name', (backend) => {
  let testDb: TestDatabase;
  let other: DatabaseHandle;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    other = backend.name === 'postgres' ? await testDb.openAnother() : testDb.handle;
  }, 60_000);
  afterAll(async () => {
    await testDb?.dispose();
  });

  const runner = (jobs: ScheduledJob[], clock: FakeClock, options: Partial<JobRunnerOptions> = {}) =>
    createJobRunner({ db: testDb.handle.db, jobs, log: recordingLog(), clock, ...options });
  const stateOf = async (r: ReturnType<typeof runner>, name: string) => (await r.states()).find((s) => s.name === name)!;

  it('runs a due job, records its outcome and next run, and runs it again only when that comes', async () => {
    const clock = fakeClock(T0);
    const job = countingJob();
    const r = runner([job], clock);
    expect(await r.tick()).toMatchObject([{ job: job.name, outcome: 'succeeded' }]);
    expect(await stateOf(r, job.name)).toMatchObject({
      lastOutcome: 'succeeded',
      lastError: null,
      runningSince: null,
      lastStartedAt: new Date(T0),
      nextRunAt: new Date(T0 + HOUR),
    });
    clock.advance(59 * MINUTE);
    expect(await r.tick()).toEqual([]);
    clock.advance(MINUTE);
    await r.tick();
    expect(job.runs).toBe(2);
  });

  it('records a failure with its message, reports it, and tries again after 5 minutes', async () => {
    const clock = fakeClock(T0);
    const job = countingJob({ run: () => Promise.reject(new Error('disque plein')) });
    const log = recordingLog();
    const r = runner([job], clock, { log });
    const [event] = await r.tick();
    expect(event).toMatchObject({ job: job.name, outcome: 'failed', error: 'disque plein' });
    expect(await stateOf(r, job.name)).toMatchObject({ lastOutcome: 'failed', lastError: 'disque plein', nextRunAt: new Date(T0 + 5 * MINUTE) });
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'error', details: expect.objectContaining({ job: job.name, err: 'disque plein' }) }));
  });

  it('runs a job on one runner at a time: another runner leaves alone a job under way', async () => {
    const clock = fakeClock(T0);
    const wait = gate();
    let runs = 0;
    const job = countingJob({
      async run() {
        runs += 1;
        await wait.opened;
      },
    });
    const first = runner([job], clock);
    const second = createJobRunner({ db: other.db, jobs: [job], log: recordingLog(), clock });
    const underway = first.tick();
    await expect.poll(() => runs).toBe(1);
    expect(await second.tick()).toEqual([]);
    wait.open();
    expect(await underway).toMatchObject([{ outcome: 'succeeded' }]);
    expect(runs).toBe(1);
  });

  it('runs a job once when two runners look at the same moment', async () => {
    const clock = fakeClock(T0);
    const job = countingJob();
    const results = await Promise.all([runner([job], clock).tick(), createJobRunner({ db: other.db, jobs: [job], log: recordingLog(), clock }).tick()]);
    expect(results.flat()).toHaveLength(1);
    expect(job.runs).toBe(1);
  });

  it('reports a run cut short (its process stopped) and runs the job again once its lease has passed', async () => {
    const clock = fakeClock(T0);
    const job = countingJob({ leaseMs: 15 * MINUTE });
    const log = recordingLog();
    const r = runner([job], clock, { log });
    await r.tick();
    // A node took the job 10 minutes ago and stopped without finishing it.
    clock.advance(HOUR);
    await testDb.handle.db
      .updateTable('scheduled_jobs')
      .set({ running_since: new Date(clock.now() - 10 * MINUTE), running_owner: 'node-arrete:123' })
      .where('name', '=', job.name)
      .execute();
    expect(await r.tick()).toEqual([]);
    clock.advance(5 * MINUTE);
    const events = await r.tick();
    expect(events).toMatchObject([
      { job: job.name, outcome: 'interrupted', durationMs: 15 * MINUTE },
      { job: job.name, outcome: 'succeeded' },
    ]);
    expect(job.runs).toBe(2);
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', details: expect.objectContaining({ job: job.name, owner: 'node-arrete:123' }) }),
    );
  });

  it('tells its listeners of every run, and a listener that throws changes nothing', async () => {
    const clock = fakeClock(T0);
    const job = countingJob();
    const r = runner([job], clock);
    const seen: JobRunEvent[] = [];
    r.onRunFinished(() => {
      throw new Error('listener en panne');
    });
    const stop = r.onRunFinished((event) => void seen.push(event));
    await r.tick();
    expect(seen).toMatchObject([{ job: job.name, outcome: 'succeeded', durationMs: 0 }]);
    stop();
    clock.advance(HOUR);
    await r.tick();
    expect(seen).toHaveLength(1);
    expect(job.runs).toBe(2);
  });

  it('logs each run with what the job answered', async () => {
    const clock = fakeClock(T0);
    const job = countingJob();
    const log = recordingLog();
    await runner([job], clock, { log }).tick();
    expect(log.lines).toContainEqual({ level: 'info', details: { job: job.name, durationMs: 0, done: 1 }, message: 'tâche planifiée terminée' });
  });

  it('lists every job it runs with its state, also one never run', async () => {
    const clock = fakeClock(T0);
    const ran = countingJob();
    const never = countingJob({ firstRunAfterMs: HOUR });
    const r = runner([ran, never], clock);
    await r.tick();
    const states = await r.states();
    expect(states.map((s) => s.name)).toEqual([ran.name, never.name]);
    expect(states[1]).toMatchObject({ lastOutcome: null, lastStartedAt: null, nextRunAt: new Date(T0 + HOUR) });
    expect(never.runs).toBe(0);
  });

  it('started, looks at once and then every pollMs; stopped, it aborts the job under way, waits for it and looks no more', async () => {
    const clock = fakeClock(T0);
    const wait = gate();
    let aborted = false;
    let started = false;
    const job = countingJob({
      everyMs: MINUTE,
      async run({ signal }) {
        started = true;
        signal.addEventListener('abort', () => {
          aborted = true;
          wait.open();
        });
        await wait.opened;
      },
    });
    const r = runner([job], clock, { pollMs: 30_000 });
    const finished: JobRunEvent[] = [];
    r.onRunFinished((event) => void finished.push(event));
    r.start();
    expect(clock.pending()).toEqual([0]);
    clock.advance(0);
    await expect.poll(() => started).toBe(true);
    expect(clock.pending()).toEqual([]);
    await r.stop();
    expect(aborted).toBe(true);
    expect(finished).toMatchObject([{ job: job.name }]);
    expect(clock.pending()).toEqual([]);
    clock.advance(HOUR);
    expect(clock.pending()).toEqual([]);
  });

  it('started, looks again after pollMs', async () => {
    const clock = fakeClock(T0);
    const job = countingJob({ everyMs: MINUTE });
    const r = runner([job], clock, { pollMs: 30_000 });
    r.start();
    clock.advance(0);
    await expect.poll(() => clock.pending()).toEqual([30_000]);
    expect(job.runs).toBe(1);
    clock.advance(30_000);
    await expect.poll(() => clock.pending()).toEqual([30_000]);
    expect(job.runs).toBe(1);
    clock.advance(30_000);
    await expect.poll(() => job.runs).toBe(2);
    await r.stop();
    expect(clock.pending()).toEqual([]);
  });
});
