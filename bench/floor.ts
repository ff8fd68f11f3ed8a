// The database floor: the statements the server ran for each request (capture.ts), replayed straight
// through pg by as many connections as the server's pool, each sequence timed like one request.
import pg from 'pg';
import type { Statement } from './capture.ts';
import { summarize, type Measure } from './stats.ts';

export interface FloorOptions {
  url: string;
  connections: number;
  sequences: readonly (readonly Statement[])[];
  /** Seconds (sequences taken in turn, again and again), or once each (writes). */
  duration?: number;
  once?: boolean;
}

export async function runFloor(options: FloorOptions): Promise<Measure> {
  const clients = await Promise.all(
    Array.from({ length: options.connections }, async () => {
      const client = new pg.Client({ connectionString: options.url });
      await client.connect();
      return client;
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + (options.duration ?? 10) * 1000;
  const take = (): readonly Statement[] | null => {
    if (options.once) return next < options.sequences.length ? options.sequences[next++]! : null;
    if (performance.now() >= deadline) return null;
    return options.sequences[next++ % options.sequences.length]!;
  };
  try {
    await Promise.all(
      clients.map(async (client) => {
        for (let sequence = take(); sequence; sequence = take()) {
          const begin = performance.now();
          // The ids the captured statements returned, and this replay's own: a write's later statements name the
          // rows its earlier ones made (an audit entry's organizations), which the capture made too.
          const ids = new Map<string, unknown>();
          try {
            for (const statement of sequence) {
              const values = replayedValues(statement.values, ids);
              const result = statement.name
                ? await client.query({ name: statement.name, text: statement.text, values })
                : await client.query(statement.text, values);
              statement.returnedIds?.forEach((id, i) => {
                const own = (result.rows[i] as { id?: unknown } | undefined)?.id;
                if (own !== undefined) ids.set(id, own);
              });
            }
            latencies.push(performance.now() - begin);
          } catch {
            errors += 1;
            await client.query('rollback').catch(() => undefined);
          }
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
  return summarize(latencies, errors, (performance.now() - started) / 1000);
}

/** A statement's values with the ids the capture's statements returned replaced by this replay's (arrays too). Pure. */
export function replayedValues(values: readonly unknown[], ids: ReadonlyMap<string, unknown>): unknown[] {
  if (ids.size === 0) return [...values];
  const swap = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(swap);
    if ((typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') && ids.has(String(value))) return ids.get(String(value));
    return value;
  };
  return values.map(swap);
}
