// exportAuditEntries: the journal as a CSV file, with the journal's rights, scope and filters, every matching entry.
import type { Actor } from '../../core/actor.ts';
import type { JsonValue } from '../../db/schema.ts';
import { csvDownload, type CsvDownload } from '../exports/exports.service.ts';
import { streamJournalEntries, type AuditEntryDto, type JournalDeps } from './audit.service.ts';
import { JOURNAL_EXPORT_COLUMNS } from './journal-export.model.ts';
import type { JournalQuery } from './journal.input.ts';

const BATCH = 500;

/** The entries of a stream as batches, the first one already read (its errors came before anything was sent). */
async function* inBatches(first: AuditEntryDto | undefined, rest: AsyncIterator<AuditEntryDto>): AsyncGenerator<AuditEntryDto[]> {
  if (first === undefined) return;
  let batch: AuditEntryDto[] = [first];
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    batch.push(next.value);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export function journalExportService(deps: JournalDeps) {
  return {
    /**
     * The journal's file. The caller's right and the filters are judged before anything is sent (400, 403, 404
     * as GET /api/v2/audit): the stream's first entry is read here; the rest as the file is.
     */
    async exportCsv(actor: Actor, query: JournalQuery): Promise<CsvDownload> {
      const entries = streamJournalEntries(deps, actor, query, { batchSize: BATCH });
      const first = await entries.next();
      const filters = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, JsonValue>;
      return csvDownload(deps.db, actor, { list: 'journal', columns: JOURNAL_EXPORT_COLUMNS, batches: inBatches(first.done ? undefined : first.value, entries), filters });
    },
  };
}
