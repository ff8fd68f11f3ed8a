// A person's data on request (issue 23, getUserPersonalData and getMyPersonalData): everything the portal holds
// about one person, read in one unit of work with the journal entry that records the download, then written
// out as JSON (OpenAPI PersonalData) or as a French HTML summary.
import type { Actor } from '../../core/actor.ts';
import { notFound } from '../../core/errors.ts';
import { requireActive } from '../../core/policy.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { journalEntriesAbout } from '../audit/audit.service.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import type { ServiceDeps as UsersDeps } from '../services.ts';
import { personalDataHtml } from './users-personal-data-html.model.ts';
import { personalDataDocument, personalDataFileName, type PersonalDataDocument, type PersonalDataFormat } from './users-personal-data.model.ts';
import { findPerson, personEmails, personPermissions, personRequests, personRoles } from './users-personal-data.repository.ts';
import { userAuditEntry } from './users.model.ts';
import { requireCanExportPersonalData, USER_NOT_FOUND } from './users.policy.ts';

/** The file answered: its name, its media type and its text (the JSON document kept for the tests' reading). */
export interface PersonalDataFile {
  fileName: string;
  contentType: string;
  text: string;
  document: PersonalDataDocument;
}

export function usersPersonalDataService(deps: UsersDeps) {
  return {
    /** 403 before anything is read for a caller without the right; 404 for an unknown person. */
    async personalData(actor: Actor, userId: string, format: PersonalDataFormat): Promise<PersonalDataFile> {
      requireActive(actor);
      requireCanExportPersonalData(actor, userId);
      const now = deps.now();
      const { document, person } = await inTransaction(
        deps.db,
        async ({ trx }) => {
          const person = await findPerson(trx, userId);
          if (!person) throw notFound(USER_NOT_FOUND);
          // Their confirmed address only: a pending one was merely typed (by them or an administrator) and proves
          // nothing; another person's requests and e-mails at that address are not theirs (security review).
          const addresses = [person.email];
          const roles = await personRoles(trx, userId);
          const permissions = person.user_type === 'BACKOFFICE' ? await personPermissions(trx, userId) : [];
          const requests = await personRequests(trx, userId, addresses);
          const emails = await personEmails(trx, person.email, person.pending_email);
          const journal = await journalEntriesAbout(trx, actor, userId);
          const document = personalDataDocument(
            { person, roles, permissions, requests, emails, journal: journal.map((e) => ({ at: new Date(e.at), action: e.action, actorName: e.actorName, sentence: e.sentence, details: e.details })) },
            now,
          );
          const organizations = roles.map((r) => ({ organizationId: r.organization_id }));
          await writeAudit(trx, { ...userAuditEntry(actor, person, organizations), action: 'personal-data.exported', changes: { format } });
          return { document, person };
        },
        deps.log,
      );
      const fileName = personalDataFileName(person, format, now);
      return format === 'html'
        ? { fileName, contentType: 'text/html; charset=utf-8', text: personalDataHtml(document), document }
        : { fileName, contentType: 'application/json; charset=utf-8', text: JSON.stringify(document, null, 2), document };
    },
  };
}
