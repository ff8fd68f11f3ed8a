// GET /api/v2/audit/export (issue 21): the journal as a CSV file a French spreadsheet opens as it is, with the
// journal's rights, scope and filters, every matching entry newest first, each as its sentence; a journal entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { readCsv as readCsvFile } from './support/csv.ts';
import { callApi, createUserAs, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

const HEADERS = ['Date', 'Auteur', 'Action', 'Concerné', 'Organisation', 'Détail', 'Modifications'];

const readCsv = (text: string) => readCsvFile(text, HEADERS);

for (const backend of backends) {
  describe(`exporting the journal on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    const download = async (as: string, query: string) => t.app.inject({ method: 'GET', url: `/api/v2/audit/export?${query}`, headers: { authorization: `Bearer ${await t.tokenFor(as)}` } });

    it("writes a person's entries, newest first, each as the journal's sentence and its changes, and records the export", async () => {
      const created = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { jobTitle: '-Comptable' });
      const id = created.user.id;
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Marc', lastName: "L'Hôte", email: created.user.email, metadata: JSON.stringify({ jobTitle: 'Responsable RH' }) } })).status).toBe(200);
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id } })).status).toBe(200);
      const page = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/audit', query: { userId: id, pageSize: 100 } });

      const answer = await download(PERSONAS.backoffice, `userId=${id}`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="journal-\d{4}-\d{2}-\d{2}\.csv"/);
      const [, ...rows] = readCsv(answer.body);
      // The same entries as the journal's page, in its order, each with its sentence.
      expect(rows.map((r) => r[5])).toEqual(page.body.items.map((e: { sentence: string }) => e.sentence));
      expect(rows.map((r) => r[2])).toEqual(['Désactivation', 'Modification', 'Création']);
      expect(rows.every((r) => r[1] === page.body.items[0].actorName)).toBe(true);
      expect(rows[0]![0]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
      // Each change as 'label : before → after' (a cell starting as a formula would is neutralised: csv.test.ts).
      expect(rows[1]![6]).toContain('Fonction : -Comptable → Responsable RH');

      const recorded = await t.database.handle.db.selectFrom('audit_log').select(['action', 'entity_type', 'entity_id', 'changes']).where('action', '=', 'journal.export').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(recorded).toMatchObject({ entity_type: 'export', entity_id: 'journal', changes: { rows: 3, filters: { userId: id } } });
    });

    it("keeps an employer administrator to their scope: the EHPAD's administrator exports none of the clinic's entries", async () => {
      const created = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!]);
      const clinic = readCsv((await download(PERSONAS.adminClinique, `userId=${created.user.id}`)).body);
      expect(clinic.length).toBeGreaterThan(1);
      const ehpad = readCsv((await download(PERSONAS.adminEhpad, `userId=${created.user.id}`)).body);
      expect(ehpad).toHaveLength(1);
    });

    it('judges the right and the filters before sending anything: 403 without USER_LIST, 400 naming each wrong field', async () => {
      const refused = await download(PERSONAS.rhClinique, '');
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['content-type']).toContain('application/json');
      const bad = await download(PERSONAS.backoffice, 'from=2026-11-30&to=2026-11-01&action=user.nope');
      expect(bad.statusCode).toBe(400);
      expect(bad.headers['content-type']).toContain('application/json');
      expect(bad.json().fieldErrors.map((e: { field: string }) => e.field).sort()).toEqual(['query.action', 'query.to']);
      expect((await t.app.inject({ method: 'GET', url: '/api/v2/audit/export' })).statusCode).toBe(401);
    });
  });
}
