import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { expectMatchesContract } from './support/contract.ts';
import { demoOrganizations, type Organization as Org } from './support/organizations.ts';
import { getAs, getChecked } from './support/requests.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const BY_ID = '/api/v2/organizations/{id}';
const BY_CODE = '/api/v2/organizations/code/{code}';

for (const backend of backends) {
  describe(`GET one organization (by id, by code) on ${backend.name}`, () => {
    let t: TestApp;
    let clinique: Org, cliniqueSirets: Org[], ehpad: Org, ehpadSirets: Org[];
    /** The SIRET rh.clinique holds RESSOURCE_HUMAINE on. */
    let rhSiret: Org;

    beforeAll(async () => {
      t = await startTestApp(backend);
      ({ clinique, cliniqueSirets, ehpad, ehpadSirets } = await demoOrganizations(t));
      const held = await t.database.handle.db
        .selectFrom('role_assignments as ra')
        .innerJoin('users as u', 'u.id', 'ra.user_id')
        .select('ra.organization_id')
        .where('u.email', '=', 'rh.clinique@portail.test')
        .executeTakeFirstOrThrow();
      rhSiret = cliniqueSirets.find((o) => o.id === held.organization_id)!;
    });
    afterAll(async () => {
      await t?.close();
    });

    const byId = (email: string | null, id: string) => getChecked(t, email, BY_ID, `/api/v2/organizations/${id}`);
    const byCode = (email: string | null, code: string) => getChecked(t, email, BY_CODE, `/api/v2/organizations/code/${code}`);

    /** Both lookups answer this organization. */
    async function expectVisible(email: string, org: Org) {
      expect(await byId(email, org.id)).toMatchObject({ status: 200, body: org });
      expect(await byCode(email, org.code)).toMatchObject({ status: 200, body: org });
    }

    /** Both lookups answer 404, with the very body of a missing organization (request id aside). */
    async function expectHidden(email: string, org: Org) {
      const missingById = await byId(email, randomUUID());
      const missingByCode = await byCode(email, '000000000');
      for (const [answer, missing] of [
        [await byId(email, org.id), missingById],
        [await byCode(email, org.code), missingByCode],
      ] as const) {
        expect(answer.status).toBe(404);
        expect({ ...answer.body, requestId: null }).toEqual({ ...missing.body, requestId: null });
      }
    }

    it('answers the back office any SIREN or SIRET, with its parent', async () => {
      await expectVisible('backoffice@portail.test', clinique);
      await expectVisible('backoffice@portail.test', ehpadSirets[2]!);
      expect((await byCode('backoffice@portail.test', ehpadSirets[2]!.code)).body).toMatchObject({ type: 'SIRET', parentId: ehpad.id, parentCode: ehpad.code });
      expect((await byId('backoffice@portail.test', clinique.id)).body).toMatchObject({ type: 'SIREN', parentId: null, parentCode: null });
    });

    it('answers the read-only back office too', async () => {
      await expectVisible('lecteur@portail.test', ehpad);
    });

    it('answers 404 "Organisation introuvable." for an unknown id or code', async () => {
      const unknownId = await byId('backoffice@portail.test', randomUUID());
      expect(unknownId.status).toBe(404);
      expect(unknownId.body).toMatchObject({ error: 'NotFound', message: 'Organisation introuvable.' });
      expect((await byCode('backoffice@portail.test', '99999999999999')).status).toBe(404);
    });

    it('answers admin.clinique its SIREN and every SIRET of it', async () => {
      for (const org of [clinique, ...cliniqueSirets]) await expectVisible('admin.clinique@portail.test', org);
    });

    it('answers admin.clinique 404 for EHPAD Les Glycines and its SIRETs, by id and by code, as if missing', async () => {
      await expectHidden('admin.clinique@portail.test', ehpad);
      await expectHidden('admin.clinique@portail.test', ehpadSirets[0]!);
    });

    it('answers admin.ehpad its own organizations and 404 for the clinic', async () => {
      await expectVisible('admin.ehpad@portail.test', ehpadSirets[1]!);
      await expectHidden('admin.ehpad@portail.test', clinique);
    });

    it('answers rh.clinique (no permission) its one SIRET and its parent SIREN, for display', async () => {
      await expectVisible('rh.clinique@portail.test', rhSiret);
      await expectVisible('rh.clinique@portail.test', clinique);
    });

    it('answers rh.clinique 404 for the sibling SIRETs and for another employer', async () => {
      const sibling = cliniqueSirets.find((o) => o.id !== rhSiret.id)!;
      await expectHidden('rh.clinique@portail.test', sibling);
      await expectHidden('rh.clinique@portail.test', ehpad);
    });

    it('refuses an inactive account (403), even for its own organization', async () => {
      const answer = await byId('inactif@portail.test', ehpad.id);
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe('Votre compte est désactivé.');
      expect((await byCode('inactif@portail.test', ehpad.code)).status).toBe(403);
    });

    it('refuses a call without a token (401)', async () => {
      expect((await byId(null, clinique.id)).status).toBe(401);
      expect((await byCode(null, clinique.code)).status).toBe(401);
    });

    it.each(['not-a-uuid', '12345'])('refuses the id %s (400 naming params.id)', async (id) => {
      const answer = await getAs(t, 'backoffice@portail.test', `/api/v2/organizations/${id}`);
      expect(answer.status).toBe(400);
      expectMatchesContract('GET', BY_ID, 400, answer.body);
      expect(answer.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['params.id']);
    });

    it.each(['12345678', '1234567890', '12345678A', '123456789012345'])('refuses the code %s: neither 9 nor 14 digits (400)', async (code) => {
      const answer = await byCode('backoffice@portail.test', code);
      expect(answer.status).toBe(400);
      expect(answer.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['params.code']);
    });
  });
}
