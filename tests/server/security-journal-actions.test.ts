// Attacker review of the journal's actions copied beside organizations (issue 21, migration 0028): an employer
// administrator filtering their journal by action gets the same pages and totals, entry for entry, before the
// copy is filled in (read from the entries), and once it is (read from the copy alone); nothing outside their scope.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOrganizationActionsJob } from '../../server/jobs/audit-organization-actions.ts';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, startUsersApp, type DemoOrganizations } from './support/users-api.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

for (const backend of backends) {
  describe(`the journal filtered by action, before and after the actions' copy, on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations;
    const db = () => t.database.handle.db;
    beforeAll(async () => {
      let roles: Record<string, number>;
      ({ t, orgs, roles } = await startUsersApp(backend));
      // Entries of both companies, some concerning two SIRETs of one (two rows for one entry).
      for (let i = 0; i < 7; i++) {
        const codes = i % 3 === 2 ? orgs.cliniqueSirets.slice(0, 2).map((o) => o.code) : [orgs.cliniqueSirets[i % 2]!.code];
        const created = await createUserAs(t, PERSONAS.adminClinique, codes, [roles.COMPTABLE!]);
        if (i % 2 === 0) expect((await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: created.user.id } })).status).toBe(200);
      }
      for (let i = 0; i < 4; i++) await createUserAs(t, PERSONAS.adminEhpad, [orgs.ehpadSirets[0]!.code], [roles.COMPTABLE!]);
      // As written before migration 0028: no action beside the organizations, the copy's bound at the newest entry.
      await sql`update audit_log_organizations set action = null`.execute(db());
      await sql`update audit_backfills set done_through = 0, upto = (select coalesce(max(audit_id), 0) from audit_log_organizations) where name = 'organization_action'`.execute(db());
    });
    afterAll(() => t?.close());

    type Page = { items: { id: number; action: string; organizationId: string | null }[]; total: number };
    /** Every page of 5 of each filter, as the persona reads them. */
    const journals = async () => {
      const answers: Record<string, { total: number; ids: number[]; actions: string[] }> = {};
      const filters = [
        [PERSONAS.adminClinique, { action: 'user.create' }],
        [PERSONAS.adminClinique, { action: 'user.update,user.deactivate,invitation.create' }],
        [PERSONAS.adminEhpad, { action: 'user.create,user.roles' }],
        [PERSONAS.backoffice, { action: 'user.create', organizationId: orgs.clinique.id }],
      ] as const;
      for (const [as, query] of filters) {
        const ids: number[] = [];
        const actions: string[] = [];
        let total: number | undefined;
        for (let page = 1; ; page++) {
          const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/audit', query: { ...query, page, pageSize: 5 } });
          expect(answer.status).toBe(200);
          const body = answer.body as Page;
          total = body.total;
          ids.push(...body.items.map((e) => e.id));
          actions.push(...body.items.map((e) => e.action));
          if (body.items.length < 5) break;
        }
        answers[`${as} ${JSON.stringify(query)}`] = { total: total ?? 0, ids, actions };
      }
      return answers;
    };

    it('answers the same pages and totals while the copy is missing and once it is whole, with only the actions asked for', async () => {
      expect(Number((await sql<{ n: number }>`select count(*)::int as n from audit_log_organizations where action is null`.execute(db())).rows[0]!.n)).toBeGreaterThan(0);
      const before = await journals();
      for (const [key, answer] of Object.entries(before)) {
        expect(answer.ids.length, key).toBe(answer.total);
        const asked = JSON.parse(key.slice(key.indexOf(' ') + 1)).action.split(',');
        expect(answer.actions.every((a) => asked.includes(a)), key).toBe(true);
      }
      expect(before[`${PERSONAS.adminClinique} {"action":"user.create"}`]!.total).toBeGreaterThan(0);

      const job = auditOrganizationActionsJob({ db: db(), batchSize: 50 });
      for (let i = 0; i < 100; i++) {
        const done = (await job.run({ now: new Date(), signal: new AbortController().signal, log: silent })) as { remaining: number };
        if (done.remaining === 0) break;
      }
      expect(Number((await sql<{ n: number }>`select count(*)::int as n from audit_log_organizations where action is null`.execute(db())).rows[0]!.n)).toBe(0);
      expect(await journals()).toEqual(before);
    });
  });
}
