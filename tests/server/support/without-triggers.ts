import type { DatabaseHandle } from '../../../server/db/database.ts';

/** Runs one statement with the triggers off (as a load that bypasses them does): the counters they keep do not move. */
export function withoutTriggers(handle: DatabaseHandle, statement: string, params: unknown[]): Promise<void> {
  return handle.withRawTransaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica');
    await tx.query(statement, params);
  });
}
