import { API_CHECKS, apiCheckSkipReason, type ApiCheckId } from '../domain/api-checks';
import type { SessionUser } from '../../rules/permissions';
import { ApiFailure, type ApiClient } from './client';
import { fetchOrganizations } from './organizations';
import { fetchCurrentUser, fetchUsers } from './users';

/** One check's outcome: what answered (the signed-in email, or how many items), the failure, or why it was not run. */
export type ApiCheckResult = { id: ApiCheckId; request: string } & (
  | { outcome: 'success'; email?: string; total?: number }
  | { outcome: 'error'; status: number; message: string }
  | { outcome: 'skipped'; reason: string }
);

const FIRST_PAGE = { page: 1, pageSize: 10 } as const;

async function call(api: ApiClient, id: ApiCheckId): Promise<{ email?: string; total?: number }> {
  switch (id) {
    case 'currentUser':
      return { email: (await fetchCurrentUser(api)).email };
    case 'users':
      return { total: (await fetchUsers(api, FIRST_PAGE)).totalCount };
    case 'sirenOrganizations':
      return { total: (await fetchOrganizations(api, { ...FIRST_PAGE, type: 'SIREN' })).totalCount };
  }
}

/** Runs the three checks of /test-v2-api side by side; one failing does not stop the others. */
export function runApiChecks(api: ApiClient, user: SessionUser): Promise<ApiCheckResult[]> {
  return Promise.all(
    API_CHECKS.map(async ({ id, request }): Promise<ApiCheckResult> => {
      const reason = apiCheckSkipReason(user, id);
      if (reason) return { id, request, outcome: 'skipped', reason };
      try {
        return { id, request, outcome: 'success', ...(await call(api, id)) };
      } catch (error) {
        const status = error instanceof ApiFailure ? error.status : 0;
        return { id, request, outcome: 'error', status, message: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}
