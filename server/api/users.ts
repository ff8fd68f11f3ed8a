import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerDeps } from './deps.ts';
import { loadCurrentUserBySubject, recordSignIn } from '../features/users/current-user.repository.ts';
import { findOrganizationById } from '../features/organizations/organizations.repository.ts';
import { createUser } from '../features/users/users-create.service.ts';
import { deleteUserPermanently, editUser, fullDetails, type Edit } from '../features/users/users-edit.service.ts';
import { checkEditedUser, checkIdentity, checkMetadata, checkNewUser, checkNotEmpty, checkRoleCount, INPUT_MESSAGES } from '../features/users/users.input.ts';
import type { AssignUserRolesBody, CreateUserBody, CreateUserCompleteBody, FullUpdateUserBody, ListUsersQuery, ReplaceUserRolesBody, UpdateUserBody, UpdateUserCompleteBody } from '../features/users/users.input.ts';
import { addedInOrganization, explicitAssignments, placedByCodes, type CodesAndRoles } from '../features/users/users-plans.ts';
import { canonicalRoleCode, listUsersPage, visibleUser, type VisibleUser } from '../features/users/users-read.repository.ts';
import { toUser, toUserDetail } from './users.presenter.ts';
import type { NewUserFields } from '../features/users/users-write.repository.ts';
import { actorOf } from '../plugins/actor.ts';
import { notFound, unauthorized } from './errors.ts';
import { pageAnswer } from './pages.ts';
import type { Actor } from '../core/actor.ts';
import { canFilterByOrganization, pendingRequestReach, requireCanChangeUsers, requireCanCreateUsers, requireCanHardDeleteUsers, requireCanListUsers, requireCanReadUser, userScope, visibleAssignments } from '../features/users/users.policy.ts';

type Req<T extends { Body?: unknown; Querystring?: unknown; Headers?: unknown } = object> = FastifyRequest<{ Params: { id: string } } & T>;

