// The journal's retention (server/jobs/audit-retention.ts): what is older than the period goes, batch after batch.
import type { Kysely } from 'kysely';
import { compactListTotals } from '../../db/list-totals.ts';
import { deleteInBatches } from '../../db/batches.ts';
import type { Database } from '../../db/schema.ts';
import { deleteAuditEntriesBefore } from './audit.repository.ts';

/** Deletes every entry written before `before`, `batchSize` at a time, until none is left or `signal` is aborted; answers how many. */
export async function purgeJournal(db: Kysely<Database>, before: Date, { batchSize = 5_000, signal }: { batchSize?: number; signal?: AbortSignal } = {}): Promise<number> {
  const purged = await deleteInBatches((limit) => deleteAuditEntriesBefore(db, before, limit), { batchSize, signal });
  // The purge counted its days down from its own connection's rows: folded with the others.
  await compactListTotals(db);
  return purged;
}
