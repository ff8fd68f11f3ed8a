import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { ApiFailure } from '../../src/api/client';
import { personalDataDownloadMachine } from '../../src/machines/personal-data-download/personal-data-download.machine';
import { personalDataDownloadActors, type OpenPersonalData } from '../../src/machines/personal-data-download/personal-data-download.actors';
import { describeMachineModel } from '../model/harness';
import { model } from './personal-data-download.model';

describeMachineModel('personal-data download machine (model)', model);

describe('the personal-data download actors', () => {
  it('asks for the chosen format and saves the file under its name', async () => {
    const asked: string[] = [];
    const saved: string[] = [];
    const open: OpenPersonalData = async (format) => {
      asked.push(format);
      return { file: new Blob(['<!doctype html>']), fileName: `donnees-personnelles-bonnet-zoe-2026-11-27.${format}` };
    };
    const actor = createActor(personalDataDownloadMachine.provide(personalDataDownloadActors(open, (_file, name) => saved.push(name)))).start();
    actor.send({ type: 'download.start', format: 'html' });
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(done.context.fileName).toBe('donnees-personnelles-bonnet-zoe-2026-11-27.html');
    expect(asked).toEqual(['html']);
    expect(saved).toEqual(['donnees-personnelles-bonnet-zoe-2026-11-27.html']);
  });

  it("fails with the server's French message, then asks for the same format again on retry", async () => {
    let calls = 0;
    const open: OpenPersonalData = async (format) => {
      calls += 1;
      if (calls === 1) throw new ApiFailure(403, 'Réservé au back-office.', { error: 'forbidden', message: 'Réservé au back-office.', requestId: 'r1' });
      return { file: new Blob(['{}']), fileName: `donnees.${format}` };
    };
    const actor = createActor(personalDataDownloadMachine.provide(personalDataDownloadActors(open, () => {}))).start();
    actor.send({ type: 'download.start', format: 'json' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.failure).toEqual({ status: 403, message: 'Réservé au back-office.' });
    actor.send({ type: 'download.retry' });
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(done.context).toMatchObject({ fileName: 'donnees.json', failure: null });
  });

  it('tells a network failure as status 0 without a message', async () => {
    const open: OpenPersonalData = async () => {
      throw new TypeError('Failed to fetch');
    };
    const actor = createActor(personalDataDownloadMachine.provide(personalDataDownloadActors(open, () => {}))).start();
    actor.send({ type: 'download.start', format: 'json' });
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.failure).toEqual({ status: 0, message: null });
  });
});
