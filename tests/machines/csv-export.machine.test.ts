import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { csvExportMachine } from '../../src/machines/csv-export/csv-export.machine';
import { csvExportActors, type OpenCsvExport } from '../../src/machines/csv-export/csv-export.actors';
import { ApiFailure } from '../../src/api/client';
import { describeMachineModel } from '../model/harness';
import { model } from './csv-export.model';

describeMachineModel('CSV export machine (model)', model);

const encoder = new TextEncoder();
/** A body that gives these chunks one by one, each when asked, and tells whether its reader was cancelled. */
function bodyOf(chunks: string[]) {
  const state = { cancelled: false, pulls: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[state.pulls++];
      if (next === undefined) controller.close();
      else controller.enqueue(encoder.encode(next));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

describe('the CSV export actors', () => {
  it('reports the rows received chunk by chunk, quoted line ends aside, then saves the whole file under its name', async () => {
    const { body } = bodyOf(['\uFEFFNom;Fonction\r\nBonnet;"Responsable\r\nRH"\r\n', 'Faure;"dit ""Noël"""\r\n', 'Marchand;\r\n']);
    const saved: { text: string; name: string }[] = [];
    const progress: number[] = [];
    const open: OpenCsvExport = async () => ({ body, fileName: 'users-2026-11-27.csv' });
    const actor = createActor(
      csvExportMachine.provide(csvExportActors(open, (file, name) => void file.arrayBuffer().then((bytes) => saved.push({ text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), name })))),
    );
    actor.subscribe((s) => progress.push(s.context.rows));
    actor.start();
    actor.send({ type: 'export.start', query: { includeInactive: true } });
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(done.context.rows).toBe(3);
    expect(done.context.fileName).toBe('users-2026-11-27.csv');
    expect(progress).toEqual(expect.arrayContaining([1, 2, 3]));
    await expect.poll(() => saved.length).toBe(1);
    expect(saved[0]!.text).toBe('\uFEFFNom;Fonction\r\nBonnet;"Responsable\r\nRH"\r\nFaure;"dit ""Noël"""\r\nMarchand;\r\n');
  });

  it('aborts the request when the person cancels, and reports nothing more', async () => {
    let signal: AbortSignal | null = null;
    const { body, state } = bodyOf(['\uFEFFNom\r\nA\r\n']);
    const open: OpenCsvExport = async (_query, s) => {
      signal = s;
      return { body, fileName: 'users.csv' };
    };
    const actor = createActor(csvExportMachine.provide(csvExportActors(open, () => {}))).start();
    actor.send({ type: 'export.start', query: {} });
    await waitFor(actor, (s) => s.context.rows === 1);
    actor.send({ type: 'export.cancel' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(signal!.aborted).toBe(true);
    expect(state.cancelled || state.pulls <= 2).toBe(true);
  });

  it("fails with the server's French message (429: an export already running)", async () => {
    const open: OpenCsvExport = async () => {
      throw new ApiFailure(429, 'Un export est déjà en cours pour vous.', { message: 'Un export est déjà en cours pour vous.' });
    };
    const actor = createActor(csvExportMachine.provide(csvExportActors(open, () => {}))).start();
    actor.send({ type: 'export.start', query: {} });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.failure).toEqual({ status: 429, message: 'Un export est déjà en cours pour vous.' });
  });
});
