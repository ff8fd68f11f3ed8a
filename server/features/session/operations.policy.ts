import type { Actor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import { requireActive } from '../../core/policy.ts';
import { requireCanReadAudit } from '../audit/audit.policy.ts';
import { requireCanCreateInvitations, requireCanDecideInvitation, requireCanListInvitations, requireCanReadInvitation } from '../invitations/invitations.policy.ts';
import { requireCanListOrganizations } from '../organizations/organizations.policy.ts';
import { requireCanReadRetention } from '../retention/retention.policy.ts';
import { requireCanReadWorkflowFigures } from '../workflows/workflow-figures.policy.ts';
import { canHardDeleteUsers, requireCanChangeUsers, requireCanCreateUsers, requireCanExportPersonalData, requireCanListUsers, requireCanReadUser } from '../users/users.policy.ts';

/**
 * The function-level decision of each operation of the contract, by operationId: what the caller must be
 * or hold to call it at all, whatever the body and the query say. Asked before the contract's validation
 * (server/plugins/operation-guard.ts), so that a caller without the right gets 403, never a 400 that reads
 * their input; the services ask the same functions again, then decide per organization and per user.
 */
export interface OperationCall {
  /** The path parameters as routed (not yet validated). */
  params: Readonly<Record<string, unknown>>;
}

const open = () => {};
/** Either right lets the call through: a deactivation's (USER_CREATE) or a permanent delete's; the service decides which the call needs. */
const changeOrHardDelete = (actor: Actor) => {
  if (!canHardDeleteUsers(actor)) requireCanChangeUsers(actor);
};

export const UNDECIDED_OPERATION = "Cette opération n'est pas autorisée.";

export const OPERATION_REQUIREMENTS: Readonly<Record<string, (actor: Actor, call: OperationCall) => void>> = {
  getCurrentUser: open,
  // Every item is decided by the list it counts (features/home/home.policy.ts): each person sees their own.
  getHome: open,
  // One's own address only: the service refuses a link of another account.
  confirmEmailChange: open,
  listUsers: requireCanListUsers,
  // The list's right; the service applies the list's reach and filters.
  exportUsers: requireCanListUsers,
  getUser: (actor, { params }) => requireCanReadUser(actor, String(params.id)),
  getUserFullDetails: (actor, { params }) => requireCanReadUser(actor, String(params.id)),
  // A person's data on request: oneself, or the back office holding USER_LIST.
  getUserPersonalData: (actor, { params }) => requireCanExportPersonalData(actor, String(params.id)),
  // One's own data only.
  getMyPersonalData: open,
  createUser: requireCanCreateUsers,
  createUserComplete: requireCanCreateUsers,
  updateUser: requireCanChangeUsers,
  fullUpdateUser: requireCanChangeUsers,
  updateUserComplete: requireCanChangeUsers,
  assignUserRoles: requireCanChangeUsers,
  replaceUserRoles: requireCanChangeUsers,
  deactivateUser: requireCanChangeUsers,
  reactivateUser: requireCanChangeUsers,
  // Without hardDelete a deactivation, with it the permanent delete.
  deleteUser: changeOrHardDelete,
  resendUserInvitation: requireCanChangeUsers,
  // Which right depends on the body's action ('delete': a permanent delete's).
  startUsersBulkAction: changeOrHardDelete,
  // Only the job's starter, who held one of those rights; the service answers 404 to anyone else.
  getUsersBulkAction: open,
  exportSelectedUsers: requireCanListUsers,
  listInvitations: requireCanListInvitations,
  getInvitation: requireCanReadInvitation,
  createInvitation: requireCanCreateInvitations,
  approveInvitation: requireCanDecideInvitation,
  rejectInvitation: requireCanDecideInvitation,
  // One's own requests: the service reads only the caller's.
  listMyInvitations: open,
  // Its requester or the back office holding USER_CREATE: the service decides on the request (404 for another's).
  cancelInvitation: open,
  listOrganizations: requireCanListOrganizations,
  getOrganizationByCode: open,
  getOrganization: open,
  listRoles: open,
  listAuditEntries: requireCanReadAudit,
  exportAuditEntries: requireCanReadAudit,
  getRetention: requireCanReadRetention,
  // The back office, or a person holding USER_CREATE (their own requests); the service applies the scope.
  getWorkflowFigures: requireCanReadWorkflowFigures,
  exportWorkflowFigures: requireCanReadWorkflowFigures,
};

/** 403 unless the actor may call this operation at all; an operation without a decision is refused (closed by default). */
export function requireMayCallOperation(actor: Actor, operationId: string, call: OperationCall): void {
  requireActive(actor);
  const requirement = OPERATION_REQUIREMENTS[operationId];
  if (!requirement) throw forbidden(UNDECIDED_OPERATION);
  requirement(actor, call);
}
