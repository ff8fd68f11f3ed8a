// The life of a person's account as dormancy sees it (issue 23): active, warned of its dormancy, deactivated,
// deleted. Pure: the server's dormancy jobs ask it before every move (server/features/users/users-dormancy.service.ts);
// /workflows draws it. Who among people may deactivate, reactivate or delete is the server's policy's decision
// (users.policy.ts); this machine says which moves exist and when the portal itself may make them.
import { getNextSnapshot, setup } from 'xstate';

/** The states of an account, as the dormancy jobs read them from its row. */
export type AccountState = 'active' | 'dormantWarned' | 'deactivated' | 'deleted';

/**
 * Who makes a move: a person (the policy has already allowed them), or the portal's scheduled job, which moves
 * only once the period has passed (`now` and `dueAt` in milliseconds).
 */
export type AccountMover = { kind: 'person' } | { kind: 'system'; now: number; dueAt: number };

export type AccountLifecycleEvent =
  /** The portal warns a person who has not signed in for the first period. */
  | { type: 'account.warn'; now: number; dueAt: number }
  /** The person signs in: the warning ends. */
  | { type: 'account.signIn' }
  | { type: 'account.deactivate'; by: AccountMover }
  /** A person (the back office or an employer administrator) reactivates the account: the clock starts again. */
  | { type: 'account.reactivate' }
  /** `isBackOfficeAccount`: the account is the back office's, which the portal never deletes by itself. */
  | { type: 'account.delete'; by: AccountMover; isBackOfficeAccount: boolean };

const isDueSystem = (by: AccountMover) => by.kind === 'system' && by.now >= by.dueAt;

/**
 * active → dormantWarned (the portal, once the first period has passed) → active again on a sign-in;
 * dormantWarned → deactivated (the portal, once the second period has passed); active or dormantWarned →
 * deactivated (a person) → active (reactivated by a person); → deleted (a person, from any state; the portal only
 * from deactivated, once the third period has passed, and never a back-office account). Deleted is final.
 */
export const accountLifecycleMachine = setup({
  types: { events: {} as AccountLifecycleEvent },
  guards: {
    isWarningDue: ({ event }) => event.type === 'account.warn' && event.now >= event.dueAt,
    isPersonMove: ({ event }) => 'by' in event && event.by.kind === 'person',
    canSystemDeactivate: ({ event }) => event.type === 'account.deactivate' && isDueSystem(event.by),
    canSystemDelete: ({ event }) => event.type === 'account.delete' && isDueSystem(event.by) && !event.isBackOfficeAccount,
  },
}).createMachine({
  id: 'account-lifecycle',
  initial: 'active',
  states: {
    active: {
      on: {
        'account.warn': { guard: 'isWarningDue', target: 'dormantWarned' },
        'account.deactivate': { guard: 'isPersonMove', target: 'deactivated' },
        'account.delete': { guard: 'isPersonMove', target: 'deleted' },
      },
    },
    dormantWarned: {
      on: {
        'account.signIn': { target: 'active' },
        'account.deactivate': [
          { guard: 'isPersonMove', target: 'deactivated' },
          { guard: 'canSystemDeactivate', target: 'deactivated' },
        ],
        'account.delete': { guard: 'isPersonMove', target: 'deleted' },
      },
    },
    deactivated: {
      on: {
        'account.reactivate': { target: 'active' },
        'account.delete': [
          { guard: 'isPersonMove', target: 'deleted' },
          { guard: 'canSystemDelete', target: 'deleted' },
        ],
      },
    },
    deleted: { type: 'final' },
  },
});

/** The state `event` moves an account in `state` to, or null when the machine refuses the move. */
export function nextAccountState(state: AccountState, event: AccountLifecycleEvent): AccountState | null {
  const from = accountLifecycleMachine.resolveState({ value: state });
  const to = getNextSnapshot(accountLifecycleMachine, from, event);
  return to.value === from.value ? null : (to.value as AccountState);
}

/** The state of an account from its row: deactivated, warned (and not signed in since), or active. */
export function accountStateOf(row: { isActive: boolean; dormancyWarnedAt: Date | null }): AccountState {
  if (!row.isActive) return 'deactivated';
  return row.dormancyWarnedAt ? 'dormantWarned' : 'active';
}
