// Reading users as the actor may: one user, the edit page's view of one, a page of the list.
import { findOrganizationsByIds } from '../organizations/organizations.repository.ts';
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/errors.ts';
import type { ListTotals } from '../../db/list-totals.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { findOrganizationById, type OrganizationDto } from '../organizations/organizations.repository.ts';
import { loadRoles, type RoleRecord } from '../roles/roles.repository.ts';
import { findUser, loadAssignments, loadOrganizationsForEdit, ownPermissions, type AssignmentRecord } from './users-read.repository.ts';
import { listUsersPage, type ListedUserRow, type UserFilter } from './users-list.repository.ts';
import { INPUT_MESSAGES, type ListUsersQuery, type UserFilterQuery } from './users.input.ts';
import { accountStateFilter, dormancyCutoff, dormantSince, type AccountStateClock, type UserScope } from './users.model.ts';
import type { DormancyConfig } from '../../config.ts';
import { ACCOUNT_SETUP_TTL_SECONDS } from '../../identity/account-setup-links.ts';
import {
  allowedUserActions,
  assignableRoles,
  canFilterByOrganization,
  fullDetailsView,
  pendingRequestReach,
  requireCanListUsers,
  requireCanReadUser,
  requireUserVisible,
  userScope,
  visibleAssignments,
  type UserAction,
  type UserPermission,
} from './users.policy.ts';

/** A user the actor may see, with all their assignments and the actor's reach. */
export interface VisibleUser {
  scope: UserScope | null;
  user: UserRow;
  assignments: AssignmentRecord[];
}

/** A user with the assignments the actor may see of them. */
export interface SeenUser {
  user: UserRow;
  assignments: AssignmentRecord[];
}

/** What the edit page shows of a user (OpenAPI UserFullDetails). */
export interface FullDetails {
  user: UserRow;
  /** The assignments the caller may see. */
  assignments: readonly AssignmentRecord[];
  availableRoles: readonly RoleRecord[];
  availableOrganizations: readonly OrganizationDto[];
  /** The user's effective permissions: a back-office user's own list, else the union over the roles the caller sees. */
  permissions: Iterable<string>;
  /** What the caller may do on the user (the edit page opens only with 'edit'). */
  allowedActions: UserAction[];
  /** The SIREN of each SIRET of the assignments, by the SIRET's parent id. */
  parents: ReadonlyMap<string, { id: string; code: string; name: string }>;
}

export interface UsersPage {
  users: (SeenUser & { hasPendingInvitation: boolean; allowedActions: UserAction[]; dormantSince: Date | null })[];
  total: number;
  page: number;
  pageSize: number;
}

/** The user, or 404 as for a missing one when out of the actor's reach; `forUpdate` locks the row for the caller's transaction. */
export async function visibleUser(db: Kysely<Database>, actor: Actor, id: string, options: { forUpdate?: boolean; permission?: UserPermission } = {}): Promise<VisibleUser> {
  // Reading needs USER_LIST on one of the user's organizations; a change (options.permission) USER_CREATE.
  const scope = userScope(actor, options.permission ?? 'USER_LIST');
  const found = await findUser(db, id, options);
  const assignments = found ? await loadAssignments(db, [id]) : [];
  return { scope, user: requireUserVisible(actor, scope, found, assignments), assignments };
}

/** What the actor may do on a user, from all of the user's assignments (not only those the actor sees). */
export const actionsOn = (actor: Actor, { user, assignments }: { user: UserRow; assignments: readonly AssignmentRecord[] }): UserAction[] =>
  allowedUserActions(actor, user, assignments);

/** What the actor may see of a user it may see. */
export const seenBy = (actor: Actor, { scope, user, assignments }: VisibleUser): SeenUser => ({ user, assignments: visibleAssignments(actor, scope, user.id, assignments) });

