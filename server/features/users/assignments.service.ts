// The assignments a users request asks for: its organizations and roles looked up (an unknown one, or one
// outside the actor's reach, is a field error), the actor's right to give the roles checked, the roles placed.
import type { Transaction } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import type { Database } from '../../db/schema.ts';
import { childrenOf, findOrganizationsByCodes, findOrganizationsByIds, type OrganizationDto } from '../organizations/organizations.repository.ts';
import { loadRoles } from '../roles/roles.repository.ts';
import { canAssignInOrganization, requireCanAssignRoles, requireCanGrantInheritance } from './users.policy.ts';
import { internalRolesOnSirenOnly, matchOrganizationCodes, matchOrganizationIds, matchRoles, placeRolesByType, throwIfErrors, type RoleAssignmentInput, type RolesChange } from './users.input.ts';
import { addedIn, assignmentKey, type PlannedAssignment } from './users.model.ts';
import { newAccessRefusal } from '../organizations/organizations.policy.ts';
import { invalid, type FieldError } from '../../core/errors.ts';

type Trx = Transaction<Database>;

const usableBy = (actor: Actor) => (organization: OrganizationDto) => canAssignInOrganization(actor, organization.id);

/** The assignments `change` asks for, in place of `current` (those the actor may replace). */
export async function plannedAssignments(trx: Trx, actor: Actor, change: RolesChange, current: readonly PlannedAssignment[]): Promise<PlannedAssignment[]> {
  if (change.kind === 'byCodes') {
    const organizations = matchOrganizationCodes(await findOrganizationsByCodes(trx, change.codes), change.codes, (i) => `${change.codesField}.${i}`, usableBy(actor));
    const roles = matchRoles(await loadRoles(trx), change.roles, (i) => `${change.rolesField}.${i}`);
    throwIfErrors(organizations, roles);
    requireCanAssignRoles(actor, roles.found);
    const planned = placeRolesByType(organizations.found, roles.found, change.codesField, change.mode);
    refuseNewAccessWhereClosed(planned, current, organizations.found, (o) => `${change.codesField}.${change.codes.indexOf(o.code)}`);
    return planned;
  }
  if (change.kind === 'explicit') return explicitAssignments(trx, actor, change.entries, change.field, current);
  const organization = matchOrganizationIds(await findOrganizationsByIds(trx, [change.organizationId]), [change.organizationId], () => 'body.organizationId', usableBy(actor));
  const roles = matchRoles(await loadRoles(trx), change.roleIds, (i) => `body.roleIds.${i}`);
  throwIfErrors(organization, roles);
  requireCanAssignRoles(actor, roles.found);
  const target = organization.found[0]!;
  internalRolesOnSirenOnly(change.roleIds.map((id, i) => ({ organization: target, role: roles.found.find((r) => r.id === id), field: `body.roleIds.${i}` })));
  const planned = addedIn(target, roles.found, change.inheritsToChildren, current);
  refuseNewAccessWhereClosed(planned, current, [target], () => 'body.organizationId');
  return planned;
}

/**
 * 400 naming each organization where the plan gives a role not already held, while the organization takes no
 * new access (a closed SIRET, a non-member; organizations.policy.ts). Roles already held there may stay.
 */
function refuseNewAccessWhereClosed(
  planned: readonly PlannedAssignment[],
  current: readonly PlannedAssignment[],
  organizations: readonly OrganizationDto[],
  fieldOf: (organization: OrganizationDto) => string,
): void {
  const held = new Set(current.map(assignmentKey));
  const errors: FieldError[] = [];
  for (const organization of organizations) {
    const refusal = newAccessRefusal(organization);
    if (refusal && planned.some((a) => a.organizationId === organization.id && !held.has(assignmentKey(a)))) errors.push({ field: fieldOf(organization), message: refusal });
  }
  if (errors.length) throw invalid(errors);
}

async function explicitAssignments(trx: Trx, actor: Actor, entries: readonly RoleAssignmentInput[], field: string, current: readonly PlannedAssignment[]): Promise<PlannedAssignment[]> {
  const withId = entries.flatMap((e, index) => (e.organizationId ? [{ e, index, id: e.organizationId }] : []));
  const withCode = entries.flatMap((e, index) => (e.organizationCode ? [{ e, index, code: e.organizationCode }] : []));
  const ids = withId.map((x) => x.id);
  const codes = withCode.map((x) => x.code);
  const byId = matchOrganizationIds(await findOrganizationsByIds(trx, ids), ids, (i) => `${field}.${withId[i]!.index}.organizationId`, usableBy(actor));
  const byCode = matchOrganizationCodes(await findOrganizationsByCodes(trx, codes), codes, (i) => `${field}.${withCode[i]!.index}.organizationCode`, usableBy(actor));
  const references = entries.flatMap((e, index) => e.roleIds.map((roleId, j) => ({ roleId, field: `${field}.${index}.roleIds.${j}` })));
  const roles = matchRoles(await loadRoles(trx), references.map((r) => r.roleId), (i) => references[i]!.field);
  throwIfErrors(byId, byCode, roles);
  requireCanAssignRoles(actor, roles.found);
  const organizationOf = (e: RoleAssignmentInput) =>
    e.organizationId ? byId.found[withId.findIndex((x) => x.e === e)] : byCode.found.find((o) => o.code === e.organizationCode);
  internalRolesOnSirenOnly(
    entries.flatMap((e, index) => e.roleIds.map((roleId, j) => ({ organization: organizationOf(e)!, role: roles.found.find((r) => r.id === roleId), field: `${field}.${index}.roleIds.${j}` }))),
  );
  const planned = entries.flatMap((e) => {
    const organization = organizationOf(e)!;
    return e.roleIds.map((roleId) => ({ organizationId: organization.id, roleId, inheritsToChildren: (e.inheritsToChildren ?? false) && organization.type === 'SIREN' }));
  });
  const fieldOf = (organization: OrganizationDto) => {
    const index = entries.findIndex((e) => organizationOf(e)?.id === organization.id);
    return `${field}.${index}.${entries[index]!.organizationId ? 'organizationId' : 'organizationCode'}`;
  };
  refuseNewAccessWhereClosed(planned, current, [...byId.found.filter((o): o is OrganizationDto => o !== undefined), ...byCode.found], fieldOf);
  return planned;
}

/** 403 unless the actor may give inheritsToChildren on each of these SIRENs (policy); one statement, none for the back office. */
export async function requireInheritanceWithinReach(trx: Trx, actor: Actor, sirenIds: readonly string[]): Promise<void> {
  if (actor.scope === null || sirenIds.length === 0) return;
  const children = await childrenOf(trx, sirenIds);
  for (const id of sirenIds) requireCanGrantInheritance(actor, { id, childIds: children.filter((c) => c.parentId === id).map((c) => c.id) });
}
