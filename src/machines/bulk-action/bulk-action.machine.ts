import { assign, setup, type ErrorActorEvent } from 'xstate';
import { requiredActor } from '../shared/required-actor';
import { selectionCount, toggleOne, togglePage, type BulkFilters, type UserSelection } from '../../domain/user-selection';

/** The actions the users list applies to a selection (POST /api/v2/users/bulk-actions). */
export type BulkActionKind = 'deactivate' | 'reactivate' | 'resendInvitation' | 'delete';

/** A person the server did not act on, and why (in French). */
export interface BulkRefusal {
  userId: string;
  name: string;
  email: string;
  reason: string;
}

/** The job as the server reports it while it runs, then once completed. */
export interface BulkJob {
  id: string;
  action: BulkActionKind;
  status: 'running' | 'completed';
  total: number;
  processed: number;
  succeeded: number;
  refusals: BulkRefusal[];
}

/** Why starting or following the job failed: the HTTP status (0: the network) and the server's French message. */
export interface BulkFailure {
  status: number;
  message: string | null;
}

export interface BulkStartInput {
  action: BulkActionKind;
  selection: UserSelection;
}

export interface BulkActionContext {
  /** What the caller may ask for (the server decides each person anyway). */
  allowed: BulkActionKind[];
  selection: UserSelection;
  action: BulkActionKind | null;
  job: BulkJob | null;
  failure: BulkFailure | null;
}

export interface BulkActionInput {
  allowed: BulkActionKind[];
}

export type BulkActionEvent =
  | { type: 'selection.toggle'; id: string; pageIds: string[] }
  | { type: 'selection.togglePage'; pageIds: string[] }
  | { type: 'selection.selectAll'; filters: BulkFilters; total: number }
  | { type: 'selection.clear' }
  | { type: 'bulk.choose'; action: BulkActionKind }
  | { type: 'bulk.confirm' }
  | { type: 'bulk.cancel' }
  | { type: 'bulk.retry' }
  | { type: 'bulk.dismiss' };

/** How often the job's progress is read while it runs. */
export const BULK_POLL_MS = 1000;

const NOTHING: UserSelection = { kind: 'ids', ids: [] };

const asFailure = (error: unknown): BulkFailure =>
  error && typeof error === 'object' && 'status' in error ? (error as BulkFailure) : { status: 0, message: null };

/**
 * Actions on many users (issue 22): the selection on the list (explicit people, kept across pages, or every
 * result of the filters), a confirmation naming the count and the action, the start of the server's job, its
 * progress read every second until it has completed, then its report (how many succeeded, each refusal with its
 * reason). The list is told to refresh once the job has ended, whichever way; the report's close clears the
 * selection. A start refused (or lost) keeps the selection for another try; a lost progress can be read again.
 */
export const bulkActionMachine = setup({
  types: { context: {} as BulkActionContext, events: {} as BulkActionEvent, input: {} as BulkActionInput },
  actors: {
    start: requiredActor<BulkJob, BulkStartInput>('start'),
    poll: requiredActor<BulkJob, { id: string }>('poll'),
  },
  actions: {
    // Supplied by the screen: the list is read again (the people acted on have changed).
    refreshList: () => {},
    clearSelection: assign({ selection: NOTHING, action: null, job: null, failure: null }),
    toggle: assign({ selection: ({ context, event }) => (event.type === 'selection.toggle' ? toggleOne(context.selection, event.id, event.pageIds) : context.selection) }),
    togglePage: assign({ selection: ({ context, event }) => (event.type === 'selection.togglePage' ? togglePage(context.selection, event.pageIds) : context.selection) }),
    selectAll: assign({ selection: ({ context, event }) => (event.type === 'selection.selectAll' ? { kind: 'all', filters: event.filters, total: event.total } : context.selection) }),
    recordJob: assign((_, job: BulkJob) => ({ job, failure: null })),
    recordFailure: assign((_, error: unknown) => ({ failure: asFailure(error) })),
  },
  guards: {
    isAllowed: ({ context, event }) => event.type === 'bulk.choose' && context.allowed.includes(event.action),
    isLastUnticked: ({ context, event }) =>
      selectionCount(event.type === 'selection.toggle' ? toggleOne(context.selection, event.id, event.pageIds) : event.type === 'selection.togglePage' ? togglePage(context.selection, event.pageIds) : context.selection) === 0,
    isCompleted: (_, job: BulkJob) => job.status === 'completed',
  },
}).createMachine({
  id: 'bulk-action',
  context: ({ input }) => ({ allowed: input.allowed, selection: NOTHING, action: null, job: null, failure: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'selection.toggle': { target: 'selecting', actions: 'toggle' },
        'selection.togglePage': { target: 'selecting', actions: 'togglePage' },
        'selection.selectAll': { target: 'selecting', actions: 'selectAll' },
      },
    },
    selecting: {
      on: {
        // Unticking the last one leaves nothing selected.
        'selection.toggle': [{ guard: 'isLastUnticked', target: 'idle', actions: 'clearSelection' }, { actions: 'toggle' }],
        'selection.togglePage': [{ guard: 'isLastUnticked', target: 'idle', actions: 'clearSelection' }, { actions: 'togglePage' }],
        'selection.selectAll': { actions: 'selectAll' },
        'selection.clear': { target: 'idle', actions: 'clearSelection' },
        'bulk.choose': { guard: 'isAllowed', target: 'confirming', actions: assign({ action: ({ event }) => event.action }) },
      },
    },
    confirming: {
      on: {
        'bulk.confirm': 'starting',
        'bulk.cancel': { target: 'selecting', actions: assign({ action: null }) },
      },
    },
    starting: {
      invoke: {
        id: 'start',
        src: 'start',
        input: ({ context }) => ({ action: context.action!, selection: context.selection }),
        onDone: [
          { guard: { type: 'isCompleted', params: ({ event }) => event.output }, target: 'report', actions: { type: 'recordJob', params: ({ event }) => event.output } },
          { target: 'running', actions: { type: 'recordJob', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'recordFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
      },
    },
    running: {
      initial: 'waiting',
      states: {
        waiting: { after: { [BULK_POLL_MS]: 'polling' } },
        polling: {
          invoke: {
            id: 'poll',
            src: 'poll',
            input: ({ context }) => ({ id: context.job!.id }),
            onDone: [
              { guard: { type: 'isCompleted', params: ({ event }) => event.output }, target: '#bulk-action.report', actions: { type: 'recordJob', params: ({ event }) => event.output } },
              { target: 'waiting', actions: { type: 'recordJob', params: ({ event }) => event.output } },
            ],
            onError: { target: '#bulk-action.interrupted', actions: { type: 'recordFailure', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
          },
        },
      },
    },
    // The job was started but its progress could not be read: it goes on at the server; read it again or leave.
    interrupted: {
      entry: 'refreshList',
      on: {
        'bulk.retry': { target: 'running.polling', actions: assign({ failure: null }) },
        'bulk.dismiss': { target: 'idle', actions: 'clearSelection' },
      },
    },
    report: {
      entry: 'refreshList',
      on: { 'bulk.dismiss': { target: 'idle', actions: 'clearSelection' } },
    },
    // Nothing was started (refused, or the server out of reach): the selection stays for another try.
    failed: {
      on: { 'bulk.dismiss': { target: 'selecting', actions: assign({ action: null, failure: null }) } },
    },
  },
});

export type BulkActionMachine = typeof bulkActionMachine;
