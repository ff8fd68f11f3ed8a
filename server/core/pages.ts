import { invalid } from './errors.ts';

/** What a list operation is asked for: a page (from 1) of a size. */
export interface PageRequest {
  page: number;
  pageSize: number;
}

/** The contract's bounds (components.parameters.Page and PageSize): offsets stay below 10^8. */
export const MAX_PAGE = 1_000_000;
export const MAX_PAGE_SIZE = 100;

/** The rows to skip for a page. A page outside the contract's bounds (the contract refuses it first) answers 400, never reaches the database. */
export function pageOffset({ page, pageSize }: PageRequest): number {
  if (!Number.isSafeInteger(page) || page < 1 || page > MAX_PAGE) throw invalid([{ field: 'query.page', message: `Valeur maximale : ${MAX_PAGE}` }], `Page hors limites : 1 à ${MAX_PAGE}.`);
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw invalid([{ field: 'query.pageSize', message: `Valeur maximale : ${MAX_PAGE_SIZE}` }], `Taille de page hors limites : 1 à ${MAX_PAGE_SIZE}.`);
  }
  return (page - 1) * pageSize;
}

/**
 * How a page of a search is found, from its exact total (users' and organizations' searches): 'fetch' every match
 * (through a trigram index when `indexed`, else reading every row) then sort out the page; or 'walk' the list's
 * order until the page's last match, about (offset + page size) × everyone ÷ total rows when the matches are spread
 * along it. Matches are not always spread (a surname's holders sit side by side in name order): below
 * `fetchAllBelow` an indexed term's matches cost little whatever the order, so they are always fetched; above, the
 * walk is chosen while it reads fewer rows than fetching would. Pure.
 */
export function walkOrFetch(input: { indexed: boolean; total: number; everyone: number; offset: number; pageSize: number; fetchAllBelow: number }): 'fetch' | 'walk' {
  const { indexed, total, everyone, offset, pageSize, fetchAllBelow } = input;
  if (total < fetchAllBelow && indexed) return 'fetch';
  const walked = ((offset + pageSize) * everyone) / Math.max(total, 1);
  const fetched = indexed ? 3 * total : everyone / 3 + 3 * total;
  return walked <= fetched ? 'walk' : 'fetch';
}

/**
 * A page in the second half of the order, read from the other end: the same rows in the exact opposite order, after
 * fewer rows; the last page is the first one read backwards. Pure.
 */
export function fromNearerEnd<Q extends { offset: number; pageSize: number }>(query: Q, total: number): Q & { reversed: boolean } {
  const rows = Math.max(0, Math.min(query.pageSize, total - query.offset));
  if (query.offset + rows / 2 <= total / 2) return { ...query, reversed: false };
  return { ...query, offset: total - query.offset - rows, pageSize: rows, reversed: true };
}
