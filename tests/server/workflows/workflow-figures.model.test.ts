import { describe, expect, it } from 'vitest';
import { accountLifecycleMachine } from '../../../rules/account-lifecycle.machine.ts';
import { requestLifecycleMachine } from '../../../rules/request-lifecycle.machine.ts';
import { DomainError } from '../../../server/core/errors.ts';
import { assembleFigures, figuresCsvRows, figuresPeriodOf, machineShape } from '../../../server/features/workflows/workflow-figures.model.ts';
import { accountFiguresScopeFor, figuresScopeFor } from '../../../server/features/workflows/workflow-figures.policy.ts';
import type { Actor } from '../../../server/core/actor.ts';

const NOW = new Date('2026-06-15T10:00:00Z');

describe('the figures of a lifecycle machine', () => {
  it('reads the states, the initial state and the arrows from the machine itself', () => {
    expect(machineShape(requestLifecycleMachine)).toEqual({
      initial: 'pending',
      states: ['pending', 'approved', 'rejected', 'expired', 'cancelled'],
      arrows: [
        { from: 'pending', to: 'approved', event: 'request.approve', guard: 'canDecide' },
        { from: 'pending', to: 'rejected', event: 'request.reject', guard: 'canDecide' },
        { from: 'pending', to: 'cancelled', event: 'request.cancel', guard: 'canCancel' },
        { from: 'pending', to: 'expired', event: 'request.expire', guard: 'isDue' },
      ],
    });
  });

  it('takes a period of 7, 30 or 90 days before now, 30 by default, and refuses another naming the field', () => {
    expect(figuresPeriodOf(7, NOW)).toEqual({ days: 7, from: new Date('2026-06-08T10:00:00Z'), to: NOW });
    expect(figuresPeriodOf(undefined, NOW).days).toBe(30);
    for (const days of [0, 1, 31, 365]) {
      try {
        figuresPeriodOf(days, NOW);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).fieldErrors).toEqual([{ field: 'query.days', message: 'La période doit être de 7, 30 ou 90 jours.' }]);
      }
    }
  });

  it('lays every state and arrow of the machine, zero where the data has nothing', () => {
    const figures = assembleFigures('request-lifecycle', requestLifecycleMachine, figuresPeriodOf(7, NOW), {
      states: { pending: 2 },
      started: 3,
      moves: [{ from: 'pending', to: 'rejected', count: 1, medianSeconds: 60 }],
    });
    expect(figures.states.map((s) => s.count)).toEqual([2, 0, 0, 0, 0]);
    expect(figures.transitions.map((t) => [t.to, t.count, t.medianSeconds])).toEqual([
      ['approved', 0, null],
      ['rejected', 1, 60],
      ['cancelled', 0, null],
      ['expired', 0, null],
    ]);
    expect(figuresCsvRows(figures, 'pending')[5]).toEqual({ kind: 'Entrée', from: '', to: 'pending', event: '', guard: null, count: 3, medianSeconds: null, days: 7 });
  });

  it('refuses data the machine does not have: a state, or a move that is not one of its arrows', () => {
    const period = figuresPeriodOf(7, NOW);
    expect(() => assembleFigures('request-lifecycle', requestLifecycleMachine, period, { states: { archived: 1 }, started: 0, moves: [] })).toThrow(/archived/);
    expect(() =>
      assembleFigures('request-lifecycle', requestLifecycleMachine, period, { states: {}, started: 0, moves: [{ from: 'approved', to: 'pending', count: 1, medianSeconds: 1 }] }),
    ).toThrow(/approved → pending/);
  });
});

