// A list as a CSV file, streamed: the header, then each batch of rows as the client reads them, then the
// journal entry of the export. Every export (users, journal) goes through csvDownload.
import type { Kysely } from 'kysely';
import { auditAuthor, type Actor } from '../../core/actor.ts';
import type { Database, JsonValue } from '../../db/schema.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import { csvAttachment, csvHead, csvRows, type CsvColumn } from './csv.model.ts';

/** The lists that may be exported: the file's name and the journal entry's entity_id. */
export type ExportedList = 'users' | 'journal';

const EXPORT_ACTION = { users: 'users.export', journal: 'journal.export' } as const;

export interface CsvExport<Row> {
  list: ExportedList;
  columns: readonly CsvColumn<Row>[];
  /** The rows, batch after batch, read only when the file's reader asks for more (keyset batches from the database). */
  batches: AsyncIterable<readonly Row[]>;
  /** The filters the caller gave, as recorded in the journal entry. */
  filters: Record<string, JsonValue>;
  /** The moment of the file's name (tests). */
  now?: Date;
}

/** What the handler sends: the file's name and headers, and its text in chunks (sent with backpressure). */
export interface CsvDownload {
  fileName: string;
  contentDisposition: string;
  chunks: AsyncIterable<string>;
}

/**
 * The file of an export whose rights and filters the caller's service has checked already. Nothing is read
 * before the answer's first chunk is asked for. The journal entry ('users.export', 'journal.export': entity_type
 * 'export', entity_id the list, changes { rows, filters }) is written once the last row has left, before the file
 * ends: a complete file always has its entry, and if the entry cannot be written the answer is cut short. A client
 * that abandons the download stops the reading (the stream is destroyed): no entry then.
 */
export function csvDownload<Row>(db: Kysely<Database>, actor: Actor, spec: CsvExport<Row>): CsvDownload {
  const { fileName, contentDisposition } = csvAttachment(spec.list, spec.now ?? new Date());
  return { fileName, contentDisposition, chunks: chunksThenEntry(db, actor, spec) };
}

async function* chunksThenEntry<Row>(db: Kysely<Database>, actor: Actor, spec: CsvExport<Row>): AsyncGenerator<string> {
  yield csvHead(spec.columns);
  let rows = 0;
  for await (const batch of spec.batches) {
    if (batch.length === 0) continue;
    rows += batch.length;
    yield csvRows(spec.columns, batch);
  }
  await writeAudit(db, {
    actor: auditAuthor(actor),
    action: EXPORT_ACTION[spec.list],
    entityType: 'export',
    entityId: spec.list,
    organizationId: null,
    changes: { rows, filters: spec.filters },
  });
}
