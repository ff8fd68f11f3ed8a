import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { bulkActionMachine, BULK_POLL_MS, type BulkJob, type BulkStartInput } from '../../src/machines/bulk-action/bulk-action.machine';
import { describeMachineModel } from '../model/harness';
import { model } from './bulk-action.model';

describeMachineModel('bulk action machine (model)', model);

const A = '0b6f4a52-1c1e-4d7a-9c59-0c2f6a0e0001';
const B = '0b6f4a52-1c1e-4d7a-9c59-0c2f6a0e0002';
const C = '0b6f4a52-1c1e-4d7a-9c59-0c2f6a0e0003';
const job = (status: BulkJob['status'], processed: number): BulkJob => ({ id: 'job-1', action: 'deactivate', status, total: 2, processed, succeeded: processed, refusals: [] });

afterEach(() => vi.useRealTimers());

function started(answers: BulkJob[]) {
  const starts: BulkStartInput[] = [];
  const polls: string[] = [];
  const refreshList = vi.fn();
  const machine = bulkActionMachine.provide({
    actors: {
      start: fromPromise<BulkJob, BulkStartInput>(async ({ input }) => {
        starts.push(input);
        return job('running', 0);
      }),
      poll: fromPromise<BulkJob, { id: string }>(async ({ input }) => {
        polls.push(input.id);
        return answers.shift()!;
      }),
    },
    actions: { refreshList },
  });
  return { actor: createActor(machine, { input: { allowed: ['deactivate', 'reactivate', 'resendInvitation'] } }).start(), starts, polls, refreshList };
}

describe('the bulk action machine', () => {
  it('keeps explicit people across pages, starts the job with them, reads its progress every second until it has completed, then refreshes the list once', async () => {
    vi.useFakeTimers();
    const { actor, starts, polls, refreshList } = started([job('running', 1), job('completed', 2)]);
    actor.send({ type: 'selection.toggle', id: A, pageIds: [A, B] });
    actor.send({ type: 'selection.toggle', id: C, pageIds: [C] });
    actor.send({ type: 'bulk.choose', action: 'deactivate' });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'bulk.confirm' });
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([{ action: 'deactivate', selection: { kind: 'ids', ids: [A, C] } }]);
    expect(actor.getSnapshot().matches('running')).toBe(true);
    expect(polls).toEqual([]);
    await vi.advanceTimersByTimeAsync(BULK_POLL_MS);
    expect(actor.getSnapshot().context.job?.processed).toBe(1);
    expect(refreshList).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(BULK_POLL_MS);
    expect(polls).toEqual(['job-1', 'job-1']);
    expect(actor.getSnapshot().value).toBe('report');
    expect(refreshList).toHaveBeenCalledOnce();
    actor.send({ type: 'bulk.dismiss' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.selection).toEqual({ kind: 'ids', ids: [] });
  });

  it('sends every result of the filters once they are all selected, and refuses an action the caller may not ask for', async () => {
    const { actor, starts } = started([job('completed', 2)]);
    actor.send({ type: 'selection.togglePage', pageIds: [A, B] });
    actor.send({ type: 'selection.selectAll', filters: { roleCode: 'COMPTABLE', includeInactive: true }, total: 42 });
    actor.send({ type: 'bulk.choose', action: 'delete' });
    expect(actor.getSnapshot().value).toBe('selecting');
    actor.send({ type: 'bulk.choose', action: 'resendInvitation' });
    actor.send({ type: 'bulk.confirm' });
    await waitFor(actor, (s) => s.matches('running'));
    expect(starts).toEqual([{ action: 'resendInvitation', selection: { kind: 'all', filters: { roleCode: 'COMPTABLE', includeInactive: true }, total: 42 } }]);
  });

  it('goes back to nothing selected when the last person is unticked', () => {
    const { actor } = started([]);
    actor.send({ type: 'selection.toggle', id: A, pageIds: [A] });
    actor.send({ type: 'selection.toggle', id: A, pageIds: [A] });
    expect(actor.getSnapshot().value).toBe('idle');
  });
});
