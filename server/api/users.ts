// The users operations: each handler parses what the contract left to it, calls one use case, presents the answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../features/services.ts';
import { actionsOn, seenBy } from '../features/users/users-read.service.ts';
import {
  addRolesChange,
  completeUpdateChange,
  fullUpdateChange,
  identityChange,
  replaceRolesChange,
  type AssignUserRolesBody,
  type CreateUserBody,
  type CreateUserCompleteBody,
  type ExportUsersQuery,
  type FullUpdateUserBody,
  type ListUsersQuery,
  type ReplaceUserRolesBody,
  type UpdateUserBody,
  type UpdateUserCompleteBody,
} from '../features/users/users.input.ts';
import { actorOf } from '../plugins/actor.ts';
import { sendCsv } from './csv.ts';
import { sendPersonalData } from './personal-data.ts';
import { unauthorized } from './errors.ts';
import { pageAnswer } from './pages.ts';
import { ifMatchVersion } from './request.ts';
import { toUser, toUserDetail, toUserFullDetails } from './users.presenter.ts';

type PersonalDataQuery = { format?: 'json' | 'html' };
type Req<T extends { Body?: unknown; Querystring?: unknown } = object> = FastifyRequest<{ Params: { id: string } } & T>;

export function usersHandlers({ users, session }: Services) {
  return {
    /** GET /api/v2/users/me: the signed-in person's profile, also when inactive (the portal tells them). Records the sign-in time. */
    async getCurrentUser(request: FastifyRequest) {
      if (!request.principal) throw unauthorized();
      return session.currentUser(request.principal);
    },

    /** POST /api/v2/users/me/email-confirmation: the signed-in person confirms their own new address. */
    async confirmEmailChange(request: FastifyRequest<{ Body: { token: string } }>) {
      return users.confirmEmailChange(actorOf(request), request.body.token, request.log);
    },

    async listUsers(request: FastifyRequest<{ Querystring: ListUsersQuery }>) {
      const found = await users.list(actorOf(request), request.query);
      const items = found.users.map(({ user, assignments, hasPendingInvitation, allowedActions, dormantSince }) => ({
        ...toUser(user, assignments, allowedActions),
        hasPendingInvitation,
        dormantSince: dormantSince?.toISOString() ?? null,
      }));
      return pageAnswer(items, found.total, found);
    },

    /** GET /api/v2/users/export: the list's users as a CSV file, streamed. */
    async exportUsers(request: FastifyRequest<{ Querystring: ExportUsersQuery }>, reply: FastifyReply) {
      return sendCsv(reply, await users.exportCsv(actorOf(request), request.query));
    },

    /** GET /api/v2/users/{id}/personal-data: everything the portal holds about the person, as a file (JSON or HTML). */
    async getUserPersonalData(request: Req<{ Querystring: PersonalDataQuery }>, reply: FastifyReply) {
      return sendPersonalData(reply, await users.personalData(actorOf(request), request.params.id, request.query.format ?? 'json'));
    },

    /** GET /api/v2/users/me/personal-data: the same, of the signed-in person. */
    async getMyPersonalData(request: FastifyRequest<{ Querystring: PersonalDataQuery }>, reply: FastifyReply) {
      const actor = actorOf(request);
      return sendPersonalData(reply, await users.personalData(actor, actor.userId, request.query.format ?? 'json'));
    },

    /** A user the caller may read, with their version as ETag. */
    async getUser(request: Req, reply: FastifyReply) {
      const { user, assignments, allowedActions } = await users.get(actorOf(request), request.params.id);
      reply.header('etag', `"${user.version}"`);
      return toUserDetail(user, assignments, allowedActions);
    },

    async getUserFullDetails(request: Req, reply: FastifyReply) {
      const details = await users.fullDetails(actorOf(request), request.params.id);
      reply.header('etag', `"${details.user.version}"`);
      return toUserFullDetails(details);
    },

    async createUser(request: Req<{ Body: CreateUserBody }>, reply: FastifyReply) {
      const actor = actorOf(request);
      const created = await users.createFromWizard(actor, request.body, request.log);
      return reply.code(201).send(toUserDetail(created.user, created.assignments, actionsOn(actor, created)));
    },

    async createUserComplete(request: Req<{ Body: CreateUserCompleteBody }>, reply: FastifyReply) {
      const actor = actorOf(request);
      const created = await users.createComplete(actor, request.body, request.log);
      return reply.code(201).send(toUserDetail(created.user, created.assignments, actionsOn(actor, created)));
    },

    async updateUser(request: Req<{ Body: UpdateUserBody }>) {
      const actor = actorOf(request);
      const done = await users.change(actor, request.params.id, () => identityChange(request.body), ifMatchVersion(request), request.log);
      const { user, assignments } = seenBy(actor, done);
      return toUserDetail(user, assignments, actionsOn(actor, done));
    },

    async fullUpdateUser(request: Req<{ Body: FullUpdateUserBody }>) {
      const actor = actorOf(request);
      const done = await users.change(actor, request.params.id, () => fullUpdateChange(request.body), ifMatchVersion(request), request.log);
      const { user, assignments } = seenBy(actor, done);
      return toUserDetail(user, assignments, actionsOn(actor, done));
    },

    async updateUserComplete(request: Req<{ Body: UpdateUserCompleteBody }>) {
      const actor = actorOf(request);
      const done = await users.change(actor, request.params.id, () => completeUpdateChange(request.body), ifMatchVersion(request), request.log);
      const { user, assignments } = seenBy(actor, done);
      return toUserDetail(user, assignments, actionsOn(actor, done));
    },

    /** Roles only, answered as the edit page's view. */
    async assignUserRoles(request: Req<{ Body: AssignUserRolesBody }>) {
      const actor = actorOf(request);
      const done = await users.change(actor, request.params.id, () => addRolesChange(request.body), ifMatchVersion(request), request.log);
      return toUserFullDetails(await users.fullDetailsOf(actor, done));
    },

    async replaceUserRoles(request: Req<{ Body: ReplaceUserRolesBody }>) {
      const actor = actorOf(request);
      const done = await users.change(actor, request.params.id, () => replaceRolesChange(request.body), ifMatchVersion(request), request.log);
      return toUserFullDetails(await users.fullDetailsOf(actor, done));
    },

    async deactivateUser(request: Req) {
      const actor = actorOf(request);
      const done = await users.setActive(actor, request.params.id, false, ifMatchVersion(request), request.log);
      const { user, assignments } = seenBy(actor, done);
      return toUser(user, assignments, actionsOn(actor, done));
    },

    async reactivateUser(request: Req) {
      const actor = actorOf(request);
      const done = await users.setActive(actor, request.params.id, true, ifMatchVersion(request), request.log);
      const { user, assignments } = seenBy(actor, done);
      return toUser(user, assignments, actionsOn(actor, done));
    },

    /** Without hardDelete, a deactivation; with it, the permanent delete. */
    async deleteUser(request: Req<{ Querystring: { hardDelete?: boolean } }>, reply: FastifyReply) {
      const actor = actorOf(request);
      if (request.query.hardDelete) await users.deletePermanently(actor, request.params.id, ifMatchVersion(request), request.log);
      else await users.setActive(actor, request.params.id, false, ifMatchVersion(request), request.log);
      return reply.code(204).send();
    },
  };
}
