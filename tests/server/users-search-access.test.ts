// How a page of a search alone is found (users-search.repository.ts, pageAccess): from the exact total, never from
// an estimate. Pure.
import { describe, expect, it } from 'vitest';
import { fromNearerEnd } from '../../server/core/pages.ts';
import { FETCH_ALL_BELOW, isCountedTerm, pageAccess, searchTerm } from '../../server/features/users/users-search.repository.ts';

const everyone = 1_000_000;
const first = { offset: 0, pageSize: 50, everyone };

describe('the way a page of a search is found', () => {
  it('takes every match of an indexed term with fewer than FETCH_ALL_BELOW of them, however they lie in the order', () => {
    expect(pageAccess({ ...first, term: searchTerm('dubois'), total: 12_000 })).toBe('fetch');
    expect(pageAccess({ ...first, term: searchTerm('xyz'), total: 0 })).toBe('fetch');
    expect(pageAccess({ ...first, term: searchTerm('zoé'), total: FETCH_ALL_BELOW - 1 })).toBe('fetch');
  });

  it('walks the sort index for a common term while that reads fewer rows than fetching its matches', () => {
    expect(pageAccess({ ...first, term: searchTerm('martin'), total: 60_000 })).toBe('walk');
    // Deep in a common term's pages, the walk would read more than all its matches.
    expect(pageAccess({ ...first, offset: 30_000, term: searchTerm('martin'), total: 60_000 })).toBe('fetch');
  });

  it('walks for a short term unless it is rare enough that reading every search row costs less', () => {
    expect(pageAccess({ ...first, term: searchTerm('a'), total: 980_000 })).toBe('walk');
    expect(pageAccess({ ...first, term: searchTerm('zy'), total: 40 })).toBe('fetch');
    expect(pageAccess({ ...first, term: searchTerm('ky'), total: 5_000 })).toBe('walk');
  });

  it('counts the terms of one to three characters once folded', () => {
    expect(isCountedTerm(searchTerm('mar'))).toBe(true);
    expect(isCountedTerm(searchTerm('œu'))).toBe(true);
    expect(isCountedTerm(searchTerm('œuv'))).toBe(false);
    expect(isCountedTerm(searchTerm('mart'))).toBe(false);
  });

  it('reads a page of the second half from the other end, the last one first, a short last page whole', () => {
    expect(fromNearerEnd({ offset: 0, pageSize: 10 }, 95)).toEqual({ offset: 0, pageSize: 10, reversed: false });
    expect(fromNearerEnd({ offset: 40, pageSize: 10 }, 95)).toEqual({ offset: 40, pageSize: 10, reversed: false });
    expect(fromNearerEnd({ offset: 50, pageSize: 10 }, 95)).toEqual({ offset: 35, pageSize: 10, reversed: true });
    expect(fromNearerEnd({ offset: 90, pageSize: 10 }, 95)).toEqual({ offset: 0, pageSize: 5, reversed: true });
  });
});
