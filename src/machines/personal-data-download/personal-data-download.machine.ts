import { assign, setup } from 'xstate';
import { requiredActor } from '../shared/required-actor';

import type { PersonalDataFailure, PersonalDataFormat } from '../../domain/personal-data';

export type { PersonalDataFailure, PersonalDataFormat } from '../../domain/personal-data';

export interface PersonalDataDownloadContext {
  /** The format of the download under way, or of the last one. */
  format: PersonalDataFormat | null;
  /** The name of the last file saved. */
  fileName: string | null;
  failure: PersonalDataFailure | null;
}

export type PersonalDataDownloadEvent = { type: 'download.start'; format: PersonalDataFormat } | { type: 'download.retry' };

export interface DownloadInput {
  format: PersonalDataFormat;
}

/** What the download actor answers once the file is saved. */
export interface SavedFile {
  fileName: string;
}

const asFailure = (error: unknown): PersonalDataFailure =>
  error && typeof error === 'object' && 'status' in error && typeof error.status === 'number'
    ? { status: error.status, message: 'message' in error && typeof error.message === 'string' ? error.message : null }
    : { status: 0, message: null };

const START = { target: 'downloading', actions: 'begin' } as const;

/**
 * Downloading a person's data (issue 23): the file of one format is asked for and saved; a failure tells the
 * server's French message and offers to try the same download again ('Réessayer'); another download may start
 * once one has ended. Each download is a journal entry on the server.
 */
export const personalDataDownloadMachine = setup({
  types: { context: {} as PersonalDataDownloadContext, events: {} as PersonalDataDownloadEvent },
  actors: {
    // Asks for the file, then saves it (an object URL and a link); fails with { status, message }.
    download: requiredActor<SavedFile, DownloadInput>('download'),
  },
  actions: {
    begin: assign(({ event, context }) => ({ format: event.type === 'download.start' ? event.format : context.format, failure: null })),
  },
}).createMachine({
  id: 'personal-data-download',
  context: { format: null, fileName: null, failure: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'download.start': START },
    },
    downloading: {
      invoke: {
        id: 'download',
        src: 'download',
        input: ({ context }) => ({ format: context.format! }),
        onDone: { target: 'done', actions: assign({ fileName: ({ event }) => event.output.fileName }) },
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
      },
    },
    done: { on: { 'download.start': START } },
    failed: {
      on: {
        'download.start': START,
        // The same file again (failed is reached only from a download, whose format the context keeps).
        'download.retry': START,
      },
    },
  },
});

export type PersonalDataDownloadMachine = typeof personalDataDownloadMachine;
