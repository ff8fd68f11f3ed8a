// What PostgreSQL does with a statement the server prepares: the statements a piece of code runs (captured as compiled),
// the plan it keeps for any values (plan_cache_mode force_generic_plan), and how many runs used a kept plan.
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../../server/db/database.ts';
import type { Database } from '../../../server/db/schema.ts';

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** `db`, recording every statement it compiles (those of subqueries built apart too) into `statements`. */
export function capturing(db: Kysely<Database>): { db: Kysely<Database>; statements: Statement[] } {
  const statements: Statement[] = [];
  const recording: Kysely<Database> = db.withPlugin({
    transformQuery: (args) => (statements.push(recording.getExecutor().compileQuery(args.node, args.queryId)), args.node),
    transformResult: async (args) => args.result,
  });
  return { db: recording, statements };
}

/** A value written as SQL, as EXECUTE takes it (a list as an array literal). */
export function sqlLiteral(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `'{${value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/["\\]/g, '\\$&').replaceAll("'", "''")}"`)).join(',')}}'`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

const executing = (name: string, statement: Statement) =>
  `execute ${name}${statement.parameters.length > 0 ? `(${statement.parameters.map(sqlLiteral).join(', ')})` : ''}`;

/** The plan PostgreSQL keeps for any values of the statement, under `settings` (e.g. 'enable_seqscan = off'). */
export function keptPlan(handle: DatabaseHandle, statement: Statement, options: { settings?: readonly string[]; costs?: boolean } = {}): Promise<string> {
  return handle.withRawTransaction(async (tx) => {
    await tx.exec('set local plan_cache_mode = force_generic_plan');
    for (const setting of options.settings ?? []) await tx.exec(`set local ${setting}`);
    await tx.exec(`prepare kept_plan as ${statement.sql}`);
    const rows = await tx.query<{ 'QUERY PLAN': string }>(`explain ${options.costs === false ? '(costs off) ' : ''}${executing('kept_plan', statement)}`);
    await tx.exec('deallocate kept_plan');
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

/** Of `runs` runs of the statement, prepared as the server prepares it (plan_cache_mode auto), how many used the plan kept for any values. */
export function keptPlanRuns(handle: DatabaseHandle, statement: Statement, runs = 10): Promise<number> {
  return handle.withRawTransaction(async (tx) => {
    await tx.exec(`prepare kept_runs as ${statement.sql}`);
    for (let run = 0; run < runs; run++) await tx.query(executing('kept_runs', statement));
    const rows = await tx.query<{ n: number }>(`select generic_plans::int as n from pg_prepared_statements where name = 'kept_runs'`);
    await tx.exec('deallocate kept_runs');
    return Number(rows[0]!.n);
  });
}
