// The first back-office administrator of a database (npm run admin:create, server/cli/admin-create.ts): a
// BACKOFFICE user holding every permission, made as the wizard makes users — one unit of work with the audit
// entry, the sign-in account at the identity directory last, and the invitation e-mail in the outbox.
import type { UserRow } from '../../db/schema.ts';
import { inTransaction, type StepLog } from '../../db/unit-of-work.ts';
import { changedFields } from '../audit/audit.model.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import { openAccountAndInvite } from './users-create.service.ts';
import { activeBackOfficeAdministrators, allPermissionCodes, emailInUse, grantPermissions, insertUser, lockBackOfficeAdministrators } from './users-write.repository.ts';
import { emailTaken, mapWriteError } from './users.errors.ts';
import { checkIdentity } from './users.input.ts';
import { personalFields, userAuditEntry } from './users.model.ts';
import { requireFirstBackOfficeAdministrator } from './users.policy.ts';
import type { ServiceDeps as UsersDeps } from '../services.ts';

export interface NewBackOfficeAdministrator {
  email: string;
  firstName: string;
  lastName: string;
  /** Create one even though an active back-office administrator exists. */
  force: boolean;
  /** Who asks, as the audit entry names them (no portal user: e.g. 'npm run admin:create (deploy@host)'). */
  requestedBy: string;
}

export function usersBackOfficeService(deps: UsersDeps) {
  return {
    /** Answers the user, and the outbox id of their invitation e-mail. */
    async createBackOfficeAdministrator(input: NewBackOfficeAdministrator, log: StepLog = deps.log): Promise<{ user: UserRow; outboxId: number }> {
      const identity = checkIdentity(input);
      try {
        return await inTransaction(
          deps.db,
          async (uow) => {
            const { trx } = uow;
            await lockBackOfficeAdministrators(trx);
            requireFirstBackOfficeAdministrator(await activeBackOfficeAdministrators(trx), input.force);
            if (await emailInUse(trx, identity.email)) throw emailTaken();
            const permissions = await allPermissionCodes(trx);
            if (permissions.length === 0) throw new Error('la table permissions est vide : les données de référence manquent');
            const fields = { ...identity, jobTitle: null, phoneNumber: null, mobilePhone: null, street: null, postalCode: null, city: null };
            const inserted = await insertUser(trx, fields, 'BACKOFFICE');
            await grantPermissions(trx, inserted.id, permissions);
            const changes = changedFields({}, { ...personalFields(inserted), isActive: true, userType: 'BACKOFFICE', permissions });
            await writeAudit(trx, { ...userAuditEntry({ userId: null, email: input.requestedBy }, inserted, []), action: 'user.create', changes });
            return openAccountAndInvite(deps, uow, inserted);
          },
          log,
        );
      } catch (error) {
        throw mapWriteError(error);
      }
    },
  };
}
