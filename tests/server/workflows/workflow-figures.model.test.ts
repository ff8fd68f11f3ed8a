import { describe, expect, it } from 'vitest';
import { requestLifecycleMachine } from '../../../rules/request-lifecycle.machine.ts';
import { DomainError } from '../../../server/core/errors.ts';
import { assembleFigures, figuresCsvRows, figuresPeriodOf, machineShape } from '../../../server/features/workflows/workflow-figures.model.ts';
import { figuresScopeFor } from '../../../server/features/workflows/workflow-figures.policy.ts';
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

describe('who reads the figures', () => {
  const actor = (overrides: Partial<Actor>): Actor =>
    ({ userId: 'u1', email: 'x@exemple-test.fr', isActive: true, isBackOffice: false, permissions: new Set<string>(), permissionScopes: new Map(), scope: new Set<string>(), ...overrides }) as Actor;

  it("gives the back office every request, an organization user holding USER_CREATE their own on the organizations they hold it on, and refuses anyone else", () => {
    expect(figuresScopeFor(actor({ isBackOffice: true, permissionScopes: null, scope: null }))).toEqual({ kind: 'all' });
    const reach = new Map([['USER_CREATE', { organizationIds: new Set(['o1', 'o2']), parentIds: new Set<string>() }]]);
    expect(figuresScopeFor(actor({ permissions: new Set(['USER_CREATE']), permissionScopes: reach }))).toEqual({ kind: 'requester', userId: 'u1', organizationIds: ['o1', 'o2'] });
    expect(() => figuresScopeFor(actor({ permissions: new Set(['USER_LIST']) }))).toThrow(/réservés au back-office/);
  });
});
