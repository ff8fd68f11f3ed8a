// Who is calling: the actor every API request is decided for, and the signed-in person's own profile.
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import { unauthenticated } from '../../core/errors.ts';
import { requireActive } from '../../core/policy.ts';
import type { Database } from '../../db/schema.ts';
import { loadActor } from './actor.repository.ts';
import { loadCurrentUserBySubject, recordSignIn, type CurrentUser } from './current-user.repository.ts';

export const NO_PORTAL_ACCOUNT = 'Aucun compte du portail ne correspond à cette identité.';

/** What a verified token says of its bearer. */
export interface Principal {
  subject: string;
  /** When the person signed in (seconds since the epoch; 0 when the token does not say). */
  signedInAt: number;
}

export function sessionService({ db }: { db: Kysely<Database> }) {
  return {
    /** The active actor of a token's subject: 401 when no portal account has it, 403 when the account is inactive. */
    async activeActor(subject: string): Promise<Actor> {
      const actor = await loadActor(db, subject);
      if (!actor) throw unauthenticated(NO_PORTAL_ACCOUNT);
      requireActive(actor);
      return actor;
    },

    /** The person's profile, also when inactive (the portal tells them); records a sign-in newer than the last one known. */
    async currentUser(principal: Principal): Promise<CurrentUser> {
      const user = await loadCurrentUserBySubject(db, principal.subject);
      if (!user) throw unauthenticated(NO_PORTAL_ACCOUNT);
      const signedInAt = new Date(principal.signedInAt * 1000);
      if (principal.signedInAt > 0 && (!user.lastLoginAt || new Date(user.lastLoginAt) < signedInAt)) {
        await recordSignIn(db, user.id, signedInAt);
        user.lastLoginAt = signedInAt.toISOString();
      }
      return user;
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;
