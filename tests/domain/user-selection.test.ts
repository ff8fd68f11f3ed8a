import { describe, expect, it } from 'vitest';
import { isSelected, pageSelection, selectionCount, toggleOne, togglePage, type UserSelection } from '../../src/domain/user-selection';

const none: UserSelection = { kind: 'ids', ids: [] };
const all: UserSelection = { kind: 'all', filters: { roleCode: 'COMPTABLE' }, total: 42 };

describe('the users list selection', () => {
  it('keeps people ticked on another page when the page shown is ticked, then unticks only that page', () => {
    const kept = toggleOne(none, 'x', ['x']);
    const withPage = togglePage(kept, ['a', 'b']);
    expect(withPage).toEqual({ kind: 'ids', ids: ['x', 'a', 'b'] });
    expect(pageSelection(withPage, ['a', 'b'])).toBe('all');
    expect(togglePage(withPage, ['a', 'b'])).toEqual({ kind: 'ids', ids: ['x'] });
  });

  it('ticks the rest of a partly ticked page', () => {
    const some = toggleOne(none, 'b', ['a', 'b', 'c']);
    expect(pageSelection(some, ['a', 'b', 'c'])).toBe('some');
    expect(togglePage(some, ['a', 'b', 'c'])).toEqual({ kind: 'ids', ids: ['b', 'a', 'c'] });
  });

  it('counts every result of the filters once all are selected, and keeps the rest of the page when one is unticked', () => {
    expect(selectionCount(all)).toBe(42);
    expect(isSelected(all, 'anyone')).toBe(true);
    expect(pageSelection(all, ['a', 'b'])).toBe('all');
    expect(toggleOne(all, 'a', ['a', 'b', 'c'])).toEqual({ kind: 'ids', ids: ['b', 'c'] });
    expect(togglePage(all, ['a', 'b'])).toEqual(none);
  });

  it('says an empty page is not selected', () => {
    expect(pageSelection(none, [])).toBe('none');
  });
});
