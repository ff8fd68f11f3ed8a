// The personal-data download machine's model (issue 23): the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromPromise, type SnapshotFrom } from 'xstate';
import { personalDataDownloadMachine, type DownloadInput, type SavedFile } from '../../src/machines/personal-data-download/personal-data-download.machine';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const modelMachine = personalDataDownloadMachine.provide({
  actors: { download: fromPromise<SavedFile, DownloadInput>(() => new Promise(() => {})) },
});

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'download.start', format: 'json' },
  { type: 'download.start', format: 'html' },
  { type: 'download.retry' },
  doneEvent('download', { fileName: 'donnees-personnelles-bonnet-zoe-2026-11-27.json' }),
  errorEvent('download', { status: 403, message: 'Réservé au back-office.' }),
  errorEvent('download', new Error('network')),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) => JSON.stringify([s.value, s.context.format, s.context.failure?.status ?? null, s.context.fileName !== null]),
  describeEvent: (e) => ('format' in e ? `${e.type}(${e.format})` : e.type),
  invariant: (s, last) => {
    const { format, failure, fileName } = s.context;
    // A download always knows its format and starts without the previous failure.
    if (s.matches('downloading') && (format === null || failure !== null)) throw new Error('downloading without a format, or with a failure');
    if (last?.type === 'download.start' && format !== last.format) throw new Error('a download of another format than asked');
    if (s.matches('done') && (fileName === null || failure !== null)) throw new Error('done without a saved file');
    // A failure is told (its message, or the network's), and 'Réessayer' has a format to ask for again.
    if (s.matches('failed') && (failure === null || format === null)) throw new Error('failed without a failure or a format');
    if (s.matches('idle') && (format !== null || failure !== null || fileName !== null)) throw new Error('idle with a download behind it');
  },
};
