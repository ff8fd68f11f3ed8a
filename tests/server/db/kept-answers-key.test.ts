// The key of a kept answer (server/db/kept-answers.ts keyOf): callers whose scopes differ never share an answer, even
// when their scopes hold sets or maps (which JSON.stringify alone writes as {}).
import { describe, expect, it } from 'vitest';
import { keyOf } from '../../../server/db/kept-answers.ts';

describe('keyOf', () => {
  it('tells apart scopes whose sets or maps differ', () => {
    const scope = (ids: string[]) => ({ kind: 'users', reach: { organizationIds: new Set(ids), parentIds: new Set<string>() } });
    expect(keyOf('account-lifecycle', 7, scope(['a']))).not.toBe(keyOf('account-lifecycle', 7, scope(['b'])));
    expect(keyOf(new Map([['x', new Set(['1'])]]))).not.toBe(keyOf(new Map([['x', new Set(['2'])]])));
    expect(keyOf('w', 7, { kind: 'all' })).not.toBe(keyOf('w', 30, { kind: 'all' }));
  });

  it('gives the same key to the same members in another order', () => {
    expect(keyOf(new Set(['b', 'a']))).toBe(keyOf(new Set(['a', 'b'])));
    expect(keyOf(new Map([['y', 1], ['x', 2]]))).toBe(keyOf(new Map([['x', 2], ['y', 1]])));
  });
});
