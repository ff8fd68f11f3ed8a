// The journal's search narrowed to a few rare strings of the term (audit.model.ts searchNarrowing, audit-list.repository.ts
// matching) keeps exactly the entries the whole term alone keeps, for the back office and an organization caller alike:
// wildcards, backslash, accents, separators only, strings no person holds, the longest term, on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../db/test-databases.ts';
import { countJournalEntries, type JournalWhere } from '../../../server/features/audit/audit-list.repository.ts';
import { searchable } from '../../../server/features/audit/audit.model.ts';
import { writeAudits } from '../../../server/features/audit/audit.repository.ts';
import type { TestApp } from '../support/test-app.ts';
import { callApi, PERSONAS, startUsersApp, userIdOf, type DemoOrganizations } from '../support/users-api.ts';

const NAMES = ['Élodie Lefèvre-Dubois', 'Remise 100% a_b', 'Chemin C:\\dossier', 'Zoë Œillet', '... @@@ ---', 'xq7 kw9 zzj'];
const TERMS = ['100%', '0%', 'a_b', 'a_', '\\', 'c:\\dos', '...', '@@@', ' - ', 'élodie', 'ELODIE LEFEVRE', 'lefèvre-dubois', 'oeillet', 'œil', 'zoe',
  'xq7 kw9', 'kw9 zzj', 'remise 100% a_b', 'portail.test', 'admin.clinique@portail.test', 'x'.repeat(200), `${'ab'.repeat(99)}`, 'dubois ', 'qqqqq'];

for (const backend of backends) {
  describe(`the journal's narrowed search is the whole term's, on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations;
    let claire: string;
    beforeAll(async () => {
      ({ t, orgs } = await startUsersApp(backend));
      claire = await userIdOf(t, PERSONAS.adminClinique);
      const organizations = [orgs.cliniqueSirets[0]!.id, orgs.ehpadSirets[0]!.id];
      await writeAudits(t.database.handle.db, NAMES.flatMap((name, i) => organizations.map((organizationId) => ({
        actor: { userId: null, email: null, name: 'Système' },
        action: 'user.update' as const,
        entityType: 'user' as const,
        entityId: `0000000${i}-0000-4000-8000-000000000000`,
        organizationIds: [organizationId],
        subject: { name, emails: [`${searchable(name).replace(/\s/g, '.')}@exemple.test`] },
        changes: {},
      }))));
    }, 120_000);
    afterAll(() => t?.close());

    it('answers every term with the total and entries of the whole term checked alone', async () => {
      const db = t.database.handle.db;
      const clinicScope = [orgs.clinique.id, ...orgs.cliniqueSirets.map((o) => o.id)];
      for (const term of TERMS) {
        const search = searchable(term);
        for (const [as, scope] of [[PERSONAS.backoffice, null], [PERSONAS.adminClinique, clinicScope]] as const) {
          const where: JournalWhere = { search, scope: scope && [...scope], reader: { userId: claire, parentIds: [] } };
          const whole = await countJournalEntries(db, where, null);
          const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/audit', query: { search: term, pageSize: 100 } });
          expect(answer.status, term).toBe(200);
          const body = answer.body as { total: number; items: unknown[] };
          expect([body.total, body.items.length], `${as} ${JSON.stringify(term)}`).toEqual([whole, Math.min(whole, 100)]);
        }
      }
    });
  });
}
