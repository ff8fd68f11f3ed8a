import { describe, expect, it } from 'vitest';
import { and, fromPromise, not, or, setup, stateIn } from 'xstate';
import { machineToMermaid } from '../../src/workflows/mermaid-chart';

const work = fromPromise(async () => 1);

describe('machineToMermaid', () => {
  it('draws the initial state, an invoked actor with its done and error transitions, a delay and a final state', () => {
    const machine = setup({ actors: { loadValue: work } }).createMachine({
      id: 'fetch',
      initial: 'idle',
      states: {
        idle: { on: { 'fetch.start': 'loading' } },
        loading: { invoke: { id: 'load', src: 'loadValue', onDone: 'shown', onError: 'failed' } },
        shown: { after: { 3000: 'done' } },
        failed: { on: { 'fetch.retry': 'loading' } },
        done: { type: 'final' },
      },
    });
    expect(machineToMermaid(machine)).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> idle',
        '  idle',
        '  state "loading (invoke loadValue)" as loading',
        '  shown',
        '  failed',
        '  done',
        '  done --> [*]',
        '  idle --> loading: fetch.start',
        '  loading --> shown: done load',
        '  loading --> failed: error load',
        '  shown --> done: after 3000 ms',
        '  failed --> loading: fetch.retry',
        '',
      ].join('\n'),
    );
  });

  it('writes nested states inside their parent, with their own initial state, arrows between siblings inside the block and the others outside', () => {
    const machine = setup({}).createMachine({
      id: 'wizard',
      initial: 'editing',
      states: {
        editing: {
          initial: 'details',
          on: { 'wizard.cancel': 'cancelled' },
          states: {
            details: { on: { 'wizard.next': 'roles' } },
            roles: { on: { 'wizard.back': 'details', 'wizard.submit': '#wizard.sent' } },
          },
        },
        sent: { type: 'final' },
        cancelled: { type: 'final' },
      },
    });
    expect(machineToMermaid(machine)).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> editing',
        '  state editing {',
        '    [*] --> editing_details',
        '    state "details" as editing_details',
        '    state "roles" as editing_roles',
        '    editing_details --> editing_roles: wizard.next',
        '    editing_roles --> editing_details: wizard.back',
        '  }',
        '  sent',
        '  sent --> [*]',
        '  cancelled',
        '  cancelled --> [*]',
        '  editing --> cancelled: wizard.cancel',
        '  editing_roles --> sent: wizard.submit',
        '',
      ].join('\n'),
    );
  });

  it('names guards: by name, with params, negated, combined, and in-state checks', () => {
    const machine = setup({
      guards: { isReady: () => true, isAllowed: (_, _params: { level: number }) => true, isLate: () => false },
    }).createMachine({
      id: 'gate',
      initial: 'closed',
      states: {
        closed: {
          on: {
            'gate.open': [
              { guard: 'isReady', target: 'open' },
              { guard: { type: 'isAllowed', params: { level: 2 } }, target: 'open' },
              { guard: not('isLate'), target: 'open' },
              { guard: and(['isReady', or(['isLate', not('isReady')])]), target: 'open' },
              { guard: stateIn('#gate.closed'), target: 'open' },
              { guard: function isSunny() { return true; }, target: 'open' },
            ],
          },
        },
        open: {},
      },
    });
    const arrows = machineToMermaid(machine).split('\n').filter((line) => line.includes('-->') && !line.includes('[*]'));
    expect(arrows).toEqual([
      '  closed --> open: gate.open [isReady]',
      '  closed --> open: gate.open [isAllowed]',
      '  closed --> open: gate.open [!isLate]',
      '  closed --> open: gate.open [isReady && (isLate || !isReady)]',
      // '#' is written as Mermaid's entity.
      '  closed --> open: gate.open [in #35;gate.closed]',
      '  closed --> open: gate.open [isSunny]',
    ]);
  });

  it('draws eventless transitions as always, in order, the unguarded last', () => {
    const machine = setup({ guards: { isEmpty: () => true } }).createMachine({
      id: 'check',
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'isEmpty', target: 'empty' }, { target: 'full' }] },
        empty: {},
        full: {},
      },
    });
    expect(machineToMermaid(machine)).toBe(
      ['stateDiagram-v2', '  [*] --> deciding', '  deciding', '  empty', '  full', '  deciding --> empty: always [isEmpty]', '  deciding --> full: always', ''].join('\n'),
    );
  });

  it('marks shallow and deep history states, and a transition back to one', () => {
    const machine = setup({ actors: { save: work } }).createMachine({
      id: 'tabs',
      initial: 'editing',
      states: {
        editing: {
          initial: 'first',
          on: { 'edit.save': 'saving' },
          states: {
            first: { on: { 'tab.next': 'second' } },
            second: {},
            previous: { type: 'history' },
            deepest: { type: 'history', history: 'deep' },
          },
        },
        saving: { invoke: { src: 'save', id: 'save', onError: 'editing.previous', onDone: 'editing.deepest' } },
      },
    });
    expect(machineToMermaid(machine)).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> editing',
        '  state editing {',
        '    [*] --> editing_first',
        '    state "first" as editing_first',
        '    state "second" as editing_second',
        '    state "previous (H)" as editing_previous',
        '    state "deepest (H*)" as editing_deepest',
        '    editing_first --> editing_second: tab.next',
        '  }',
        '  state "saving (invoke save)" as saving',
        '  editing --> saving: edit.save',
        '  saving --> editing_deepest: done save',
        '  saving --> editing_previous: error save',
        '',
      ].join('\n'),
    );
  });

  it("starts the machine's own transitions from an '(any state)' node and loops a transition without target on its state", () => {
    const machine = setup({ delays: { SLOW: 9000 } }).createMachine({
      id: 'guard',
      initial: 'idle',
      on: { 'session.changed': '.idle', 'session.touched': { actions: () => {} } },
      states: {
        idle: { on: { 'idle.poke': { actions: () => {} } }, after: { SLOW: 'asleep' } },
        asleep: {},
      },
    });
    expect(machineToMermaid(machine)).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> idle',
        '  state "(any state)" as any_state',
        '  idle',
        '  asleep',
        '  any_state --> idle: session.changed',
        '  any_state --> any_state: session.touched',
        '  idle --> idle: idle.poke',
        '  idle --> asleep: after SLOW',
        '',
      ].join('\n'),
    );
  });

  it('separates the regions of a parallel state, and keeps identifiers Mermaid can read', () => {
    const regions = {
      'file-transfer': { initial: 'sending', states: { sending: { on: { 'upload.done': 'sent' } }, sent: { type: 'final' as const } } },
      note: { initial: 'end', states: { end: {} } },
    };
    const nested = setup({}).createMachine({ id: 'upload', initial: 'uploading', states: { uploading: { type: 'parallel', states: regions } } });
    expect(machineToMermaid(nested)).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> uploading',
        '  state uploading {',
        '    state "file-transfer" as uploading_file_transfer {',
        '      [*] --> uploading_file_transfer_sending',
        '      state "sending" as uploading_file_transfer_sending',
        '      state "sent" as uploading_file_transfer_sent',
        '      uploading_file_transfer_sent --> [*]',
        '      uploading_file_transfer_sending --> uploading_file_transfer_sent: upload.done',
        '    }',
        '    --',
        '    state "note" as uploading_note {',
        '      [*] --> uploading_note_end',
        '      state "end" as uploading_note_end',
        '    }',
        '  }',
        '',
      ].join('\n'),
    );
    // At the top level Mermaid has no region separator; a reserved word gets a suffix.
    const parallel = setup({}).createMachine({ id: 'upload', type: 'parallel', states: regions });
    expect(machineToMermaid(parallel).split('\n').filter((line) => /^ {2}\S/.test(line))).toEqual(['  state "file-transfer" as file_transfer {', '  }', '  state "note" as note_ {', '  }']);
  });
});
