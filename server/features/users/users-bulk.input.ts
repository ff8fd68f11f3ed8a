// The body of startUsersBulkAction turned into a checked command: exactly one of userIds and filters (400 naming
// both fields otherwise), each id once. The contract has checked each field's shape already (uuids, 1 to 10,000 ids).
import { invalid } from '../../core/errors.ts';
import type { BulkActionKind } from '../../db/schema.ts';
import type { UserFilterQuery } from './users.input.ts';

export interface BulkActionBody {
  action: BulkActionKind;
  userIds?: string[];
  filters?: Pick<UserFilterQuery, 'search' | 'organizationId' | 'roleCode' | 'includeInactive' | 'excludeSelf' | 'accountState'>;
}

export type BulkSelection = { kind: 'ids'; userIds: readonly string[] } | { kind: 'filters'; filters: UserFilterQuery };

export interface BulkActionCommand {
  action: BulkActionKind;
  selection: BulkSelection;
}

export const BULK_INPUT_MESSAGES = {
  oneSelection: 'Choisissez les utilisateurs, soit un par un (userIds), soit par les filtres de la liste (filters), pas les deux.',
  repeated: 'Chaque utilisateur ne figure qu’une fois dans la sélection.',
} as const;

export function bulkActionCommand(body: BulkActionBody): BulkActionCommand {
  const byIds = body.userIds !== undefined;
  const byFilters = body.filters !== undefined;
  if (byIds === byFilters) {
    const message = BULK_INPUT_MESSAGES.oneSelection;
    throw invalid([{ field: 'body.userIds', message }, { field: 'body.filters', message }], message);
  }
  if (body.userIds) {
    const userIds = [...new Set(body.userIds.map((id) => id.toLowerCase()))];
    if (userIds.length !== body.userIds.length) throw invalid([{ field: 'body.userIds', message: BULK_INPUT_MESSAGES.repeated }]);
    return { action: body.action, selection: { kind: 'ids', userIds } };
  }
  // The list's order, so that the report reads as the list did.
  return { action: body.action, selection: { kind: 'filters', filters: { ...body.filters, sort: 'name', order: 'asc' } } };
}
