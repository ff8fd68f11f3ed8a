// The signed-in person's own account: what only they may do on it.
import { unwrap, type ApiClient } from './client';
import type { components } from './schema.gen';

export type ConfirmedEmail = components['schemas']['ConfirmedEmail'];

/** POST /api/v2/users/me/email-confirmation: the signed-in person confirms their own new address (issue 19). */
export function confirmEmailChange(api: ApiClient, token: string): Promise<ConfirmedEmail> {
  return unwrap(api.POST('/api/v2/users/me/email-confirmation', { body: { token } }), 'Failed to confirm the address');
}
