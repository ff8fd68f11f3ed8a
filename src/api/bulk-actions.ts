// Issue 22: a new set-up link for one user, and the actions on many users (a job started, then followed).
import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type BulkAction = components['schemas']['BulkAction'];
export type BulkActionRequest = components['schemas']['BulkActionRequest'];

/** POST /api/v2/users/{id}/resend-invitation: a new link, the earlier ones revoked; answers when it was sent. */
export function resendUserInvitation(api: ApiClient, id: string): Promise<components['schemas']['ResentInvitation']> {
  return unwrap(api.POST('/api/v2/users/{id}/resend-invitation', { params: { path: { id } } }), "Le renvoi de l'invitation a échoué.");
}

/** POST /api/v2/users/bulk-actions: the job, started (202). */
export function startUsersBulkAction(api: ApiClient, body: BulkActionRequest, signal?: AbortSignal): Promise<BulkAction> {
  return unwrap(api.POST('/api/v2/users/bulk-actions', { body, signal }), "L'action n'a pas pu démarrer.");
}

/** GET /api/v2/users/bulk-actions/{id}: where the job stands. */
export function fetchUsersBulkAction(api: ApiClient, id: string, signal?: AbortSignal): Promise<BulkAction> {
  return unwrap(api.GET('/api/v2/users/bulk-actions/{id}', { params: { path: { id } }, signal }), "L'avancement de l'action n'a pas pu être lu.");
}