describe("the account lifecycle's figures", () => {
  const period = figuresPeriodOf(30, NOW);

  it('lays a move on the one arrow of its guard where two join the same states on the same event', () => {
    const figures = assembleFigures('account-lifecycle', accountLifecycleMachine, period, {
      states: { active: 5, deleted: 1 },
      periodStates: ['deleted'],
      started: 0,
      moves: [
        { from: 'dormantWarned', to: 'deactivated', guard: 'canSystemDeactivate', count: 3, medianSeconds: 60 },
        { from: 'deactivated', to: 'deleted', guard: 'isPersonMove', count: 1, medianSeconds: 120 },
      ],
    });
    const between = (from: string, to: string) => figures.transitions.filter((t) => t.from === from && t.to === to).map((t) => [t.guard, t.count, t.medianSeconds]);
    expect(between('dormantWarned', 'deactivated')).toEqual([['isPersonMove', 0, null], ['canSystemDeactivate', 3, 60]]);
    expect(between('deactivated', 'deleted')).toEqual([['isPersonMove', 1, 120], ['canSystemDelete', 0, null]]);
    expect(figures.states.map((s) => [s.state, s.count, s.measure])).toEqual([
      ['active', 5, 'now'],
      ['dormantWarned', 0, 'now'],
      ['deactivated', 0, 'now'],
      ['deleted', 1, 'period'],
    ]);
    expect(figuresCsvRows(figures, 'active')[3]).toMatchObject({ kind: 'État (période)', to: 'deleted', count: 1 });
  });

  it('keeps a move the data does not record as null, and refuses a move that two arrows could take without its guard', () => {
    const unrecorded = assembleFigures('account-lifecycle', accountLifecycleMachine, period, { states: {}, started: 0, moves: [{ from: 'dormantWarned', to: 'active', count: null, medianSeconds: null }] });
    expect(unrecorded.transitions.find((t) => t.event === 'account.signIn')).toMatchObject({ count: null, medianSeconds: null });
    expect(() =>
      assembleFigures('account-lifecycle', accountLifecycleMachine, period, { states: {}, started: 0, moves: [{ from: 'dormantWarned', to: 'deactivated', count: 1, medianSeconds: 1 }] }),
    ).toThrow(/dormantWarned → deactivated is not one arrow/);
  });
});

describe('who reads the figures', () => {
  const actor = (overrides: Partial<Actor>): Actor =>
    ({ userId: 'u1', email: 'x@exemple-test.fr', isActive: true, isBackOffice: false, permissions: new Set<string>(), permissionScopes: new Map(), scope: new Set<string>(), ...overrides }) as Actor;

  it("gives the back office every request, an organization user holding USER_CREATE their own on the organizations they hold it on, and refuses anyone else", () => {
    expect(figuresScopeFor(actor({ isBackOffice: true, permissionScopes: null, scope: null }))).toEqual({ kind: 'all' });
    const reach = new Map([['USER_CREATE', { organizationIds: new Set(['o1', 'o2']), parentIds: new Set<string>() }]]);
    expect(figuresScopeFor(actor({ permissions: new Set(['USER_CREATE']), permissionScopes: reach }))).toEqual({ kind: 'requester', userId: 'u1', organizationIds: ['o1', 'o2'] });
    expect(() => figuresScopeFor(actor({ permissions: new Set(['USER_LIST']) }))).toThrow(/réservés au back-office/);
  });

  it("gives the account figures of the back office holding USER_LIST every account, of an employer administrator their users list's reach, and refuses anyone else", () => {
    expect(accountFiguresScopeFor(actor({ isBackOffice: true, permissions: new Set(['USER_LIST']), permissionScopes: null, scope: null }))).toEqual({ kind: 'all' });
    // A back-office account that may not list users counts nobody's account (security review).
    expect(() => accountFiguresScopeFor(actor({ isBackOffice: true, permissions: new Set(['ORG_LIST']), permissionScopes: null, scope: null }))).toThrow(/USER_LIST/);
    const list = { organizationIds: new Set(['o1', 'o2', 'o3']), parentIds: new Set(['o1']) };
    const reach = new Map([['USER_CREATE', { organizationIds: new Set(['o1']), parentIds: new Set<string>() }], ['USER_LIST', list]]);
    expect(accountFiguresScopeFor(actor({ permissions: new Set(['USER_CREATE', 'USER_LIST']), permissionScopes: reach }))).toEqual({ kind: 'users', reach: list });
    expect(() => accountFiguresScopeFor(actor({ permissions: new Set(['USER_LIST']) }))).toThrow(/réservés au back-office/);
  });
});
