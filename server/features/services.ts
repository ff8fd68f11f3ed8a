// The product's use cases, built once per app with what they need, and handed to the API's handlers.
import type { Kysely } from 'kysely';
import type { DormancyConfig, RequestLifecycleConfig } from '../config.ts';
import type { ListTotals } from '../db/list-totals.ts';
import type { Database } from '../db/schema.ts';
import type { StepLog } from '../db/unit-of-work.ts';
import type { AccountSetupUrl } from '../identity/account-setup-links.ts';
import type { IdentityDirectory } from '../identity/directory.ts';
import type { Outbox } from '../mail/outbox.ts';
import type { CreationLimits } from './audit/creation-limit.service.ts';
import { auditService } from './audit/audit.service.ts';
import { journalExportService } from './audit/journal-export.service.ts';
import { homeService } from './home/home.service.ts';
import { invitationsRequesterService } from './invitations/invitations-requester.service.ts';
import { invitationsService } from './invitations/invitations.service.ts';
import { organizationsService } from './organizations/organizations.service.ts';
import { retentionService } from './retention/retention.service.ts';
import type { RetentionSettings } from './retention/retention.model.ts';
import { rolesService } from './roles/roles.service.ts';
import { sessionService } from './session/session.service.ts';
import { usersBulkService } from './users/users-bulk.service.ts';
import { usersDormancyService } from './users/users-dormancy.service.ts';
import { usersService } from './users/users.service.ts';
import { workflowFiguresService } from './workflows/workflow-figures.service.ts';

export interface ServiceDeps {
  db: Kysely<Database>;
  /** The identity provider's accounts. */
  directory: IdentityDirectory;
  /** Totals of filtered lists kept while the data does not change (server/db/list-totals.ts); null: counted every time. */
  listTotals: ListTotals | null;
  outbox: Outbox;
  accountSetupUrl: AccountSetupUrl;
  /** The portal's public origin (https://…), for the links of the e-mails that lead to its own pages. */
  publicOrigin: string;
  /** Where what fails after the outcome of a unit of work is written. */
  log: StepLog;
  /** Creations a person may make in an hour (USER_CREATIONS_PER_HOUR, INVITATIONS_PER_HOUR). */
  creationLimits: CreationLimits;
  /** The life of a request: its period before expiry (INVITATION_EXPIRY_DAYS) and the reminders' days. */
  requests: RequestLifecycleConfig;
  /** The retention settings, shown to the back office ('Durées de conservation'). */
  retention: RetentionSettings;
  /** The time the services decide with (a request's expiry); tests move it. */
  now: () => Date;
  /** DORMANCY_*_DAYS: the users list's 'Comptes dormants' (issue 23). */
  dormancy: DormancyConfig;
}

export function buildServices(deps: ServiceDeps) {
  const users = usersService(deps);
  return {
    session: sessionService(deps),
    users,
    bulkActions: usersBulkService(deps, users),
    dormancy: usersDormancyService(deps, users),
    invitations: { ...invitationsService(deps), ...invitationsRequesterService(deps) },
    organizations: organizationsService(deps),
    roles: rolesService(deps),
    retention: retentionService(deps),
    audit: { ...auditService(deps), ...journalExportService(deps) },
    workflows: workflowFiguresService(deps),
    home: homeService(deps),
  };
}

export type Services = ReturnType<typeof buildServices>;
