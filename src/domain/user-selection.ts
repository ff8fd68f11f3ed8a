// The users list's selection (issue 22): explicit people, kept across pages, or every result of the filters.

/** The list's filters as a bulk action reads them (the list's own, without page and sort). */
export interface BulkFilters {
  search?: string;
  organizationId?: string;
  roleCode?: string;
  includeInactive?: boolean;
}

export type UserSelection = { kind: 'ids'; ids: string[] } | { kind: 'all'; filters: BulkFilters; total: number };

export const selectionCount = (selection: UserSelection): number => (selection.kind === 'ids' ? selection.ids.length : selection.total);

export const isSelected = (selection: UserSelection, id: string): boolean => selection.kind === 'all' || selection.ids.includes(id);

/** Whether the page shown is selected: none of it, some, or all of it (an empty page counts as none). */
export function pageSelection(selection: UserSelection, pageIds: string[]): 'none' | 'some' | 'all' {
  const chosen = pageIds.filter((id) => isSelected(selection, id)).length;
  return chosen === 0 ? 'none' : chosen === pageIds.length ? 'all' : 'some';
}

/**
 * Ticks or unticks one person. With every result selected, unticking one keeps the rest of the page shown
 * (as a mail client does): the others of the filters are no longer selected.
 */
export function toggleOne(selection: UserSelection, id: string, pageIds: string[]): UserSelection {
  if (selection.kind === 'all') return { kind: 'ids', ids: pageIds.filter((other) => other !== id) };
  return { kind: 'ids', ids: selection.ids.includes(id) ? selection.ids.filter((other) => other !== id) : [...selection.ids, id] };
}

/** The page's box: the whole page when it is not all selected, else nothing of it (nothing at all, from every result). */
export function togglePage(selection: UserSelection, pageIds: string[]): UserSelection {
  if (selection.kind === 'all') return { kind: 'ids', ids: [] };
  if (pageSelection(selection, pageIds) === 'all') return { kind: 'ids', ids: selection.ids.filter((id) => !pageIds.includes(id)) };
  return { kind: 'ids', ids: [...selection.ids, ...pageIds.filter((id) => !selection.ids.includes(id))] };
}
