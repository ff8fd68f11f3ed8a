import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loadCurrentUserBySubject } from '../db/current-user.ts';
import { unauthorized } from '../http/errors.ts';

export function usersHandlers({ db }: { db: Kysely<Database> }) {
  return {
    /** GET /api/v2/users/me: the signed-in person's profile, also when inactive (the portal tells them). */
    async getCurrentUser(request: FastifyRequest, _reply: FastifyReply) {
      const principal = request.principal;
      if (!principal) throw unauthorized();
      const user = await loadCurrentUserBySubject(db, principal.subject);
      if (!user) throw unauthorized('Aucun compte du portail ne correspond à cette identité.');
      const signedInAt = new Date(principal.signedInAt * 1000);
      if (principal.signedInAt > 0 && (!user.lastLoginAt || new Date(user.lastLoginAt) < signedInAt)) {
        // The provider does not tell us of sign-ins: a token whose auth_time is newer than the last one recorded is a new sign-in.
        await db.updateTable('users').set({ last_login_at: signedInAt }).where('id', '=', user.id).execute();
        user.lastLoginAt = signedInAt.toISOString();
      }
      return user;
    },
  };
}
