import { fromPromise } from 'xstate';
import { ApiFailure } from '../../api/client';
import { saveWithObjectUrl } from '../csv-export/csv-export.actors';
import type { DownloadInput, PersonalDataFailure, PersonalDataFormat, SavedFile } from './personal-data-download.machine';

/** Asks for a person's data in a format (src/api/personal-data.ts): the file and its name. */
export type OpenPersonalData = (format: PersonalDataFormat, signal: AbortSignal) => Promise<{ file: Blob; fileName: string }>;

const failureOf = (error: unknown): PersonalDataFailure => (error instanceof ApiFailure ? { status: error.status, message: error.body?.message ?? null } : { status: 0, message: null });

/** The download's side effect: the file asked for, then saved in the browser's downloads. */
export function personalDataDownloadActors(open: OpenPersonalData, save: (file: Blob, fileName: string) => void = saveWithObjectUrl) {
  return {
    actors: {
      download: fromPromise<SavedFile, DownloadInput>(async ({ input, signal }) => {
        try {
          const { file, fileName } = await open(input.format, signal);
          save(file, fileName);
          return { fileName };
        } catch (error) {
          throw failureOf(error);
        }
      }),
    },
  };
}
