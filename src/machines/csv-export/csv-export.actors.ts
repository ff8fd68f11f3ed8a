import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { ApiFailure } from '../../api/client';
import type { CsvFileStream } from '../../api/exports';
import { countCsvRecords, csvDataRows, newCsvRecordCounter } from '../../domain/csv-download';
import type { CsvExportEvent, CsvExportFailure, CsvExportQuery, DownloadInput, ReceivedCsv } from './csv-export.machine';

/** Opens an export's download (src/api/exports.ts): its body as a stream and its file's name. */
export type OpenCsvExport = (query: CsvExportQuery, signal: AbortSignal) => Promise<CsvFileStream>;

const failureOf = (error: unknown): CsvExportFailure => (error instanceof ApiFailure ? { status: error.status, message: error.body?.message ?? null } : { status: 0, message: null });

/** Saves a file in the browser's downloads: an object URL on a link clicked, freed once the click has been handled. */
export function saveWithObjectUrl(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The export's side effects: the download, read chunk by chunk so that the rows received are told as they
 * arrive, then gathered into one Blob; stopped (cancelled), it aborts its request. The save of the file.
 */
export function csvExportActors(open: OpenCsvExport, save: (file: Blob, fileName: string) => void = saveWithObjectUrl) {
  return {
    actors: {
      download: fromCallback<EventObject, DownloadInput>(({ input, sendBack }) => {
        const controller = new AbortController();
        const send = (event: CsvExportEvent) => {
          if (!controller.signal.aborted) sendBack(event);
        };
        void (async () => {
          try {
            const { body, fileName } = await open(input.query, controller.signal);
            const reader = body.getReader();
            const parts: Uint8Array[] = [];
            let counter = newCsvRecordCounter();
            let bytes = 0;
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              parts.push(value);
              bytes += value.byteLength;
              counter = countCsvRecords(counter, value);
              send({ type: 'export.progress', rows: csvDataRows(counter), bytes });
            }
            send({ type: 'export.received', rows: csvDataRows(counter), bytes, fileName, file: new Blob(parts as BlobPart[], { type: 'text/csv;charset=utf-8' }) });
          } catch (error) {
            send({ type: 'export.failed', failure: failureOf(error) });
          }
        })();
        return () => controller.abort();
      }),
      save: fromPromise<void, ReceivedCsv>(async ({ input }) => save(input.file, input.fileName)),
    },
  };
}
