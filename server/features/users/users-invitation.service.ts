// A new account set-up link for a user who has never signed in (resendUserInvitation): one unit of work holding
// the new link's time on the user (the older links stop working), the e-mail in the outbox and the journal entry.
import type { Actor } from '../../core/actor.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import { countEntityActionsInLastHour, writeAudit } from '../audit/audit.repository.ts';
import { openAccountAndInvite, sendAccountSetupLink } from './users-create.service.ts';
import { changeableUser } from './users-edit.service.ts';
import { mapWriteError } from './users.errors.ts';
import { userAuditEntry, type PersonStep } from './users.model.ts';
import { requireCanChangeAccount, requireCanChangeUsers, requireCanResendInvitation, requireResendWithinLimit } from './users.policy.ts';
import type { ServiceDeps as UsersDeps } from '../services.ts';

export function usersInvitationService(deps: UsersDeps) {
  return {
    /** Answers when the new link was sent. */
    async resendInvitation(actor: Actor, id: string, log: StepLog = deps.log, step?: PersonStep): Promise<{ invitationSentAt: Date }> {
      requireCanChangeUsers(actor);
      try {
        return await inTransaction(
          deps.db,
          async (uow) => {
            const { trx } = uow;
            if (step) await step.claim(trx);
            const { user, assignments } = await changeableUser(trx, actor, id);
            requireCanChangeAccount(actor, assignments);
            requireCanResendInvitation(user);
            // The user's row is locked (changeableUser): two resends at once count one after the other.
            requireResendWithinLimit(await countEntityActionsInLastHour(trx, user.id, 'user.invitation.resend'));
            // An account made before its user had a sign-in account (none today) gets one, as a creation does.
            const sent = user.auth_id ? await sendAccountSetupLink(deps, uow, user, user.auth_id) : await openAccountAndInvite(deps, uow, user);
            const invitationSentAt = new Date(sent.user.invitation_sent_at!);
            const before = user.invitation_sent_at === null ? null : new Date(user.invitation_sent_at).toISOString();
            await writeAudit(trx, {
              ...userAuditEntry(actor, user, assignments),
              action: 'user.invitation.resend',
              changes: { invitationSentAt: { before, after: invitationSentAt.toISOString() } },
            });
            return { invitationSentAt };
          },
          log,
        );
      } catch (error) {
        throw mapWriteError(error);
      }
    },
  };
}
