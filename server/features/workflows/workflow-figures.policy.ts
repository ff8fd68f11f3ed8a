// Who reads the figures of the lifecycle machines (issue 24), pure. The request lifecycle's figures count requests, so
// they follow the reach of the lists of requests: the back office reads every request (the invitations list is
// theirs, whatever their permissions); an organization user reads only 'Mes demandes' (the requests they made, on the
// organizations where they still hold USER_CREATE: requireCanReachRequest), the one list of requests the policy lets
// them read. Counting more (every request of their organizations) would reveal requests they may not open.
import type { Actor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import { hasPermission } from '../../core/policy.ts';
import { requesterReach } from '../invitations/invitations.policy.ts';
import { requireCanListUsers, userScope, type UserScope } from '../users/users.policy.ts';

export const WORKFLOW_FIGURES_MESSAGES = {
  forbidden: "Les chiffres des workflows sont réservés au back-office et aux administrateurs d'organisation (permission USER_CREATE).",
} as const;

/** Whose items the figures count: all, or those a requester made on the organizations given. */
export type FiguresScope = { kind: 'all' } | { kind: 'requester'; userId: string; organizationIds: readonly string[] };

/** The back office: all; a person holding USER_CREATE (an employer administrator): their own requests; anyone else 403. */
export function figuresScopeFor(actor: Actor): FiguresScope {
  if (actor.isBackOffice) return { kind: 'all' };
  if (!hasPermission(actor, 'USER_CREATE')) throw forbidden(WORKFLOW_FIGURES_MESSAGES.forbidden);
  return { kind: 'requester', userId: actor.userId, organizationIds: requesterReach(actor) ?? [] };
}

/** The operation's function-level right (operations.policy.ts). */
export function requireCanReadWorkflowFigures(actor: Actor): void {
  figuresScopeFor(actor);
}

/** Whose accounts the account lifecycle's figures count: all, or those of the caller's users list. */
export type AccountFiguresScope = { kind: 'all' } | { kind: 'users'; reach: UserScope };

/**
 * The account lifecycle's figures count people, so they follow the reach of the users list: the back office holding
 * USER_LIST every account (without it, 403: its list, its journal and the Accueil's dormant accounts are closed to
 * them); an employer administrator (the same right as the request figures: USER_CREATE) the users their list holds
 * (listUsers: USER_LIST's reach); anyone else 403.
 */
export function accountFiguresScopeFor(actor: Actor): AccountFiguresScope {
  if (figuresScopeFor(actor).kind === 'all') {
    requireCanListUsers(actor);
    return { kind: 'all' };
  }
  const reach = userScope(actor, 'USER_LIST');
  return reach === null ? { kind: 'all' } : { kind: 'users', reach };
}
