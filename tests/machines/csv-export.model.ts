// The CSV export machine's model: the test replays its paths, `npm run charts` counts them and measures coverage.
import { fromCallback, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { csvExportMachine, type DownloadInput, type ReceivedCsv } from '../../src/machines/csv-export/csv-export.machine';
import { doneEvent, errorEvent, type MachineModel, type ModelEvent } from '../model/harness';

const modelMachine = csvExportMachine.provide({
  actors: {
    download: fromCallback<EventObject, DownloadInput>(() => () => {}),
    save: fromPromise<void, ReceivedCsv>(() => new Promise(() => {})),
  },
});

const filters = { organizationId: '2b0a3c1e-0000-4000-8000-000000000001', includeInactive: true, sort: 'name' };

const events: ModelEvent<typeof modelMachine>[] = [
  { type: 'export.start', query: filters },
  { type: 'export.cancel' },
  { type: 'export.progress', rows: 1200, bytes: 180_000 },
  { type: 'export.received', rows: 1234, bytes: 185_000, fileName: 'users-2026-11-27.csv', file: new Blob(['\uFEFFNom;Prénom\r\n']) },
  { type: 'export.failed', failure: { status: 429, message: 'Un export est déjà en cours pour vous.' } },
  { type: 'export.failed', failure: { status: 0, message: null } },
  doneEvent('save'),
  errorEvent('save', new Error('download refused')),
];

export const model: MachineModel<typeof modelMachine> = {
  machine: modelMachine,
  events,
  serializeState: (s: SnapshotFrom<typeof modelMachine>) =>
    JSON.stringify([s.value, s.context.rows > 0, s.context.received !== null, s.context.failure?.status ?? null, s.context.fileName !== null]),
  describeEvent: (e) => ('failure' in e ? `${e.type}(${e.failure.status})` : e.type),
  invariant: (s, last) => {
    const { query, rows, bytes, received, failure, fileName } = s.context;
    if (rows < 0 || bytes < 0) throw new Error('negative progress');
    // Each export starts from nothing: no rows, no failure, no file of the previous one.
    if (last?.type === 'export.start' && (rows !== 0 || failure !== null || received !== null)) throw new Error('an export started with the previous one’s state');
    if ((s.matches('downloading') || s.matches('saving')) && (query === null || failure !== null)) throw new Error('downloading without filters, or with a failure');
    // Only a whole file is saved, and only a saved file is done.
    if (s.matches('saving') && received === null) throw new Error('saving without a file');
    if (s.matches('done') && (received !== null || fileName === null || failure !== null)) throw new Error('done without a saved file');
    if (s.matches('failed') && failure === null) throw new Error('failed without a failure');
    // A cancelled export keeps no file and tells no failure.
    if (s.matches('cancelled') && (received !== null || failure !== null)) throw new Error('cancelled with a file or a failure');
  },
};
