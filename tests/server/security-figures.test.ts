// Attacker review of the request lifecycle's figures (issue 24) and the retention table (issue 23): an employer
// administrator's figures (counts, medians, CSV) count only the requests they made on their organizations, so
// nothing another company does moves them; people outside the back office read no retention settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { freshEmail, invitationsApi } from './support/invitations.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, PERSONAS, startUsersApp, type DemoOrganizations } from './support/users-api.ts';

for (const backend of backends) {
  describe(`the figures and the retention table under attack on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations;
    beforeAll(async () => {
      ({ t, orgs } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());
    const figures = (as: string, days = 90) => callApi(t, { as, method: 'GET', route: '/api/v2/workflows/{workflowId}/figures', params: { workflowId: 'request-lifecycle' }, query: { days } });
    const csv = async (as: string, days = 90) => {
      const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/workflows/{workflowId}/figures/export', params: { workflowId: 'request-lifecycle' }, query: { days } });
      expect(answer.status).toBe(200);
      return String(answer.body).replace(/^.*(Période|période).*$/gm, '');
    };

    it("moves no employer administrator's figures nor their CSV when another company, or a colleague, makes and decides requests", async () => {
      /** The numbers, without the period's moments (now moves). */
      const numbers = async (as: string) => {
        const { from: _from, to: _to, ...rest } = (await figures(as)).body as Record<string, unknown>;
        return rest;
      };
      const seen = async () => ({ clinique: await numbers(PERSONAS.adminClinique), ehpad: await numbers(PERSONAS.adminEhpad), cliniqueCsv: await csv(PERSONAS.adminClinique) });
      const before = await seen();
      const all = (await figures(PERSONAS.backoffice)).body as { started: number };
      const invitations = invitationsApi(t);
      // The other company makes two requests; the back office decides one; a request made by the back office on the clinic.
      const made = [];
      for (const organizationCode of [orgs.ehpadSirets[0]!.code, orgs.ehpadSirets[0]!.code]) {
        const answer = await invitations.create(PERSONAS.adminEhpad, { inviteeEmail: freshEmail('autre'), invitationType: 'ROLE_ASSIGNMENT', organizationCode, roleCode: 'COMPTABLE' });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        made.push((answer.body as { id: number }).id);
      }
      const rejected = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/invitations/{id}/reject', params: { id: made[0]! }, payload: { rejectionReason: 'Dossier incomplet.' } });
      expect(rejected.status).toBe(200);
      const byBackOffice = await invitations.create(PERSONAS.backoffice, { inviteeEmail: freshEmail('bo'), invitationType: 'ROLE_ASSIGNMENT', organizationCode: orgs.cliniqueSirets[0]!.code, roleCode: 'COMPTABLE' });
      expect(byBackOffice.status, JSON.stringify(byBackOffice.body)).toBe(201);

      const after = await seen();
      expect(after.clinique).toEqual(before.clinique);
      expect(after.cliniqueCsv).toEqual(before.cliniqueCsv);
      // The other company's administrator sees their two requests; the back office every one.
      expect((after.ehpad as { started: number }).started).toBe((before.ehpad as { started: number }).started + 2);
      expect(((await figures(PERSONAS.backoffice)).body as { started: number }).started).toBe(all.started + 3);
    });

    it('refuses the figures to a person without USER_CREATE and to an inactive account, and the retention table to anyone outside the back office', async () => {
      for (const as of [PERSONAS.rhClinique, PERSONAS.inactif]) {
        expect((await figures(as)).status, as).toBe(403);
        expect((await callApi(t, { as, method: 'GET', route: '/api/v2/workflows/{workflowId}/figures/export', params: { workflowId: 'request-lifecycle' }, query: { days: 7 } })).status, as).toBe(403);
      }
      for (const as of [PERSONAS.adminClinique, PERSONAS.rhClinique, PERSONAS.adminEhpad, PERSONAS.inactif]) {
        const refused = await callApi(t, { as, method: 'GET', route: '/api/v2/retention' });
        expect(refused.status, as).toBe(403);
        expect(JSON.stringify(refused.body)).not.toMatch(/RETENTION|jours/);
      }
      expect((await callApi(t, { as: PERSONAS.lecteur, method: 'GET', route: '/api/v2/retention' })).status).toBe(200);
    });

    // Attacker review R2: a reactivation now records the warning it ends (statusChangeRecord), which the account
    // figures count from the entry; the other company's administrator's figures do not move, the clinic's count it once.
    it("counts a warning a reactivation ended in the clinic's account figures only, once", async () => {
      const db = t.database.handle.db;
      type Moves = { transitions: { from: string; to: string; count: number | null }[] };
      const accountFigures = async (as: string): Promise<Moves> => {
        const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/workflows/{workflowId}/figures', params: { workflowId: 'account-lifecycle' }, query: { days: 7 } });
        expect(answer.status, as).toBe(200);
        const { from: _from, to: _to, ...rest } = answer.body as Record<string, unknown>;
        return rest as Moves;
      };
      const warnings = (body: Moves) => body.transitions.find((x) => x.from === 'active' && x.to === 'dormantWarned')!.count ?? 0;
      const before = { clinique: await accountFigures(PERSONAS.adminClinique), ehpad: await accountFigures(PERSONAS.adminEhpad), all: await accountFigures(PERSONAS.lecteur) };
      const warned = await fixtures(db).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE', email: freshEmail('averti') });
      await db.updateTable('users').set({ is_active: false, created_at: new Date(Date.now() - 400 * 86_400_000), last_login_at: new Date(Date.now() - 367 * 86_400_000), dormancy_warned_at: new Date(Date.now() - 2 * 86_400_000) }).where('id', '=', warned.id).execute();
      // The row's warning, still on record before the reactivation, counts once for the clinic; none for the EHPAD.
      expect(warnings(await accountFigures(PERSONAS.adminClinique))).toBe(warnings(before.clinique) + 1);
      expect(await accountFigures(PERSONAS.adminEhpad)).toEqual(before.ehpad);
      expect((await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/reactivate', params: { id: warned.id } })).status).toBe(200);
      // Ended by the reactivation: counted from its entry, still once.
      expect(warnings(await accountFigures(PERSONAS.adminClinique))).toBe(warnings(before.clinique) + 1);
      expect(warnings(await accountFigures(PERSONAS.lecteur))).toBe(warnings(before.all) + 1);
      expect(await accountFigures(PERSONAS.adminEhpad)).toEqual(before.ehpad);
    });

    it("refuses the account lifecycle's figures to a back-office account that may not list users (as the Accueil's dormant accounts)", async () => {
      const db = t.database.handle.db;
      const f = fixtures(db);
      const email = freshEmail('bureausansliste');
      const made = await f.user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE', email });
      await db.deleteFrom('role_assignments').where('user_id', '=', made.id).execute();
      await db.updateTable('users').set({ user_type: 'BACKOFFICE' }).where('id', '=', made.id).execute();
      await db.insertInto('user_permissions').values({ user_id: made.id, permission_code: 'ORG_LIST' }).execute();
      const accounts = (as: string, route: '/api/v2/workflows/{workflowId}/figures' | '/api/v2/workflows/{workflowId}/figures/export') =>
        callApi(t, { as, method: 'GET', route, params: { workflowId: 'account-lifecycle' }, query: { days: 7 } });
      for (const route of ['/api/v2/workflows/{workflowId}/figures', '/api/v2/workflows/{workflowId}/figures/export'] as const) {
        const refused = await accounts(email, route);
        expect(refused.status, route).toBe(403);
        expect(JSON.stringify(refused.body)).not.toMatch(/dormantWarned|deactivated/);
        expect((await accounts(PERSONAS.lecteur, route)).status, route).toBe(200);
      }
      // The requests' figures stay the back office's whatever their permissions, as the invitations list.
      expect((await figures(email)).status).toBe(200);
    });
  });
}
