// The assignments a users request asks for: its organizations and roles looked up (an unknown one, or one
// outside the actor's reach, is a field error), the actor's right to give the roles checked, the roles placed.
import type { Transaction } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import { canAssignInOrganization, requireCanAssignRoles, requireCanGrantInheritance } from './users.policy.ts';
import type { OrganizationDto } from '../organizations/organizations.repository.ts';
import type { RoleRecord } from '../roles/roles.repository.ts';
import type { Database } from '../../db/schema.ts';
import type { AssignmentDiff } from './users-write.repository.ts';
import { badRequest, INPUT_MESSAGES, organizationsByCode, organizationsById, rolesByReference, throwIfErrors, type AssignUserRolesBody, type RoleAssignmentInput } from './users.input.ts';

type Trx = Transaction<Database>;

export interface PlannedAssignment {
  organizationId: string;
  roleId: number;
  inheritsToChildren: boolean;
}

/**
 * Spec §5, direct creation (and the complete update, by the same rule): at least one SIRET; every SIREN
 * given has at least one of its SIRETs; EXTERNAL roles go on every SIRET; INTERNAL roles go on the SIRENs
 * (inherited by their SIRETs), the SIREN of the first SIRET being added when none is given.
 */
export function placeRolesByType(
  organizations: readonly OrganizationDto[],
  roles: readonly RoleRecord[],
  field: string,
  mode: 'create' | 'update',
): PlannedAssignment[] {
  const sirets = organizations.filter((o) => o.type === 'SIRET');
  const sirens = organizations.filter((o) => o.type === 'SIREN');
  const first = sirets[0];
  if (!first) {
    const message = mode === 'create' ? INPUT_MESSAGES.atLeastOneSiret : sirens.length ? INPUT_MESSAGES.siretPerSiren : INPUT_MESSAGES.atLeastOneSiren;
    throw badRequest([{ field, message }]);
  }
  if (sirens.some((siren) => !sirets.some((siret) => siret.parentId === siren.id))) {
    throw badRequest([{ field, message: INPUT_MESSAGES.siretPerSiren }]);
  }
  const internal = roles.filter((r) => r.type === 'INTERNAL');
  const external = roles.filter((r) => r.type === 'EXTERNAL');
  const sirenIds = sirens.length ? sirens.map((s) => s.id) : internal.length && first.parentId ? [first.parentId] : [];
  return [
    ...sirenIds.flatMap((organizationId) => internal.map((role) => ({ organizationId, roleId: role.id, inheritsToChildren: true }))),
    ...sirets.flatMap((siret) => external.map((role) => ({ organizationId: siret.id, roleId: role.id, inheritsToChildren: false }))),
  ];
}

const usableBy = (actor: Actor) => (organization: OrganizationDto) => canAssignInOrganization(actor, organization.id);

export interface CodesAndRoles {
  codes: readonly string[];
  codesField: string;
  /** Role codes (createUser) or ids. */
  roles: readonly (string | number)[];
  rolesField: string;
}

/** Roles placed by type on organization codes (createUser, createUserComplete, updateUserComplete). */
export async function placedByCodes(trx: Trx, actor: Actor, input: CodesAndRoles, mode: 'create' | 'update'): Promise<PlannedAssignment[]> {
  const organizations = await organizationsByCode(trx, input.codes, (i) => `${input.codesField}.${i}`, usableBy(actor));
  const roles = await rolesByReference(trx, input.roles, (i) => `${input.rolesField}.${i}`);
  throwIfErrors(organizations, roles);
  requireCanAssignRoles(actor, roles.found);
  return placeRolesByType(organizations.found, roles.found, input.codesField, mode);
}

/** Roles of explicit entries, each on an organization by id or by code (fullUpdateUser, replaceUserRoles). */
export async function explicitAssignments(trx: Trx, actor: Actor, entries: readonly RoleAssignmentInput[], field: string): Promise<PlannedAssignment[]> {
  const withId = entries.flatMap((e, index) => (e.organizationId ? [{ e, index, id: e.organizationId }] : []));
  const withCode = entries.flatMap((e, index) => (e.organizationCode ? [{ e, index, code: e.organizationCode }] : []));
  const byId = await organizationsById(trx, withId.map((x) => x.id), (i) => `${field}.${withId[i]!.index}.organizationId`, usableBy(actor));
  const byCode = await organizationsByCode(trx, withCode.map((x) => x.code), (i) => `${field}.${withCode[i]!.index}.organizationCode`, usableBy(actor));
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

/**
 * assignUserRoles: roles added in one organization to `current`. A role held there already keeps its
 * inheritsToChildren unless the body says otherwise.
 */
export async function addedInOrganization(trx: Trx, actor: Actor, body: AssignUserRolesBody, current: readonly PlannedAssignment[]): Promise<PlannedAssignment[]> {
  const organization = await organizationsById(trx, [body.organizationId], () => 'body.organizationId', usableBy(actor));
  const roles = await rolesByReference(trx, body.roleIds, (i) => `body.roleIds.${i}`);
  throwIfErrors(organization, roles);
  requireCanAssignRoles(actor, roles.found);
  const target = organization.found[0]!;
  const result = new Map(current.map((a) => [`${a.organizationId}|${a.roleId}`, a]));
  for (const role of roles.found) {
    const key = `${target.id}|${role.id}`;
    const inherits = body.inheritsToChildren ?? result.get(key)?.inheritsToChildren ?? false;
    result.set(key, { organizationId: target.id, roleId: role.id, inheritsToChildren: inherits && target.type === 'SIREN' });
  }
  return [...result.values()];
}

/** The SIRENs on which a diff gives inheritsToChildren that was not held: added with it, or switched on. */
export function inheritanceGiven(diff: AssignmentDiff, current: readonly { id: string; organizationId: string }[]): string[] {
  const switchedOn = diff.flipped.filter((f) => f.inherits).map((f) => current.find((a) => a.id === f.id)!.organizationId);
  return [...new Set([...diff.added.filter((a) => a.inheritsToChildren).map((a) => a.organizationId), ...switchedOn])];
}

/** 403 unless the actor may give inheritsToChildren on each of these SIRENs (policy); one statement, none for the back office. */
export async function requireInheritanceWithinReach(trx: Trx, actor: Actor, sirenIds: readonly string[]): Promise<void> {
  if (actor.scope === null || sirenIds.length === 0) return;
  const children = await trx.selectFrom('organizations').select(['id', 'parent_id']).where('parent_id', 'in', [...sirenIds]).execute();
  for (const id of sirenIds) requireCanGrantInheritance(actor, { id, childIds: children.filter((c) => c.parent_id === id).map((c) => c.id) });
}
