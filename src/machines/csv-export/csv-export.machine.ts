import { assign, fromCallback, setup, type EventObject } from 'xstate';
import { requiredActor } from '../shared/required-actor';

/** The filters of the list exported, as the list's screen has them. */
export type CsvExportQuery = Record<string, string | number | boolean | undefined>;

/** Why an export failed: the HTTP status (0: the network) and the server's French message. */
export interface CsvExportFailure {
  status: number;
  message: string | null;
}

/** The file received, ready to be saved. */
export interface ReceivedCsv {
  file: Blob;
  fileName: string;
}

export interface CsvExportContext {
  query: CsvExportQuery | null;
  /** Data rows received so far (the header line aside), and bytes. */
  rows: number;
  bytes: number;
  received: ReceivedCsv | null;
  /** The name of the last file saved. */
  fileName: string | null;
  failure: CsvExportFailure | null;
}

export type CsvExportEvent =
  | { type: 'export.start'; query: CsvExportQuery }
  | { type: 'export.cancel' }
  // Sent by the download actor while the file arrives, then once it is whole or has failed.
  | { type: 'export.progress'; rows: number; bytes: number }
  | { type: 'export.received'; rows: number; bytes: number; file: Blob; fileName: string }
  | { type: 'export.failed'; failure: CsvExportFailure };

export interface DownloadInput {
  query: CsvExportQuery;
}

const asFailure = (error: unknown): CsvExportFailure =>
  error && typeof error === 'object' && 'status' in error ? (error as CsvExportFailure) : { status: 0, message: null };

const START = { target: 'downloading', actions: 'begin' } as const;

/**
 * Downloading a list as a CSV file (issue 21): the download reports rows and bytes as they arrive; cancelling
 * stops the download actor, which aborts the request; the file received is saved (an object URL and a link).
 * Another export may start once one has ended, whichever way. The server allows one export per person at a
 * time (429, whose French message the failure shows).
 */
export const csvExportMachine = setup({
  types: { context: {} as CsvExportContext, events: {} as CsvExportEvent },
  actors: {
    // Sends export.progress, then export.received or export.failed; stopped (cancel), it aborts its request.
    download: fromCallback<EventObject, DownloadInput>(() => {
      throw new Error("The actor 'download' must be supplied with .provide()");
    }),
    save: requiredActor<void, ReceivedCsv>('save'),
  },
  actions: {
    begin: assign(({ event }) => ({ query: event.type === 'export.start' ? event.query : null, rows: 0, bytes: 0, received: null, failure: null })),
  },
}).createMachine({
  id: 'csv-export',
  context: { query: null, rows: 0, bytes: 0, received: null, fileName: null, failure: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'export.start': START },
    },
    downloading: {
      invoke: { id: 'download', src: 'download', input: ({ context }) => ({ query: context.query! }) },
      on: {
        'export.progress': { actions: assign({ rows: ({ event }) => event.rows, bytes: ({ event }) => event.bytes }) },
        'export.received': {
          target: 'saving',
          actions: assign({ rows: ({ event }) => event.rows, bytes: ({ event }) => event.bytes, received: ({ event }) => ({ file: event.file, fileName: event.fileName }) }),
        },
        'export.failed': { target: 'failed', actions: assign({ failure: ({ event }) => event.failure }) },
        'export.cancel': 'cancelled',
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => context.received!,
        onDone: { target: 'done', actions: assign({ fileName: ({ context }) => context.received!.fileName, received: null }) },
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => asFailure(event.error), received: null }) },
      },
    },
    done: { on: { 'export.start': START } },
    failed: { on: { 'export.start': START } },
    cancelled: { on: { 'export.start': START } },
  },
});

export type CsvExportMachine = typeof csvExportMachine;
