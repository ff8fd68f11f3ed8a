import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from './api/client';
import type { AppConfig } from './app-config';
import type { SessionActor } from './session';

/** What every route can reach through the router's typed context. */
export interface RouterContext {
  session: SessionActor;
  config: AppConfig;
  api: ApiClient;
  queryClient: QueryClient;
  /** The bearer token the API client would send now (the session's, else the cookie's), or null. */
  currentToken: () => string | null;
}
