// Which items of the Accueil (GET /api/v2/home) a person sees: each is the total of a list, shown only to those who
// may open that list, as its own policy decides. Pure.
import type { Actor } from '../../core/actor.ts';
import { DomainError } from '../../core/errors.ts';
import { requireCanCreateInvitations, requireCanListInvitations } from '../invitations/invitations.policy.ts';
import { requireCanListUsers } from '../users/users.policy.ts';

/** The items of the Accueil (OpenAPI Home), each the exact total of the list it links to. */
export type HomeItem = 'pendingRequests' | 'longPendingRequests' | 'expiringRequests' | 'setupLinkExpiredUsers' | 'myPendingRequests' | 'invitationNotAcceptedUsers' | 'dormantUsers';

/** Whether the list's own check lets the actor through (its refusal, not any other failure). */
function allows(check: (actor: Actor) => void, actor: Actor): boolean {
  try {
    check(actor);
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

const backOfficeList = (actor: Actor) => allows(requireCanListInvitations, actor);
const usersList = (actor: Actor) => allows(requireCanListUsers, actor);

/** Per item, who sees it: the back office the work of the whole portal, an organization user their own. */
const SEES: Readonly<Record<HomeItem, (actor: Actor) => boolean>> = {
  pendingRequests: backOfficeList,
  longPendingRequests: backOfficeList,
  expiringRequests: backOfficeList,
  setupLinkExpiredUsers: (actor) => actor.isBackOffice && usersList(actor),
  // 'Mes demandes' is open to anyone; the item is for those who make requests for their organizations.
  myPendingRequests: (actor) => !actor.isBackOffice && allows(requireCanCreateInvitations, actor),
  invitationNotAcceptedUsers: (actor) => !actor.isBackOffice && usersList(actor),
  // Issue 23's dormant accounts: the back office's all, an employer administrator's own users.
  dormantUsers: usersList,
};

/** The items the actor sees, in the Accueil's order. */
export function homeItemsFor(actor: Actor): HomeItem[] {
  return (Object.keys(SEES) as HomeItem[]).filter((item) => SEES[item](actor));
}
