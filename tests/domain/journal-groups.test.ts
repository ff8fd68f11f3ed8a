// The journal's filter offers every kind of change the server records, each in exactly one group.
import { describe, expect, it } from 'vitest';
import type { components } from '../../src/api/schema.gen.ts';
import { JOURNAL_ACTION_GROUPS } from '../../src/domain/journal.ts';
import { AUDIT_ACTIONS } from '../../server/features/audit/journal.input.ts';

describe("the journal filter's groups", () => {
  it('hold every action of the API once', () => {
    const grouped: string[] = Object.values(JOURNAL_ACTION_GROUPS).flat();
    expect([...grouped].sort()).toEqual([...AUDIT_ACTIONS].sort());
    const typed: components['schemas']['AuditAction'][] = [...AUDIT_ACTIONS];
    expect(new Set(typed).size).toBe(grouped.length);
  });
});