/** The version the caller read: the body's `version` when it has one, else If-Match (`"7"`, `W/"7"` or `7`). */
function expectedVersion(request: FastifyRequest, body: { version?: number } = {}): number | undefined {
  if (body.version !== undefined) return body.version;
  const ifMatch = request.headers['if-match'];
  return typeof ifMatch === 'string' ? Number(ifMatch.replace(/^W\//, '').replaceAll('"', '')) : undefined;
}

/** A user with the assignments the actor may see: OpenAPI User and UserDetail. */
const listed = (actor: Actor, { scope, user, assignments }: VisibleUser) => toUser(user, visibleAssignments(actor, scope, user.id, assignments));
const detailed = (actor: Actor, { scope, user, assignments }: VisibleUser) => toUserDetail(user, visibleAssignments(actor, scope, user.id, assignments));

export function usersHandlers({ db, directory, listTotals }: HandlerDeps) {
  /** getUser, getUserFullDetails: a user the actor may read, with their version as ETag. */
  async function read<T>(request: Req, reply: FastifyReply, answer: (actor: Actor, found: VisibleUser) => T) {
    const actor = actorOf(request);
    requireCanReadUser(actor, request.params.id);
    const found = await visibleUser(db, actor, request.params.id);
    reply.header('etag', `"${found.user.version}"`);
    return answer(actor, found);
  }

  /** createUser, createUserComplete: the new user's fields and roles read from the body, then placed by type on the organizations. */
  async function create(request: Req, reply: FastifyReply, parse: () => { fields: NewUserFields; plan: CodesAndRoles }) {
    const actor = actorOf(request);
    requireCanCreateUsers(actor);
    const { fields, plan } = parse();
    const created = await createUser(db, directory, actor, fields, (trx) => placedByCodes(trx, actor, plan, 'create'));
    return reply.code(201).send(toUserDetail(created.user, created.assignments));
  }

  /** Every change of an existing user: the body read by `edit` once the actor may change users; against If-Match when sent. */
  async function change(request: Req, edit: (actor: Actor) => Edit) {
    const actor = actorOf(request);
    requireCanChangeUsers(actor);
    const edited = { expectedVersion: expectedVersion(request), ...edit(actor) };
    return { actor, done: await editUser(db, directory, actor, request.params.id, edited, request.log) };
  }

  /** fullUpdateUser, updateUserComplete: the edit page's fields and at least one role, against the version (body or If-Match). */
  async function editPage(request: Req<{ Body: FullUpdateUserBody | UpdateUserCompleteBody }>, roles: { field: string; given: readonly unknown[] }, edit: (actor: Actor) => Pick<Edit, 'isActive' | 'assignments'>) {
    const { actor, done } = await change(request, (actor) => {
      const fields = checkEditedUser(request.body);
      checkNotEmpty(roles.given, roles.field, INPUT_MESSAGES.atLeastOneRole);
      return { ...edit(actor), fields, rolesField: roles.field, expectedVersion: expectedVersion(request, request.body) };
    });
    return detailed(actor, done);
  }

  /** assignUserRoles, replaceUserRoles: roles only (at least one entry), answered as the edit page's view. */
  async function changeRoles(request: Req, field: string, given: readonly unknown[], assignments: (actor: Actor) => Edit['assignments']) {
    const { actor, done } = await change(request, (actor) => {
      checkNotEmpty(given, field, INPUT_MESSAGES.atLeastOneRole);
      return { fields: {}, rolesField: field, assignments: assignments(actor) };
    });
    return fullDetails(db, actor, done);
  }

  async function setActive(request: Req, isActive: boolean) {
    const { actor, done } = await change(request, () => ({ fields: {}, isActive }));
    return listed(actor, done);
  }

  return {
    /** GET /api/v2/users/me: the signed-in person's profile, also when inactive (the portal tells them). Records the sign-in time. */
    async getCurrentUser(request: FastifyRequest) {
      const principal = request.principal;
      if (!principal) throw unauthorized();
      const user = await loadCurrentUserBySubject(db, principal.subject);
      if (!user) throw unauthorized('Aucun compte du portail ne correspond à cette identité.');
      const signedInAt = new Date(principal.signedInAt * 1000);
      if (principal.signedInAt > 0 && (!user.lastLoginAt || new Date(user.lastLoginAt) < signedInAt)) {
        await recordSignIn(db, user.id, signedInAt);
        user.lastLoginAt = signedInAt.toISOString();
      }
      return user;
    },

    async listUsers(request: FastifyRequest<{ Querystring: ListUsersQuery }>) {
      const actor = actorOf(request);
      requireCanListUsers(actor);
      const q = request.query;
      const scope = userScope(actor);
      const organization = q.organizationId ? await findOrganizationById(db, q.organizationId, { kind: 'all' }) : undefined;
      if (organization === null || (organization && !canFilterByOrganization(scope, organization.id))) throw notFound(INPUT_MESSAGES.unknownOrganization);
      const page = { page: q.page ?? 1, pageSize: q.pageSize ?? 10 };
      const { rows, assignments, total } = await listUsersPage(db, {
        ...page,
        search: q.search,
        organization,
        roleCode: q.roleCode,
        includeInactive: q.includeInactive ?? false,
        sort: q.sort ?? 'name',
        order: q.order ?? 'asc',
        scope,
        pendingReach: pendingRequestReach(scope),
        ...(q.excludeSelf ? { excludeUserId: actor.userId } : {}),
      }, listTotals);
      const byUser = new Map<string, typeof assignments>();
      for (const a of assignments) {
        const held = byUser.get(a.userId);
        if (held) held.push(a);
        else byUser.set(a.userId, [a]);
      }
      const items = rows.map((user) => ({
        ...listed(actor, { scope, user, assignments: byUser.get(user.id) ?? [] }),
        hasPendingInvitation: user.has_pending_invitation,
      }));
      return pageAnswer(items, total, page);
    },

    async getUser(request: Req, reply: FastifyReply) {
      return read(request, reply, detailed);
    },

    async getUserFullDetails(request: Req, reply: FastifyReply) {
      return read(request, reply, (actor, found) => fullDetails(db, actor, found));
    },

    async createUser(request: Req<{ Body: CreateUserBody }>, reply: FastifyReply) {
      const b = request.body;
      return create(request, reply, () => {
        const personal = { firstName: b.prenom, lastName: b.nom, email: b.email, jobTitle: b.jobTitle, phoneNumber: b.phoneNumber, mobilePhone: b.mobilePhone };
        const fields = checkNewUser({ ...personal, street: b.street, postalCode: b.postalCode, city: b.city }, { firstName: 'prenom', lastName: 'nom' });
        checkNotEmpty(b.sirets, 'body.sirets', INPUT_MESSAGES.atLeastOneSiret);
        checkRoleCount(new Set(b.roles.map(canonicalRoleCode)).size, 'body.roles');
        return { fields, plan: { codes: b.sirets, codesField: 'body.sirets', roles: b.roles, rolesField: 'body.roles' } };
      });
    },

    async createUserComplete(request: Req<{ Body: CreateUserCompleteBody }>, reply: FastifyReply) {
      const b = request.body;
      return create(request, reply, () => {
        const personal = { firstName: b.firstName, lastName: b.lastName, email: b.email, jobTitle: b.jobTitle, phoneNumber: b.phoneNumber, mobilePhone: b.mobilePhone };
        const fields = checkNewUser({ ...personal, street: b.street, postalCode: b.postalCode, city: b.city });
        checkNotEmpty(b.organizationCodes, 'body.organizationCodes', INPUT_MESSAGES.atLeastOneSiret);
        checkRoleCount(new Set(b.roleIds).size, 'body.roleIds');
        return { fields, plan: { codes: b.organizationCodes, codesField: 'body.organizationCodes', roles: b.roleIds, rolesField: 'body.roleIds' } };
      });
    },

    async updateUser(request: Req<{ Body: UpdateUserBody }>) {
      const { actor, done } = await change(request, () => {
        const identity = checkIdentity(request.body);
        const metadata = checkMetadata(request.body.metadata);
        return { fields: { ...metadata.details, ...identity, metadata: metadata.text } };
      });
      return detailed(actor, done);
    },

    async fullUpdateUser(request: Req<{ Body: FullUpdateUserBody }>) {
      const b = request.body;
      return editPage(request, { field: 'body.roleAssignments', given: b.roleAssignments }, (actor) => ({
        isActive: b.isActive,
        assignments: (trx) => explicitAssignments(trx, actor, b.roleAssignments, 'body.roleAssignments'),
      }));
    },

    async updateUserComplete(request: Req<{ Body: UpdateUserCompleteBody }>) {
      const b = request.body;
      const plan = { codes: b.organizationCodes, codesField: 'body.organizationCodes', roles: b.roleIds, rolesField: 'body.roleIds' };
      return editPage(request, { field: 'body.roleIds', given: b.roleIds }, (actor) => ({ assignments: (trx) => placedByCodes(trx, actor, plan, 'update') }));
    },

    async assignUserRoles(request: Req<{ Body: AssignUserRolesBody }>) {
      return changeRoles(request, 'body.roleIds', request.body.roleIds, (actor) => (trx, current) => addedInOrganization(trx, actor, request.body, current));
    },

    async replaceUserRoles(request: Req<{ Body: ReplaceUserRolesBody }>) {
      const entries = request.body.assignments;
      return changeRoles(request, 'body.assignments', entries, (actor) => (trx) => explicitAssignments(trx, actor, entries, 'body.assignments'));
    },

    async deactivateUser(request: Req) {
      return setActive(request, false);
    },

    async reactivateUser(request: Req) {
      return setActive(request, true);
    },

    async deleteUser(request: Req<{ Querystring: { hardDelete?: boolean } }>, reply: FastifyReply) {
      if (!request.query.hardDelete) {
        await setActive(request, false);
        return reply.code(204).send();
      }
      const actor = actorOf(request);
      requireCanHardDeleteUsers(actor);
      await deleteUserPermanently(db, directory, actor, request.params.id, request.log, expectedVersion(request));
      return reply.code(204).send();
    },
  };
}
