import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { DatabaseHandle } from '../../../server/db/database.ts';

/** Counts the SQL statements a handle executes (BEGIN/COMMIT aside), to check that a query count does not grow with the data. */
export class StatementCounter implements KyselyPlugin {
  count = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count += 1;
    return args.result;
  }

  /** The statements `work` executes. */
  async during(work: () => Promise<unknown>): Promise<number> {
    const before = this.count;
    await work();
    return this.count - before;
  }

  /** The same database, counted: pass it as `wrapDatabase` to startTestApp. */
  wrap = (handle: DatabaseHandle): DatabaseHandle => ({ ...handle, db: handle.db.withPlugin(this) });
}
