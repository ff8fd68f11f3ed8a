import type { Actor } from '../../../server/core/actor.ts';

/** An actor for the pure rules' tests: an active back-office account holding nothing, with these changes. */
export const actor = (overrides: Partial<Actor>): Actor => ({
  userId: 'u-1',
  email: 'a@b.fr',
  isActive: true,
  userType: 'BACKOFFICE',
  isBackOffice: true,
  permissions: new Set(),
  scope: null,
  parentIds: null,
  permissionScopes: null,
  roleCodes: new Set(),
  ...overrides,
});
