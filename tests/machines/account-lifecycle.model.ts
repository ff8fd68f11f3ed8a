// The account-lifecycle machine's model (rules/account-lifecycle.machine.ts, issue 23): the test replays its paths,
// `npm run charts` counts them and measures coverage. Every mover is tried on every move, the portal early and due.
import type { SnapshotFrom } from 'xstate';
import { accountLifecycleMachine, type AccountLifecycleEvent, type AccountMover } from '../../rules/account-lifecycle.machine';
import type { MachineModel } from '../model/harness';

const DUE_AT = Date.UTC(2026, 11, 1, 9);
const person: AccountMover = { kind: 'person' };
const systemEarly: AccountMover = { kind: 'system', now: DUE_AT - 1, dueAt: DUE_AT };
const systemDue: AccountMover = { kind: 'system', now: DUE_AT, dueAt: DUE_AT };
const MOVERS = { person, systemEarly, systemDue };

const nameOf = (by: AccountMover) => Object.entries(MOVERS).find(([, m]) => m === by)?.[0] ?? 'someone';

const events: AccountLifecycleEvent[] = [
  { type: 'account.warn', now: DUE_AT - 1, dueAt: DUE_AT },
  { type: 'account.warn', now: DUE_AT, dueAt: DUE_AT },
  { type: 'account.signIn' },
  { type: 'account.reactivate' },
  ...Object.values(MOVERS).map((by) => ({ type: 'account.deactivate' as const, by })),
  ...Object.values(MOVERS).flatMap((by) => [true, false].map((isBackOfficeAccount) => ({ type: 'account.delete' as const, by, isBackOfficeAccount }))),
];

export const model: MachineModel<typeof accountLifecycleMachine> = {
  machine: accountLifecycleMachine,
  events,
  serializeState: (s: SnapshotFrom<typeof accountLifecycleMachine>) => JSON.stringify(s.value),
  describeEvent: (e) =>
    e.type === 'account.warn'
      ? `${e.type}(${e.now >= e.dueAt ? 'due' : 'early'})`
      : 'by' in e
        ? `${e.type}(${nameOf(e.by)}${'isBackOfficeAccount' in e && e.isBackOfficeAccount ? ', back-office account' : ''})`
        : e.type,
  invariant: (s, last) => {
    if (!last) return;
    // The portal moves only once due, never deletes a back-office account, and deactivates only a warned account.
    if (s.matches('dormantWarned') && last.type === 'account.warn' && last.now < last.dueAt) throw new Error('warned before its time');
    if (s.matches('deactivated') && last.type === 'account.deactivate' && last.by === systemEarly) throw new Error('deactivated before its time');
    if (s.matches('deleted') && last.type === 'account.delete' && last.by.kind === 'system') {
      if (last.by === systemEarly) throw new Error('deleted before its time');
      if (last.isBackOfficeAccount) throw new Error('a back-office account deleted by the portal');
    }
  },
};
