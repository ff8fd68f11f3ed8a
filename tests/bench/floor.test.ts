// The database floor's replay of a write (bench/floor.ts): the ids the captured statements returned are replaced, in
// the later statements' values, by those the replay's own statements returned. Pure.
import { describe, expect, it } from 'vitest';
import { replayedValues } from '../../bench/floor.ts';

describe("the floor's replayed values", () => {
  it("replace the captured statements' returned ids by the replay's, in arrays too, whatever their type", () => {
    const ids = new Map<string, unknown>([['81234567', '90000001']]);
    expect(replayedValues(['81234567', 81234567, ['81234567', 'x'], 'ACME', 5], ids)).toEqual(['90000001', '90000001', ['90000001', 'x'], 'ACME', 5]);
  });

  it('leave the values as captured when nothing was returned', () => {
    const values = ['a', 1, null];
    expect(replayedValues(values, new Map())).toEqual(values);
  });
});
