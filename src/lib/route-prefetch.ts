// Route loaders start a screen's data with its code (issue 18): the request leaves when the route matches, in
// parallel with the screen's chunk (and, on a first load, with MSAL's start), not once the screen has rendered.
import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import { isTokenUnexpired } from '../domain/token';
import type { RouterContext } from '../router-context';

/**
 * Starts a query the screen will read, without waiting for it and without failing the navigation: its answer,
 * or its failure, is the screen's to show. Nothing is asked without a live token (a visitor is sent to sign in).
 */
export function prefetchForScreen<T, K extends QueryKey>(context: Pick<RouterContext, 'currentToken' | 'queryClient'>, options: FetchQueryOptions<T, Error, T, K>): void {
  if (!isTokenUnexpired(context.currentToken())) return;
  void context.queryClient.prefetchQuery(options);
}
