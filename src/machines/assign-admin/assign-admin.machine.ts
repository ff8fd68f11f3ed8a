import { assign, setup } from 'xstate';
import { sirensOfOrganizations, type Ineligibility } from '../../domain/admin-request';
import type { OrganizationEntry } from '../../../rules/codes';
import { requiredActor } from '../shared/required-actor';

/** A listed user as the workflow needs them: who to invite, where, and whether they may be picked (decided by the screen). */
export interface AssignCandidate {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string | null;
  phoneNumber: string | null;
  /** Codes of the roles held, as listed. */
  roles: string[];
  organizations: OrganizationEntry[];
  ineligibility: Ineligibility | null;
}

export interface SubmitRequestsInput {
  user: AssignCandidate;
  /** The user's SIRENs (spec §5), at least one. */
  sirens: string[];
  senderEmail: string;
}

/** How many requests were created and how many SIRENs failed (an organization not found counts as a failure). */
export interface SubmitRequestsOutput {
  created: number;
  failed: number;
}

/** Spec §8: the user has no organization; no request at all was created; something unexpected stopped the submission. */
export type AssignError = { kind: 'noOrganization' } | { kind: 'noneCreated' } | { kind: 'unexpected'; message: string };

export interface AssignContext {
  senderEmail: string;
  selected: AssignCandidate | null;
  outcome: SubmitRequestsOutput | null;
  error: AssignError | null;
}

export type AssignEvent = { type: 'user.select'; user: AssignCandidate } | { type: 'selection.clear' } | { type: 'request.submit' };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : typeof error === 'string' ? error : String(error));

/**
 * Assigning the member-administrator role to an existing user (spec §2 'Assign-existing', §5, §8): pick an
 * eligible user (no INTERNAL role, no pending request), then one ROLE_ASSIGNMENT request per SIREN of their
 * organizations. Never submits without an eligible selection, nor for a user without any SIREN.
 */
export const assignAdminMachine = setup({
  types: {
    context: {} as AssignContext,
    events: {} as AssignEvent,
    input: {} as { senderEmail: string },
  },
  actors: {
    submitRequests: requiredActor<SubmitRequestsOutput, SubmitRequestsInput>('submitRequests'),
  },
  guards: {
    canSelect: ({ event }) => event.type === 'user.select' && event.user.ineligibility === null,
    hasNoSiren: ({ context }) => context.selected !== null && sirensOfOrganizations(context.selected.organizations).length === 0,
    hasCreatedAny: (_, output: SubmitRequestsOutput) => output.created > 0,
  },
}).createMachine({
  id: 'assign-admin',
  context: ({ input }) => ({ senderEmail: input.senderEmail, selected: null, outcome: null, error: null }),
  initial: 'browsing',
  states: {
    browsing: {
      on: {
        'user.select': { guard: 'canSelect', target: 'selected', actions: assign({ selected: ({ event }) => event.user, error: null }) },
      },
    },
    selected: {
      on: {
        'selection.clear': { target: 'browsing', actions: assign({ selected: null, error: null }) },
        'request.submit': [
          { guard: 'hasNoSiren', actions: assign({ error: { kind: 'noOrganization' } }) },
          { target: 'submitting', actions: assign({ error: null }) },
        ],
      },
    },
    submitting: {
      invoke: {
        id: 'submitRequests',
        src: 'submitRequests',
        input: ({ context }) => ({ user: context.selected!, sirens: sirensOfOrganizations(context.selected!.organizations), senderEmail: context.senderEmail }),
        onDone: [
          { guard: { type: 'hasCreatedAny', params: ({ event }) => event.output }, target: 'submitted', actions: assign({ outcome: ({ event }) => event.output }) },
          { target: 'selected', actions: assign({ error: { kind: 'noneCreated' } }) },
        ],
        onError: { target: 'selected', actions: assign({ error: ({ event }) => ({ kind: 'unexpected', message: messageOf(event.error) }) }) },
      },
    },
    submitted: { type: 'final' },
  },
});

export type AssignAdminMachine = typeof assignAdminMachine;
