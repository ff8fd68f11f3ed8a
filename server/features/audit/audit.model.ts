// What an audit entry records. Pure.
import type { AuditAction, AuditEntityType, JsonValue } from '../../db/schema.ts';

export interface AuditEntry {
  actor: { userId: string | null; email: string | null };
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string | number;
  organizationId?: string | null;
  /** { field: { before, after } } of the changed fields, or a description of what changed. */
  changes: Record<string, JsonValue>;
}

/** The before/after of the fields that differ, for an audit entry. */
export function changedFields<T extends Record<string, JsonValue | undefined>>(before: T, after: Partial<T>): Record<string, JsonValue> {
  const changes: Record<string, JsonValue> = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[field] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(value)) changes[field] = { before: old, after: value };
  }
  return changes;
}
