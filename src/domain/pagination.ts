/** Page buttons of a pager: numbers and ellipses. */
export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/**
 * At most `maxButtons` page buttons (spec §2: 7 on the invitations list), the first and last pages
 * always shown, ellipses where pages are skipped.
 */
export function pageItems(current: number, totalPages: number, maxButtons = 7): PageItem[] {
  if (totalPages <= 0) return [];
  if (totalPages <= maxButtons) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const page = Math.min(Math.max(current, 1), totalPages);
  const inner = maxButtons - 2; // without the first and the last
  let start = Math.max(2, page - Math.floor((inner - 1) / 2));
  let end = start + inner - 1;
  if (end >= totalPages) {
    end = totalPages - 1;
    start = end - inner + 1;
  }
  // An ellipsis takes a button's place.
  const items: PageItem[] = [1];
  if (start > 2) {
    items.push('ellipsis-start');
    start += 1;
  }
  const tail: PageItem[] = [];
  if (end < totalPages - 1) {
    tail.push('ellipsis-end');
    end -= 1;
  }
  for (let n = start; n <= end; n += 1) items.push(n);
  return [...items, ...tail, totalPages];
}

/** 'x-y' of a page, 1-based and inclusive, or null when there is nothing. */
export function pageRange(page: number, pageSize: number, total: number): { from: number; to: number } | null {
  if (total <= 0) return null;
  const from = (page - 1) * pageSize + 1;
  return { from, to: Math.min(page * pageSize, total) };
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** The users list's pager (spec §9): every page when there are 5 or fewer, else 3 numbers around the current one with ellipses. */
export function compactPageItems(current: number, totalPages: number): PageItem[] {
  if (totalPages <= 5) return Array.from({ length: Math.max(totalPages, 0) }, (_, i) => i + 1);
  const page = Math.min(Math.max(current, 1), totalPages);
  const start = Math.min(Math.max(page - 1, 1), totalPages - 2);
  const items: PageItem[] = [];
  if (start > 1) items.push('ellipsis-start');
  items.push(start, start + 1, start + 2);
  if (start + 2 < totalPages) items.push('ellipsis-end');
  return items;
}
