import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type CurrentUser = components['schemas']['CurrentUser'];

export const usersKeys = {
  all: ['users'] as const,
  me: () => [...usersKeys.all, 'me'] as const,
};

/** GET /api/v2/users/me */
export function fetchCurrentUser(api: ApiClient): Promise<CurrentUser> {
  return unwrap(api.GET('/api/v2/users/me'), 'Failed to fetch user profile');
}
