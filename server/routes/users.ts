import type { FastifyRequest } from 'fastify';
import type { HandlerDeps } from './deps.ts';
import { loadCurrentUserBySubject, recordSignIn } from '../db/current-user.ts';
import { unauthorized } from '../http/errors.ts';

export function usersHandlers({ db }: HandlerDeps) {
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
  };
}
