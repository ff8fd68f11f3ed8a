import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { demoOrganizations, type Organization as Org } from './support/organizations.ts';
import { getChecked } from './support/requests.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const ROUTE = '/api/v2/organizations';

for (const backend of backends) {
  describe(`GET ${ROUTE} on ${backend.name}`, () => {
    let t: TestApp;
    let clinique: Org, cliniqueSirets: Org[], ehpad: Org, ehpadSirets: Org[];
    let counts: { all: number; sirens: number };

    beforeAll(async () => {
      t = await startTestApp(backend);
      const tree = await demoOrganizations(t);
      ({ clinique, cliniqueSirets, ehpad, ehpadSirets } = tree);
      counts = { all: tree.all.length, sirens: tree.all.filter((o) => o.type === 'SIREN').length };
    });
    afterAll(async () => {
      await t?.close();
    });

    const list = (email: string | null, query = '') => getChecked(t, email, ROUTE, `${ROUTE}${query}`);

    /** Every item of every page of a query, as one list. */
    async function everything(email: string, query = '') {
      const items: Org[] = [];
      for (let page = 1; ; page++) {
        const { body } = await list(email, `?pageSize=100&page=${page}${query}`);
        items.push(...body.items);
        if (page >= body.totalPages) return { items, total: body.total as number };
      }
    }

    describe('for the back office', () => {
      it('answers the first page of every organization sorted by code, with exact totals', async () => {
        const { status, body } = await list('backoffice@portail.test');
        expect(status).toBe(200);
        expect(body).toMatchObject({ total: counts.all, totalCount: counts.all, page: 1, pageSize: 20, totalPages: Math.ceil(counts.all / 20) });
        expect(body.items).toHaveLength(20);
        const codes = body.items.map((o: Org) => o.code);
        expect(codes).toEqual([...codes].sort());
      });

      it('answers each organization with its parent: null for a SIREN, the SIREN for a SIRET', async () => {
        const { body } = await list('backoffice@portail.test', `?parentId=${clinique.id}`);
        expect(body.items).toEqual(cliniqueSirets);
        expect(body.items.every((o: Org) => o.parentCode === clinique.code && o.parentId === clinique.id && o.type === 'SIRET')).toBe(true);
        const sirens = await list('backoffice@portail.test', `?type=SIREN&search=${encodeURIComponent(clinique.code)}`);
        expect(sirens.body.items).toEqual([clinique]);
      });

      it('pages without overlap or gap: all pages together are every organization once', async () => {
        const { items, total } = await everything('backoffice@portail.test');
        expect(total).toBe(counts.all);
        expect(new Set(items.map((o) => o.id)).size).toBe(counts.all);
      });

      it('answers an empty page past the last one, with the same exact total', async () => {
        const { body } = await list('backoffice@portail.test', '?page=999&pageSize=50');
        expect(body).toMatchObject({ items: [], total: counts.all, page: 999, pageSize: 50, totalPages: Math.ceil(counts.all / 50) });
      });

      it('takes limit as an alias of pageSize, and limit wins when both are given', async () => {
        expect((await list('backoffice@portail.test', '?limit=7')).body).toMatchObject({ pageSize: 7, totalPages: Math.ceil(counts.all / 7) });
        const both = await list('backoffice@portail.test', '?limit=3&pageSize=50');
        expect(both.body.pageSize).toBe(3);
        expect(both.body.items).toHaveLength(3);
      });

      it('searches names as a case-insensitive substring', async () => {
        const { body } = await list('backoffice@portail.test', '?search=TILLEULS');
        expect(body.total).toBe(1 + cliniqueSirets.length);
        expect(body.items.map((o: Org) => o.id)).toEqual([clinique, ...cliniqueSirets].map((o) => o.id));
        const middle = await list('backoffice@portail.test', '?search=es%20tille');
        expect(middle.body.total).toBe(1 + cliniqueSirets.length);
      });

      it('searches codes by prefix and by substring', async () => {
        const prefix = await list('backoffice@portail.test', `?search=${clinique.code.slice(0, 7)}&pageSize=100`);
        expect(prefix.body.items.map((o: Org) => o.id)).toEqual(expect.arrayContaining([clinique, ...cliniqueSirets].map((o) => o.id)));
        expect(prefix.body.items.every((o: Org) => o.code.includes(clinique.code.slice(0, 7)))).toBe(true);
        const siret = cliniqueSirets[1]!;
        const inner = siret.code.slice(4, 13);
        const substring = await list('backoffice@portail.test', `?search=${inner}`);
        expect(substring.body.items.map((o: Org) => o.id)).toContain(siret.id);
        expect(substring.body.items.every((o: Org) => o.code.includes(inner))).toBe(true);
      });

      it('finds a code typed with spaces', async () => {
        const spaced = `${clinique.code.slice(0, 3)} ${clinique.code.slice(3, 6)} ${clinique.code.slice(6)}`;
        const { body } = await list('backoffice@portail.test', `?type=SIREN&search=${encodeURIComponent(spaced)}`);
        expect(body.items).toEqual([clinique]);
      });

      it('takes the LIKE wildcards % and _ literally', async () => {
        expect((await list('backoffice@portail.test', '?search=%25')).body.total).toBe(0);
        expect((await list('backoffice@portail.test', '?search=_')).body.total).toBe(0);
      });

      it('keeps the SIRETs of a SIREN with parentId, and nothing for a SIRET or an unknown id', async () => {
        expect((await list('backoffice@portail.test', `?parentId=${ehpad.id}`)).body).toMatchObject({ items: ehpadSirets, total: ehpadSirets.length });
        expect((await list('backoffice@portail.test', `?parentId=${ehpadSirets[0]!.id}`)).body.total).toBe(0);
        expect((await list('backoffice@portail.test', `?parentId=${randomUUID()}`)).body.total).toBe(0);
      });

      it('keeps one type, alone or with a search', async () => {
        const sirens = await everything('backoffice@portail.test', '&type=SIREN');
        expect(sirens.total).toBe(counts.sirens);
        expect(sirens.items.every((o) => o.type === 'SIREN')).toBe(true);
        const sirets = await list('backoffice@portail.test', '?type=SIRET&search=tilleuls');
        expect(sirets.body.items).toEqual(cliniqueSirets);
      });

      it('lets the read-only back office (USER_LIST only) see every organization', async () => {
        expect((await list('lecteur@portail.test')).body.total).toBe(counts.all);
      });
    });

    describe('for organization users', () => {
      it('shows an administrator of a SIREN held with inheritance its SIREN and all its SIRETs', async () => {
        const { items, total } = await everything('admin.clinique@portail.test');
        expect(total).toBe(1 + cliniqueSirets.length);
        expect(items).toEqual([clinique, ...cliniqueSirets]);
      });

      it('shows admin.ehpad only EHPAD Les Glycines and its SIRETs', async () => {
        const { items } = await everything('admin.ehpad@portail.test');
        expect(items).toEqual([ehpad, ...ehpadSirets]);
      });

      it('applies the filters within the scope: another SIREN, its SIRETs or its name find nothing', async () => {
        expect((await list('admin.clinique@portail.test', '?search=glycines')).body.total).toBe(0);
        expect((await list('admin.clinique@portail.test', `?search=${ehpad.code}`)).body.total).toBe(0);
        expect((await list('admin.clinique@portail.test', `?parentId=${ehpad.id}`)).body.total).toBe(0);
        expect((await list('admin.clinique@portail.test', `?parentId=${clinique.id}&type=SIRET`)).body.items).toEqual(cliniqueSirets);
        expect((await list('admin.clinique@portail.test', '?type=SIREN')).body.items).toEqual([clinique]);
      });

      it('shows a user holding USER_LIST on one SIRET that SIRET and its parent SIREN, not the sibling SIRETs', async () => {
        const { email } = await fixtures(t.database.handle.db).user({ organizationId: ehpadSirets[1]!.id, roleCode: 'GESTIONNAIRE' });
        const { items } = await everything(email);
        expect(items).toEqual([ehpad, ehpadSirets[1]]);
      });

      it('refuses the list (403) to rh.clinique, which holds none of ORG_LIST, USER_LIST, USER_CREATE', async () => {
        const { status, body } = await list('rh.clinique@portail.test');
        expect(status).toBe(403);
        expect(body).toMatchObject({ error: 'Forbidden', message: 'Permission requise : ORG_LIST ou USER_LIST ou USER_CREATE.' });
      });

      it('refuses an inactive account (403)', async () => {
        const { status, body } = await list('inactif@portail.test');
        expect(status).toBe(403);
        expect(body.message).toBe('Votre compte est désactivé.');
      });
    });

    describe('refuses', () => {
      it('a call without a token (401)', async () => {
        expect((await list(null)).status).toBe(401);
      });

      it.each([
        ['?type=ETABLISSEMENT', 'query.type'],
        ['?pageSize=101', 'query.pageSize'],
        ['?pageSize=0', 'query.pageSize'],
        ['?limit=101', 'query.limit'],
        ['?page=0', 'query.page'],
        ['?parentId=not-a-uuid', 'query.parentId'],
        [`?search=${'x'.repeat(201)}`, 'query.search'],
      ])('a malformed query %s (400 naming %s)', async (query, field) => {
        const { status, body } = await list('backoffice@portail.test', query);
        expect(status).toBe(400);
        expect(body.fieldErrors.map((f: { field: string }) => f.field)).toContain(field);
      });
    });
  });
}
