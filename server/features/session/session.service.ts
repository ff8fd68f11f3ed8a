// Who is calling: the actor every API request is decided for, and the signed-in person's own profile.
import type { Kysely } from 'kysely';
import type { Actor } from '../../core/actor.ts';
import { unauthenticated } from '../../core/errors.ts';
import { requireActive } from '../../core/policy.ts';
import type { Database } from '../../db/schema.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import { userAuditEntry } from '../users/users.model.ts';
import { loadActor } from './actor.repository.ts';
import { endDormancyWarning, loadCurrentUserBySubject, recordSignIn, type CurrentUser } from './current-user.repository.ts';

export const NO_PORTAL_ACCOUNT = 'Aucun compte du portail ne correspond à cette identité.';

/** What a verified token says of its bearer. */
export interface Principal {
  subject: string;
  /** When the person signed in (seconds since the epoch; 0 when the token does not say). */
  signedInAt: number;
}

export function sessionService({ db, log }: { db: Kysely<Database>; log?: StepLog }) {
  /**
   * A sign-in of a warned account: the warning ends and the journal says so ('user.dormancy.end', by the person,
   * the warning's moment in its changes, under their organizations), whole or not at all.
   */
  const endWarning = (user: CurrentUser, at: Date) =>
    inTransaction(
      db,
      async ({ trx }) => {
        const warnedAt = await endDormancyWarning(trx, user.id, at);
        if (warnedAt === null) return;
        const person = { id: user.id, first_name: user.firstName, last_name: user.lastName, email: user.email };
        await writeAudit(trx, {
          ...userAuditEntry({ userId: user.id, email: user.email }, person, user.organizations.map((o) => ({ organizationId: o.id }))),
          action: 'user.dormancy.end',
          changes: { dormancyWarnedAt: { before: warnedAt.toISOString(), after: null } },
        });
      },
      log,
    );

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
        // One statement for an account not warned; a warned one's sign-in is recorded with the warning it ends.
        if (!(await recordSignIn(db, user.id, signedInAt))) await endWarning(user, signedInAt);
        user.lastLoginAt = signedInAt.toISOString();
      }
      return user;
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;
