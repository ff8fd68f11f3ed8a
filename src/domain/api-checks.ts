// The three checks of the developer API test page (spec §2 /test-v2-api) and when each is skipped:
// a call the server would refuse for want of a permission is not made, and says why.
import { hasPermission, isBackOffice, type SessionUser } from '../../rules/permissions';

export type ApiCheckId = 'currentUser' | 'users' | 'sirenOrganizations';

export const API_CHECKS: readonly { id: ApiCheckId; request: string }[] = [
  { id: 'currentUser', request: 'GET /api/v2/users/me' },
  { id: 'users', request: 'GET /api/v2/users' },
  { id: 'sirenOrganizations', request: 'GET /api/v2/organizations?type=SIREN' },
];

/** Listing organizations is open to the back office and to holders of one of these (as server/features/organizations/organizations.policy.ts decides). */
export const ORGANIZATION_SEARCH_PERMISSIONS = ['ORG_LIST', 'USER_LIST', 'USER_CREATE'] as const;

/** Why the check is not run for this user, or null to run it. The reasons are the spec's English developer texts. */
export function apiCheckSkipReason(user: SessionUser, check: ApiCheckId): string | null {
  switch (check) {
    case 'currentUser':
      return null;
    case 'users':
      return hasPermission(user, 'USER_LIST') ? null : 'No USER_LIST permission';
    case 'sirenOrganizations':
      return isBackOffice(user) || hasPermission(user, ORGANIZATION_SEARCH_PERMISSIONS) ? null : 'No ORG_LIST, USER_LIST or USER_CREATE permission';
  }
}
