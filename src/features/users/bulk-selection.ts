// The users list's selection and its actions (issue 22), loaded just after the list (its budget): the bulk-action
// machine started with its actors, what the table and the toolbar need of its snapshot, and the toolbar itself.
import { createActor, type SnapshotFrom } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { bulkActionMachine, type BulkActionMachine } from '../../machines/bulk-action/bulk-action.machine';
import { bulkActionActors } from '../../machines/bulk-action/bulk-action.actors';
import type { BulkActionName } from '../../domain/user-actions';
import { isSelected, pageSelection, selectionCount, type BulkFilters } from '../../domain/user-selection';
import type { UsersTableSelection } from '../../ui/users/users-table';

export { BulkActionPanel } from './bulk-action-panel';

export function startBulkSelection(api: ApiClient, queryClient: QueryClient, offered: BulkActionName[]) {
  return createActor(bulkActionMachine.provide(bulkActionActors(api, queryClient)), { input: { allowed: offered } }).start();
}

export type BulkActor = ReturnType<typeof startBulkSelection>;

export interface ListView {
  /** The list's filters (a selection of every result takes them). */
  filters: BulkFilters;
  /** The list's exact total for these filters, once known. */
  total: number | undefined;
  /** The people of the page shown. */
  pageIds: string[];
}

/** What the table and the toolbar draw of the machine's snapshot, and the events they send. */
export function bulkView(actor: BulkActor, snapshot: SnapshotFrom<BulkActionMachine>, { filters, total, pageIds }: ListView) {
  const send = actor.send.bind(actor);
  const { selection } = snapshot.context;
  const page = pageSelection(selection, pageIds);
  const table: UsersTableSelection = {
    isSelected: (id) => isSelected(selection, id),
    page,
    onToggle: (row) => send({ type: 'selection.toggle', id: row.id, pageIds }),
    onTogglePage: () => send({ type: 'selection.togglePage', pageIds }),
  };
  const selectAll =
    selection.kind === 'ids' && page === 'all' && total !== undefined && total > selection.ids.length ? { total, onSelect: () => send({ type: 'selection.selectAll', filters, total }) } : null;
  const selectedIds = selection.kind === 'ids' ? selection.ids : null;
  return { snapshot, send, table, selectAll, selectedIds, count: selectionCount(selection), active: !snapshot.matches('idle') };
}

export type BulkSelection = ReturnType<typeof bulkView>;