/** The edit page's view of a user, as fullDetailsView (policy) decides it. */
export async function fullDetailsOf(db: Kysely<Database>, actor: Actor, { scope, user, assignments }: VisibleUser): Promise<FullDetails> {
  const view = fullDetailsView(actor, scope, { id: user.id, userType: user.user_type }, assignments);
  // The SIRENs of the SIRETs shown, in one statement: the edit page names them without asking (issue 18).
  const parentIds = [...new Set(view.assignments.map((a) => a.parentId).filter((id): id is string => id !== null))];
  const parents = new Map((await findOrganizationsByIds(db, parentIds)).map(({ id, code, name }) => [id, { id, code, name }]));
  return {
    parents,
    user,
    assignments: view.assignments,
    availableRoles: assignableRoles(actor, await loadRoles(db)),
    availableOrganizations: await loadOrganizationsForEdit(db, view.offeredOrganizations),
    permissions: view.permissions === 'own' ? await ownPermissions(db, user.id) : view.permissions,
    allowedActions: actionsOn(actor, { user, assignments }),
  };
}

/** What a list's account state is read against: the time, and DORMANCY_WARN_AFTER_DAYS. */
export type AccountStateTime = Omit<AccountStateClock, 'linkLifetimeMs'>;

/**
 * Which users the actor may list with these filters (listUsers, exportUsers): USER_LIST, its reach, the filter
 * organization found and within that reach (else 404, as for a missing one).
 */
export async function userFilterFor(db: Kysely<Database>, actor: Actor, q: UserFilterQuery, when: AccountStateTime): Promise<UserFilter> {
  requireCanListUsers(actor);
  const scope = userScope(actor, 'USER_LIST');
  const organization = q.organizationId ? await findOrganizationById(db, q.organizationId, { kind: 'all' }) : undefined;
  if (organization === null || (organization && !canFilterByOrganization(scope, organization.id))) throw notFound(INPUT_MESSAGES.unknownOrganization);
  return {
    search: q.search,
    organization,
    roleCode: q.roleCode,
    includeInactive: q.includeInactive ?? false,
    sort: q.sort ?? 'name',
    order: q.order ?? 'asc',
    scope,
    ...(q.excludeSelf ? { excludeUserId: actor.userId } : {}),
    ...(q.accountState ? { accountState: accountStateFilter(q.accountState, { ...when, linkLifetimeMs: ACCOUNT_SETUP_TTL_SECONDS * 1000 }) } : {}),
  };
}

/** These assignments by user id. */
export function byUserId<A extends { userId: string }>(assignments: readonly A[]): Map<string, A[]> {
  const byUser = new Map<string, A[]>();
  for (const a of assignments) {
    const held = byUser.get(a.userId);
    if (held) held.push(a);
    else byUser.set(a.userId, [a]);
  }
  return byUser;
}

export function usersReadService({ db, listTotals, now, dormancy }: { db: Kysely<Database>; listTotals: ListTotals | null; now: () => Date; dormancy: DormancyConfig }) {
  async function readable(actor: Actor, id: string): Promise<VisibleUser> {
    requireCanReadUser(actor, id);
    return visibleUser(db, actor, id);
  }

  return {
    /** getUser: a user the actor may read. */
    async get(actor: Actor, id: string): Promise<SeenUser & { allowedActions: UserAction[] }> {
      const visible = await readable(actor, id);
      return { ...seenBy(actor, visible), allowedActions: actionsOn(actor, visible) };
    },

    /** getUserFullDetails. */
    async fullDetails(actor: Actor, id: string): Promise<FullDetails> {
      return fullDetailsOf(db, actor, await readable(actor, id));
    },

    /** listUsers: one page within the actor's reach, with the exact total. */
    async list(actor: Actor, q: ListUsersQuery): Promise<UsersPage> {
      const at = now();
      const cutoff = dormancyCutoff(at, dormancy.warnAfterDays);
      const filter = await userFilterFor(db, actor, q, { now: at, warnAfterDays: dormancy.warnAfterDays });
      const page = { page: q.page ?? 1, pageSize: q.pageSize ?? 10 };
      const { rows, assignments, total } = await listUsersPage(db, { ...filter, ...page, pendingReach: pendingRequestReach(filter.scope) }, listTotals);
      const byUser = byUserId(assignments);
      const scope = filter.scope;
      const users = rows.map((user: ListedUserRow) => ({
        ...seenBy(actor, { scope, user, assignments: byUser.get(user.id) ?? [] }),
        hasPendingInvitation: user.has_pending_invitation,
        allowedActions: actionsOn(actor, { user, assignments: byUser.get(user.id) ?? [] }),
        dormantSince: dormantSince(user, cutoff),
      }));
      return { users, total, ...page };
    },
  };
}
