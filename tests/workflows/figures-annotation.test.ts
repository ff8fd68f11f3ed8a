import { describe, expect, it } from 'vitest';
import { accountLifecycleMachine } from '../../rules/account-lifecycle.machine';
import { requestLifecycleMachine } from '../../rules/request-lifecycle.machine';
import { accountLifecycle, requestLifecycle } from '../../src/workflows/catalog-requests';
import { chartFigures, figuresTables, frenchDuration, type FiguresData } from '../../src/workflows/figures-annotation';
import { machineToMermaid } from '../../src/workflows/mermaid-chart';

const FIGURES: FiguresData = {
  days: 7,
  started: 9,
  states: [
    { state: 'pending', count: 4, measure: 'now' },
    { state: 'approved', count: 1250, measure: 'now' },
    { state: 'rejected', count: 2, measure: 'now' },
    { state: 'expired', count: 1, measure: 'now' },
    { state: 'cancelled', count: 0, measure: 'now' },
  ],
  transitions: [
    { from: 'pending', to: 'approved', event: 'request.approve', guard: 'canDecide', count: 4, medianSeconds: 3 * 3600 },
    { from: 'pending', to: 'rejected', event: 'request.reject', guard: 'canDecide', count: 2, medianSeconds: 5 * 3600 + 30 * 60 },
    { from: 'pending', to: 'cancelled', event: 'request.cancel', guard: 'canCancel', count: 0, medianSeconds: null },
    { from: 'pending', to: 'expired', event: 'request.expire', guard: 'isDue', count: 1, medianSeconds: 30 * 24 * 3600 },
  ],
};

describe('the figures drawn on a lifecycle chart', () => {
  it('writes times in French, to the minute, then the hour past a day', () => {
    expect([45, 59.6, 720, 3 * 3600, 5.5 * 3600, 23 * 3600 + 59 * 60 + 50, 30 * 24 * 3600, 2 * 24 * 3600 + 4 * 3600].map(frenchDuration)).toEqual([
      '45 s', '1 min', '12 min', '3 h', '5 h 30 min', '1 j', '30 j', '2 j 4 h',
    ]);
  });

  it("puts each state's count after its name, each arrow's count and median after its label, and the entries on the start's arrow", () => {
    const chart = machineToMermaid(requestLifecycleMachine, chartFigures(FIGURES));
    expect(chart.split('\n')).toEqual([
      'stateDiagram-v2',
      '  [*] --> pending: 9 en 7 j',
      '  state "pending · 4 actuellement" as pending',
      `  state "approved · 1${'\u202f'}250 actuellement" as approved`,
      '  approved --> [*]',
      '  state "rejected · 2 actuellement" as rejected',
      '  rejected --> [*]',
      '  state "expired · 1 actuellement" as expired',
      '  expired --> [*]',
      '  state "cancelled · 0 actuellement" as cancelled',
      '  cancelled --> [*]',
      '  pending --> approved: request.approve [canDecide] · 4 en 7 j, médiane 3 h',
      '  pending --> rejected: request.reject [canDecide] · 2 en 7 j, médiane 5 h 30 min',
      '  pending --> cancelled: request.cancel [canCancel] · 0 en 7 j',
      '  pending --> expired: request.expire [isDue] · 1 en 7 j, médiane 30 j',
      '',
    ]);
  });

  it('draws the chart as before without figures', () => {
    expect(machineToMermaid(requestLifecycleMachine)).not.toMatch(/actuellement|en 7 j/);
    expect(machineToMermaid(requestLifecycleMachine)).toContain('  [*] --> pending\n');
  });

  it('gives the table the same numbers with the catalog’s French labels', () => {
    const tables = figuresTables(requestLifecycle, FIGURES);
    expect(tables.states[0]).toEqual({ id: 'pending', label: 'En attente', count: 4, overPeriod: false });
    expect(tables.periodStates).toEqual([]);
    expect(tables.transitions.map((r) => [r.label, r.event, r.count, r.median])).toEqual([
      ['Entrée (création)', null, 9, '—'],
      ['En attente → Approuvée', 'request.approve', 4, '3 h'],
      ['En attente → Refusée', 'request.reject', 2, '5 h 30 min'],
      ['En attente → Annulée', 'request.cancel', 0, '—'],
      ['En attente → Expirée', 'request.expire', 1, '30 j'],
    ]);
  });

  it('tells apart two arrows on one event by their guard, says a move is not recorded, and counts a state whose items are gone over the period', () => {
    const figures: FiguresData = {
      days: 30,
      started: 2,
      states: [
        { state: 'active', count: 10, measure: 'now' },
        { state: 'dormantWarned', count: 1, measure: 'now' },
        { state: 'deactivated', count: 3, measure: 'now' },
        { state: 'deleted', count: 2, measure: 'period' },
      ],
      transitions: [
        { from: 'dormantWarned', to: 'active', event: 'account.signIn', guard: null, count: null, medianSeconds: null },
        { from: 'dormantWarned', to: 'deactivated', event: 'account.deactivate', guard: 'isPersonMove', count: 1, medianSeconds: 3600 },
        { from: 'dormantWarned', to: 'deactivated', event: 'account.deactivate', guard: 'canSystemDeactivate', count: 4, medianSeconds: 30 * 24 * 3600 },
      ],
    };
    const chart = machineToMermaid(accountLifecycleMachine, chartFigures(figures)).split('\n');
    expect(chart).toContain('  state "deleted · 2 en 30 j" as deleted');
    expect(chart).toContain('  dormantWarned --> active: account.signIn · non enregistré');
    expect(chart).toContain('  dormantWarned --> deactivated: account.deactivate [isPersonMove] · 1 en 30 j, médiane 1 h');
    expect(chart).toContain('  dormantWarned --> deactivated: account.deactivate [canSystemDeactivate] · 4 en 30 j, médiane 30 j');
    const tables = figuresTables(accountLifecycle, figures);
    expect(tables.periodStates).toEqual(['Supprimé']);
    expect(tables.transitions.slice(1).map((r) => [r.guard, r.count])).toEqual([[null, null], ['isPersonMove', 1], ['canSystemDeactivate', 4]]);
  });
});
