import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { HandlerDeps } from './deps.ts';
import { loadCurrentUserBySubject, recordSignIn } from '../db/current-user.ts';
import { changedFields, writeAudit } from '../db/audit.ts';
import type { Database, JsonValue, UserRow } from '../db/schema.ts';
import {
  badRequest,
  checkIdentity,
  checkMetadata,
  checkPersonalDetails,
  checkRoleCount,
  editable,
  INPUT_MESSAGES,
  orNull,
  organizationsByCode,
  organizationsById,
  placeRolesByType,
  rolesByReference,
  throwIfErrors,
  type AssignUserRolesBody,
  type CreateUserBody,
  type CreateUserCompleteBody,
  type FullUpdateUserBody,
  type ListUsersQuery,
  type PlannedAssignment,
  type ReplaceUserRolesBody,
  type RoleAssignmentInput,
  type UpdateUserBody,
  type UpdateUserCompleteBody,
} from '../db/users-input.ts';
import {
  canonicalRoleCode,
  findOrganization,
  findUser,
  listUsersPage,
  loadAssignments,
  loadOrganizationsForEdit,
  loadRoles,
  loadUserScope,
  type AssignmentRecord,
  type OrganizationRecord,
  type UserSort,
} from '../db/users-read.ts';
import { toUser, toUserDetail, toUserFullDetails } from '../db/users-shapes.ts';
import {
  auditedFields,
  deleteUserRows,
  describeAssignments,
  emailInUse,
  emailTaken,
  insertUser,
  mapWriteError,
  ownPermissions,
  setAuthId,
  staleVersion,
  applyAssignments,
  diffAssignments,
  isEmptyDiff,
  updateUserRow,
  type NewUserFields,
} from '../db/users-write.ts';
import { actorOf } from '../http/actor-hook.ts';
import { notFound, unauthorized } from '../http/errors.ts';
import { accountSetupUrl } from '../idp/account-setup.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { accountInvitationMail } from '../mail/templates.ts';
import type { Actor } from '../policy/actor.ts';
import {
  assignableRoles,
  canAssignInOrganization,
  canFilterByOrganization,
  replaceableAssignment,
  requireCanAssignRoles,
  requireCanChangeUser,
  requireCanChangeUsers,
  requireCanCreateUsers,
  requireCanHardDeleteUsers,
  requireCanListUsers,
  requireCanReadUser,
  requireUserVisible,
  visibleAssignments,
  type UserScope,
} from '../policy/users.ts';

type Req<T extends { Body?: unknown; Querystring?: unknown; Headers?: unknown } = object> = FastifyRequest<{ Params: { id: string } } & T>;

const auditActor = (actor: Actor) => ({ userId: actor.userId, email: actor.email });
const rolesOf = (assignments: readonly AssignmentRecord[]) => assignments.map((a) => ({ code: a.roleCode, type: a.roleType }));
const distinctRoles = (assignments: readonly { roleId: number }[]) => new Set(assignments.map((a) => a.roleId)).size;
const asPlanned = (a: AssignmentRecord): PlannedAssignment => ({ organizationId: a.organizationId, roleId: a.roleId, inheritsToChildren: a.inheritsToChildren });

const editableDetails = (b: { jobTitle: string | null; phoneNumber: string | null; mobilePhone: string | null; street: string | null; city: string | null; postalCode: string | null }) => ({
  jobTitle: editable(b.jobTitle),
  phoneNumber: editable(b.phoneNumber),
  mobilePhone: editable(b.mobilePhone),
  street: editable(b.street),
  city: editable(b.city),
  postalCode: editable(b.postalCode),
});

