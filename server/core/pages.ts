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
