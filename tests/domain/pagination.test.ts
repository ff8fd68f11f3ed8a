import { describe, expect, it } from 'vitest';
import { pageItems, pageRange } from '../../src/domain/pagination';
import { formatDate, formatDateTime } from '../../src/domain/dates';

describe('page buttons (at most 7, with ellipses)', () => {
  it('shows every page when there are 7 or fewer', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageItems(1, 0)).toEqual([]);
  });
  it('keeps first and last with ellipses, never more than 7 buttons', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis-end', 20]);
    expect(pageItems(10, 20)).toEqual([1, 'ellipsis-start', 9, 10, 11, 'ellipsis-end', 20]);
    expect(pageItems(20, 20)).toEqual([1, 'ellipsis-start', 16, 17, 18, 19, 20]);
    for (let current = 1; current <= 40; current += 1) {
      const items = pageItems(current, 40);
      expect(items.length).toBeLessThanOrEqual(7);
      expect(items).toContain(current);
    }
  });
  it("says which results a page shows ('Affichage x-y sur n')", () => {
    expect(pageRange(1, 10, 0)).toBeNull();
    expect(pageRange(1, 10, 35)).toEqual({ from: 1, to: 10 });
    expect(pageRange(4, 10, 35)).toEqual({ from: 31, to: 35 });
  });
});

describe('dates in French, Europe/Paris', () => {
  it('formats in the Paris time zone whatever the machine', () => {
    expect(formatDateTime('2026-07-01T22:30:00Z')).toBe('02/07/2026 00:30');
    expect(formatDate('2026-01-15T23:30:00Z')).toBe('16/01/2026');
    expect(formatDateTime(null)).toBeNull();
  });
});

import { compactPageItems } from '../../src/domain/pagination';

describe('the users pager (every page up to 5, else 3 numbers with ellipses)', () => {
  it('shows every page when there are 5 or fewer', () => {
    expect(compactPageItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
  it('shows 3 numbers around the current page otherwise', () => {
    expect(compactPageItems(1, 9)).toEqual([1, 2, 3, 'ellipsis-end']);
    expect(compactPageItems(5, 9)).toEqual(['ellipsis-start', 4, 5, 6, 'ellipsis-end']);
    expect(compactPageItems(9, 9)).toEqual(['ellipsis-start', 7, 8, 9]);
  });
});