/** The body's `version` wins over If-Match (`"7"`, `W/"7"` or `7`). */
function expectedVersion(body: { version?: number }, ifMatch: string | undefined): number | undefined {
  if (body.version !== undefined) return body.version;
  return ifMatch ? Number(ifMatch.replace(/^W\//, '').replaceAll('"', '')) : undefined;
}

export function usersHandlers({ db, directory }: HandlerDeps) {
  /** The target of a change, locked for the transaction, after the visibility and target rules. */
  async function changeable(trx: Transaction<Database>, actor: Actor, id: string) {
    const scope = await loadUserScope(trx, actor);
    const found = await findUser(trx, id, { forUpdate: true });
    const assignments = found ? await loadAssignments(trx, [id]) : [];
    const user = requireUserVisible(actor, scope, found, assignments);
    requireCanChangeUser(actor, { id, roles: rolesOf(assignments) });
    return { scope, user, assignments };
  }

  async function fullDetails(trx: Kysely<Database>, actor: Actor, scope: UserScope | null, user: UserRow, all: AssignmentRecord[]) {
    const sirenIds = [...new Set(all.map((a) => (a.organizationType === 'SIREN' ? a.organizationId : a.parentId)).filter((x): x is string => x !== null))];
    const availableOrganizations =
      scope === null
        ? await loadOrganizationsForEdit(trx, { ids: sirenIds, withChildrenOf: sirenIds })
        : await loadOrganizationsForEdit(trx, { ids: [...scope.organizationIds], withChildrenOf: [] });
    const permissions = user.user_type === 'BACKOFFICE' ? await ownPermissions(trx, user.id) : all.flatMap((a) => a.rolePermissions);
    return toUserFullDetails({
      user,
      assignments: visibleAssignments(actor, scope, user.id, all),
      availableRoles: assignableRoles(actor, await loadRoles(trx)),
      availableOrganizations,
      permissions,
    });
  }

  /** Creation shared by createUser and createUserComplete: one transaction, the identity account last. */
  async function create(actor: Actor, fields: NewUserFields, plan: (trx: Transaction<Database>) => Promise<PlannedAssignment[]>) {
    const made = { subject: null as string | null };
    try {
      return await db.transaction().execute(async (trx) => {
        const planned = await plan(trx);
        if (await emailInUse(trx, fields.email)) throw emailTaken();
        const inserted = await insertUser(trx, fields);
        await applyAssignments(trx, inserted.id, diffAssignments([], planned));
        const assignments = await loadAssignments(trx, [inserted.id]);
        await writeAudit(trx, {
          actor: auditActor(actor),
          action: 'user.create',
          entityType: 'user',
          entityId: inserted.id,
          organizationId: assignments[0]?.organizationId ?? null,
          changes: changedFields({}, { ...auditedFields(inserted), isActive: true, assignments: describeAssignments(assignments) }),
        });
        const account = await directory.createAccount(trx, { email: fields.email, displayName: `${fields.firstName} ${fields.lastName}` });
        made.subject = account.subject;
        const user = await setAuthId(trx, inserted.id, account.subject);
        await enqueueMail(trx, accountInvitationMail({ email: user.email, firstName: user.first_name, lastName: user.last_name, setupUrl: accountSetupUrl(account.subject) }));
        return toUserDetail(user, assignments);
      });
    } catch (error) {
      // A remote directory cannot roll back with us: undo the account it created.
      if (made.subject && directory.kind !== 'local') await directory.deleteAccount(db, made.subject).catch(() => undefined);
      throw mapWriteError(error);
    }
  }

  /** Roles of explicit entries (fullUpdateUser, replaceUserRoles), checked and placed. */
  async function explicitAssignments(trx: Transaction<Database>, actor: Actor, entries: readonly RoleAssignmentInput[], field: string): Promise<PlannedAssignment[]> {
    const usable = (o: OrganizationRecord) => canAssignInOrganization(actor, o.id);
    const withId = entries.flatMap((e, index) => (e.organizationId ? [{ e, index, id: e.organizationId }] : []));
    const withCode = entries.flatMap((e, index) => (e.organizationCode ? [{ e, index, code: e.organizationCode }] : []));
    const byId = await organizationsById(trx, withId.map((x) => x.id), (i) => `${field}.${withId[i]!.index}.organizationId`, usable);
    const byCode = await organizationsByCode(trx, withCode.map((x) => x.code), (i) => `${field}.${withCode[i]!.index}.organizationCode`, usable);
    const references = entries.flatMap((e, index) => e.roleIds.map((roleId, j) => ({ roleId, field: `${field}.${index}.roleIds.${j}` })));
    const roles = await rolesByReference(trx, references.map((r) => r.roleId), (i) => references[i]!.field);
    throwIfErrors(byId, byCode, roles);
    requireCanAssignRoles(actor, roles.found);
    const organizationOf = (e: RoleAssignmentInput) =>
      e.organizationId ? byId.found[withId.findIndex((x) => x.e === e)] : byCode.found.find((o) => o.code === e.organizationCode);
    return entries.flatMap((e) => {
      const organization = organizationOf(e)!;
      return e.roleIds.map((roleId) => ({ organizationId: organization.id, roleId, inheritsToChildren: (e.inheritsToChildren ?? false) && organization.type === 'SIREN' }));
    });
  }

  /** Roles placed by type on organization codes (createUserComplete, updateUserComplete). */
  async function placedByCodes(trx: Transaction<Database>, actor: Actor, codes: readonly string[], roleIds: readonly number[], mode: 'create' | 'update') {
    const organizations = await organizationsByCode(trx, codes, (i) => `body.organizationCodes.${i}`, (o) => canAssignInOrganization(actor, o.id));
    const roles = await rolesByReference(trx, roleIds, (i) => `body.roleIds.${i}`);
    throwIfErrors(organizations, roles);
    requireCanAssignRoles(actor, roles.found);
    return placeRolesByType(organizations.found, roles.found, 'body.organizationCodes', mode);
  }

  interface Edit {
    fields: Partial<NewUserFields> & { metadata?: string | null };
    isActive?: boolean;
    /** The new assignments of those the actor may replace; undefined: roles untouched. */
    assignments?: (trx: Transaction<Database>, current: PlannedAssignment[]) => Promise<PlannedAssignment[]>;
    rolesField?: string;
    expectedVersion?: number;
  }

  /** Every edit of an existing user: one transaction, version bumped once, one audit entry per kind of change. */
  async function edit(actor: Actor, id: string, change: Edit) {
    try {
      return await db.transaction().execute(async (trx) => {
        const { scope, user, assignments } = await changeable(trx, actor, id);
        if (change.expectedVersion !== undefined && user.version !== change.expectedVersion) throw staleVersion();
        const replaceable = assignments.filter((a) => replaceableAssignment(actor, a));
        let desired: PlannedAssignment[] | null = null;
        if (change.assignments) {
          const kept = assignments.filter((a) => !replaceableAssignment(actor, a)).map(asPlanned);
          desired = await change.assignments(trx, replaceable.map(asPlanned));
          checkRoleCount(distinctRoles([...kept, ...desired]), change.rolesField ?? 'body');
        }
        const email = change.fields.email;
        if (email && email.toLowerCase() !== user.email.toLowerCase() && (await emailInUse(trx, email, id))) throw emailTaken();

        const columns = {
          first_name: change.fields.firstName,
          last_name: change.fields.lastName,
          email: change.fields.email,
          job_title: change.fields.jobTitle,
          phone_number: change.fields.phoneNumber,
          mobile_phone: change.fields.mobilePhone,
          street: change.fields.street,
          postal_code: change.fields.postalCode,
          city: change.fields.city,
          metadata: change.fields.metadata,
        };
        const fieldChanges = changedFields(auditedFields(user), change.fields as Record<string, JsonValue | undefined>);
        const activeChanged = change.isActive !== undefined && change.isActive !== user.is_active;
        const diff = desired === null ? null : diffAssignments(replaceable, desired);
        const rolesChanged = diff !== null && !isEmptyDiff(diff);
        if (Object.keys(fieldChanges).length === 0 && !activeChanged && !rolesChanged) return { user, scope, assignments };

        // The user's row first, conditioned on the version read: a concurrent change makes it touch no row.
        const updated = await updateUserRow(trx, id, { ...columns, is_active: change.isActive }, change.expectedVersion);
        if (!updated) throw staleVersion();
        if (rolesChanged) await applyAssignments(trx, id, diff);
        const entry = { actor: auditActor(actor), entityType: 'user' as const, entityId: id, organizationId: assignments[0]?.organizationId ?? null };
        if (Object.keys(fieldChanges).length) await writeAudit(trx, { ...entry, action: 'user.update', changes: fieldChanges });
        const after = rolesChanged ? await loadAssignments(trx, [id]) : assignments;
        if (rolesChanged) {
          await writeAudit(trx, { ...entry, action: 'user.roles', changes: { assignments: { before: describeAssignments(assignments), after: describeAssignments(after) } } });
        }
        if (activeChanged) {
          await writeAudit(trx, { ...entry, action: updated.is_active ? 'user.reactivate' : 'user.deactivate', changes: { isActive: { before: user.is_active, after: updated.is_active } } });
          // The identity provider last, just before commit.
          if (updated.auth_id) await (updated.is_active ? directory.enableAccount(trx, updated.auth_id) : directory.disableAccount(trx, updated.auth_id));
        }
        return { user: updated, scope, assignments: after };
      });
    } catch (error) {
      throw mapWriteError(error);
    }
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
      const scope = await loadUserScope(db, actor);
      let organization: OrganizationRecord | undefined;
      if (q.organizationId) {
        organization = await findOrganization(db, q.organizationId);
        if (!organization || !canFilterByOrganization(scope, organization.id)) throw notFound(INPUT_MESSAGES.unknownOrganization);
      }
      const page = q.page ?? 1;
      const pageSize = q.pageSize ?? 10;
      const result = await listUsersPage(db, {
        page,
        pageSize,
        search: q.search,
        organization,
        roleCode: q.roleCode,
        includeInactive: q.includeInactive ?? false,
        sort: (q.sort ?? 'name') as UserSort,
        order: q.order ?? 'asc',
        scope,
      });
      const items = result.rows.map((row) =>
        toUser(row, visibleAssignments(actor, scope, row.id, result.assignments.filter((a) => a.userId === row.id))),
      );
      return { items, total: result.total, totalCount: result.total, page, pageSize, totalPages: Math.ceil(result.total / pageSize) };
    },

    async getUser(request: Req, reply: FastifyReply) {
      const actor = actorOf(request);
      const id = request.params.id;
      requireCanReadUser(actor, id);
      const scope = await loadUserScope(db, actor);
      const found = await findUser(db, id);
      const assignments = found ? await loadAssignments(db, [id]) : [];
      const user = requireUserVisible(actor, scope, found, assignments);
      reply.header('etag', `"${user.version}"`);
      return toUserDetail(user, visibleAssignments(actor, scope, id, assignments));
    },

    async getUserFullDetails(request: Req, reply: FastifyReply) {
      const actor = actorOf(request);
      const id = request.params.id;
      requireCanReadUser(actor, id);
      const scope = await loadUserScope(db, actor);
      const found = await findUser(db, id);
      const assignments = found ? await loadAssignments(db, [id]) : [];
      const user = requireUserVisible(actor, scope, found, assignments);
      reply.header('etag', `"${user.version}"`);
      return fullDetails(db, actor, scope, user, assignments);
    },

    async createUser(request: Req<{ Body: CreateUserBody }>, reply: FastifyReply) {
      const actor = actorOf(request);
      requireCanCreateUsers(actor);
      const b = request.body;
      const details = checkPersonalDetails(
        { firstName: b.prenom, lastName: b.nom, email: b.email, jobTitle: b.jobTitle, phoneNumber: b.phoneNumber, mobilePhone: b.mobilePhone, street: b.street, postalCode: b.postalCode, city: b.city },
        { firstName: 'prenom', lastName: 'nom' },
      );
      if (b.sirets.length === 0) throw badRequest([{ field: 'body.sirets', message: INPUT_MESSAGES.atLeastOneSiret }]);
      checkRoleCount(new Set(b.roles.map(canonicalRoleCode)).size, 'body.roles');
      const created = await create(actor, { ...details, phoneNumber: orNull(details.phoneNumber), mobilePhone: orNull(details.mobilePhone) }, async (trx) => {
        const organizations = await organizationsByCode(trx, b.sirets, (i) => `body.sirets.${i}`, (o) => canAssignInOrganization(actor, o.id));
        const roles = await rolesByReference(trx, b.roles, (i) => `body.roles.${i}`);
        throwIfErrors(organizations, roles);
        requireCanAssignRoles(actor, roles.found);
        return placeRolesByType(organizations.found, roles.found, 'body.sirets', 'create');
      });
      return reply.code(201).send(created);
    },

    async createUserComplete(request: Req<{ Body: CreateUserCompleteBody }>, reply: FastifyReply) {
      const actor = actorOf(request);
      requireCanCreateUsers(actor);
      const b = request.body;
      const details = checkPersonalDetails({
        firstName: b.firstName,
        lastName: b.lastName,
        email: b.email,
        jobTitle: b.jobTitle,
        phoneNumber: b.phoneNumber,
        mobilePhone: b.mobilePhone,
        street: b.street,
        postalCode: b.postalCode,
        city: b.city,
      });
      if (b.organizationCodes.length === 0) throw badRequest([{ field: 'body.organizationCodes', message: INPUT_MESSAGES.atLeastOneSiret }]);
      checkRoleCount(new Set(b.roleIds).size, 'body.roleIds');
      const created = await create(actor, { ...details, phoneNumber: orNull(details.phoneNumber), mobilePhone: orNull(details.mobilePhone) }, (trx) =>
        placedByCodes(trx, actor, b.organizationCodes, b.roleIds, 'create'),
      );
      return reply.code(201).send(created);
    },

    async updateUser(request: Req<{ Body: UpdateUserBody }>) {
      const actor = actorOf(request);
      requireCanChangeUsers(actor);
      const identity = checkIdentity(request.body);
      const metadata = checkMetadata(request.body.metadata);
      const done = await edit(actor, request.params.id, { fields: { ...metadata.details, ...identity, metadata: metadata.text } });
      return toUserDetail(done.user, visibleAssignments(actor, done.scope, done.user.id, done.assignments));
    },

    async fullUpdateUser(request: Req<{ Body: FullUpdateUserBody; Headers: { 'if-match'?: string } }>) {
      const actor = actorOf(request);
      requireCanChangeUsers(actor);
      const b = request.body;
      const identity = checkIdentity(b);
      if (b.roleAssignments.length === 0) throw badRequest([{ field: 'body.roleAssignments', message: INPUT_MESSAGES.atLeastOneRole }]);
      const done = await edit(actor, request.params.id, {
        fields: { ...identity, ...editableDetails(b) },
        isActive: b.isActive,
        assignments: (trx) => explicitAssignments(trx, actor, b.roleAssignments, 'body.roleAssignments'),
        rolesField: 'body.roleAssignments',
        expectedVersion: expectedVersion(b, request.headers['if-match']),
      });
      return toUserDetail(done.user, visibleAssignments(actor, done.scope, done.user.id, done.assignments));
    },

    async updateUserComplete(request: Req<{ Body: UpdateUserCompleteBody; Headers: { 'if-match'?: string } }>) {
      const actor = actorOf(request);
      requireCanChangeUsers(actor);
      const b = request.body;
      const identity = checkIdentity(b);
      if (b.roleIds.length === 0) throw badRequest([{ field: 'body.roleIds', message: INPUT_MESSAGES.atLeastOneRole }]);
      const done = await edit(actor, request.params.id, {
        fields: { ...identity, ...editableDetails(b) },
        assignments: (trx) => placedByCodes(trx, actor, b.organizationCodes, b.roleIds, 'update'),
        rolesField: 'body.roleIds',
        expectedVersion: expectedVersion(b, request.headers['if-match']),
      });
      return toUserDetail(done.user, visibleAssignments(actor, done.scope, done.user.id, done.assignments));
    },

    async assignUserRoles(request: Req<{ Body: AssignUserRolesBody }>) {
      const actor = actorOf(request);
      requireCanChangeUsers(actor);
      const b = request.body;
      if (b.roleIds.length === 0) throw badRequest([{ field: 'body.roleIds', message: INPUT_MESSAGES.atLeastOneRole }]);
      const done = await edit(actor, request.params.id, {
        fields: {},
        rolesField: 'body.roleIds',
        assignments: async (trx, current) => {
          const usable = (o: OrganizationRecord) => canAssignInOrganization(actor, o.id);
          const organization = await organizationsById(trx, [b.organizationId], () => 'body.organizationId', usable);
          const roles = await rolesByReference(trx, b.roleIds, (i) => `body.roleIds.${i}`);
          throwIfErrors(organization, roles);
          requireCanAssignRoles(actor, roles.found);
          const target = organization.found[0]!;
          // Added to what the user holds; one held already keeps its inheritsToChildren unless the body says otherwise.
          const result = new Map(current.map((a) => [`${a.organizationId}|${a.roleId}`, a]));
          for (const role of roles.found) {
            const key = `${target.id}|${role.id}`;
            const inherits = b.inheritsToChildren ?? result.get(key)?.inheritsToChildren ?? false;
            result.set(key, { organizationId: target.id, roleId: role.id, inheritsToChildren: inherits && target.type === 'SIREN' });
          }
          return [...result.values()];
        },
      });
      return fullDetails(db, actor, done.scope, done.user, done.assignments);
    },

    async replaceUserRoles(request: Req<{ Body: ReplaceUserRolesBody }>) {
      const actor = actorOf(request);
      requireCanChangeUsers(actor);
      const b = request.body;
      if (b.assignments.length === 0) throw badRequest([{ field: 'body.assignments', message: INPUT_MESSAGES.atLeastOneRole }]);
      const done = await edit(actor, request.params.id, {
        fields: {},
        rolesField: 'body.assignments',
        assignments: (trx) => explicitAssignments(trx, actor, b.assignments, 'body.assignments'),
      });
      return fullDetails(db, actor, done.scope, done.user, done.assignments);
    },

    async deactivateUser(request: Req) {
      return setActive(request, false);
    },

    async reactivateUser(request: Req) {
      return setActive(request, true);
    },

    async deleteUser(request: Req<{ Querystring: { hardDelete?: boolean } }>, reply: FastifyReply) {
      const actor = actorOf(request);
      if (!request.query.hardDelete) {
        await setActive(request, false);
        return reply.code(204).send();
      }
      requireCanHardDeleteUsers(actor);
      try {
        await db.transaction().execute(async (trx) => {
          const { user, assignments } = await changeable(trx, actor, request.params.id);
          await deleteUserRows(trx, user.id);
          await writeAudit(trx, {
            actor: auditActor(actor),
            action: 'user.delete',
            entityType: 'user',
            entityId: user.id,
            organizationId: assignments[0]?.organizationId ?? null,
            changes: {
              ...Object.fromEntries(Object.entries(auditedFields(user)).map(([field, before]) => [field, { before, after: null }])),
              assignments: { before: describeAssignments(assignments), after: [] },
            },
          });
          if (user.auth_id) await directory.deleteAccount(trx, user.auth_id);
        });
      } catch (error) {
        throw mapWriteError(error);
      }
      return reply.code(204).send();
    },
  };

  async function setActive(request: Req, isActive: boolean) {
    const actor = actorOf(request);
    requireCanChangeUsers(actor);
    const done = await edit(actor, request.params.id, { fields: {}, isActive });
    return toUser(done.user, visibleAssignments(actor, done.scope, done.user.id, done.assignments));
  }
}
