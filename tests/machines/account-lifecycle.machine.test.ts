import { describe, expect, it } from 'vitest';
import { accountStateOf, nextAccountState, type AccountMover, type AccountState } from '../../rules/account-lifecycle.machine';
import { describeMachineModel } from '../model/harness';
import { model } from './account-lifecycle.model';

describeMachineModel('account lifecycle machine (model)', model);

const person: AccountMover = { kind: 'person' };
const due: AccountMover = { kind: 'system', now: 10, dueAt: 10 };
const early: AccountMover = { kind: 'system', now: 9, dueAt: 10 };

describe('the moves the dormancy jobs ask of it', () => {
  it('warns an active account once due, and a sign-in ends the warning', () => {
    expect(nextAccountState('active', { type: 'account.warn', now: 10, dueAt: 10 })).toBe('dormantWarned');
    expect(nextAccountState('active', { type: 'account.warn', now: 9, dueAt: 10 })).toBeNull();
    expect(nextAccountState('dormantWarned', { type: 'account.warn', now: 10, dueAt: 0 })).toBeNull();
    expect(nextAccountState('dormantWarned', { type: 'account.signIn' })).toBe('active');
  });

  it('lets the portal deactivate only a warned account, once due', () => {
    expect(nextAccountState('dormantWarned', { type: 'account.deactivate', by: due })).toBe('deactivated');
    expect(nextAccountState('dormantWarned', { type: 'account.deactivate', by: early })).toBeNull();
    expect(nextAccountState('active', { type: 'account.deactivate', by: due })).toBeNull();
    expect(nextAccountState('active', { type: 'account.deactivate', by: person })).toBe('deactivated');
    expect(nextAccountState('deactivated', { type: 'account.reactivate' })).toBe('active');
  });

  it('never lets the portal delete a back-office account, nor an account still active', () => {
    expect(nextAccountState('deactivated', { type: 'account.delete', by: due, isBackOfficeAccount: false })).toBe('deleted');
    expect(nextAccountState('deactivated', { type: 'account.delete', by: due, isBackOfficeAccount: true })).toBeNull();
    expect(nextAccountState('deactivated', { type: 'account.delete', by: early, isBackOfficeAccount: false })).toBeNull();
    expect(nextAccountState('dormantWarned', { type: 'account.delete', by: due, isBackOfficeAccount: false })).toBeNull();
    expect(nextAccountState('active', { type: 'account.delete', by: person, isBackOfficeAccount: true })).toBe('deleted');
    for (const type of ['account.signIn', 'account.reactivate'] as const) expect(nextAccountState('deleted', { type })).toBeNull();
  });

  it('reads the state from the row', () => {
    const states: AccountState[] = [
      accountStateOf({ isActive: true, dormancyWarnedAt: null }),
      accountStateOf({ isActive: true, dormancyWarnedAt: new Date() }),
      accountStateOf({ isActive: false, dormancyWarnedAt: new Date() }),
    ];
    expect(states).toEqual(['active', 'dormantWarned', 'deactivated']);
  });
});
