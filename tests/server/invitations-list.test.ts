import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { backends } from './db/test-databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';
import { listInvitations } from '../../server/features/invitations/invitations.repository.ts';

for (const backend of backends) {
  describe(`listing and reading invitations on ${backend.name}`, () => {
    let t: TestApp;
    let api: ReturnType<typeof invitationsApi>;
    type Row = { id: number; invitee_email: string; organization_code: string; status: string; created_at: Date };
    let all: Row[];

    beforeAll(async () => {
      t = await startTestApp(backend);
      api = invitationsApi(t);
      all = await t.database.handle.db.selectFrom('invitations').select(['id', 'invitee_email', 'organization_code', 'status', 'created_at']).execute();
    });
    afterAll(async () => {
      await t?.close();
    });

    const ids = (body: { invitations: { id: number }[] }) => body.invitations.map((i) => i.id);
    const byCreatedAtDesc = (a: Row, b: Row) => b.created_at.getTime() - a.created_at.getTime() || b.id - a.id;

    it('answers the first page of every invitation, newest first, with exact totals and both list names', async () => {
      expect(all.length).toBeGreaterThan(30);
      const { status, body } = await api.list('backoffice@portail.test');
      expect(status).toBe(200);
      expect(body).toMatchObject({ totalCount: all.length, total: all.length, page: 1, pageSize: 10, totalPages: Math.ceil(all.length / 10) });
      expect(body.items).toEqual(body.invitations);
      expect(ids(body)).toEqual([...all].sort(byCreatedAtDesc).slice(0, 10).map((r) => r.id));
    });

    it('lets lecteur@portail.test (back office, USER_LIST only) list and read', async () => {
      const list = await api.list('lecteur@portail.test');
      expect(list.status).toBe(200);
      const one = await api.get('lecteur@portail.test', list.body.invitations[0].id);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(list.body.invitations[0]);
    });

    it('refuses the list and the detail to organization users (403), an inactive account (403) and no token (401)', async () => {
      const id = all[0]!.id;
      for (const email of ['admin.clinique@portail.test', 'rh.clinique@portail.test', 'inactif@portail.test']) {
        expect((await api.list(email)).status).toBe(403);
        expect((await api.get(email, id)).status).toBe(403);
      }
      expect((await api.list('inactif@portail.test')).body.message).toBe('Votre compte est désactivé.');
      expect((await api.list(null)).status).toBe(401);
    });

    it('filters by a status list in any case', async () => {
      const pending = all.filter((r) => r.status === 'PENDING').length;
      const decided = all.filter((r) => r.status === 'APPROVED' || r.status === 'REJECTED').length;
      for (const status of ['pending', 'PENDING', 'Pending']) {
        const { body } = await api.list('backoffice@portail.test', `status=${status}&pageSize=100`);
        expect(body.totalCount).toBe(pending);
        expect(body.invitations.every((i: { status: string }) => i.status === 'PENDING')).toBe(true);
      }
      expect((await api.list('backoffice@portail.test', 'status=approved,REJECTED')).body.totalCount).toBe(decided);
      expect((await api.list('backoffice@portail.test', 'status=pending,approved,rejected,expired,cancelled')).body.totalCount).toBe(all.length);
      // The demo has requests of every status.
      expect(new Set(all.map((r) => r.status))).toEqual(new Set(['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED']));
    });

    it('refuses an unknown status with 400 naming query.status', async () => {
      const { status, body } = await api.list('backoffice@portail.test', 'status=pending,archived');
      expect(status).toBe(400);
      expect(body.fieldErrors[0].field).toBe('query.status');
    });

    it('searches the invitee email and the SIREN, case-insensitive, as a substring', async () => {
      const sample = all.find((r) => r.status === 'APPROVED')!;
      const part = sample.invitee_email.split('@')[0]!.slice(1, 6).toUpperCase();
      const byEmail = await api.list('backoffice@portail.test', `search=${encodeURIComponent(part)}&pageSize=100`);
      const expected = all.filter((r) => r.invitee_email.toLowerCase().includes(part.toLowerCase()) || r.organization_code.includes(part.toLowerCase()));
      expect(byEmail.body.totalCount).toBe(expected.length);
      expect(ids(byEmail.body).sort()).toEqual(expected.map((r) => r.id).sort());

      const siren = sample.organization_code.slice(0, 9);
      const bySiren = await api.list('backoffice@portail.test', `search=${siren.slice(2, 8)}&pageSize=100`);
      expect(bySiren.body.totalCount).toBe(all.filter((r) => r.organization_code.includes(siren.slice(2, 8)) || r.invitee_email.includes(siren.slice(2, 8))).length);
      expect(bySiren.body.invitations.map((i: { id: number }) => i.id)).toContain(sample.id);
    });

    it('takes LIKE wildcards in the search literally', async () => {
      expect((await api.list('backoffice@portail.test', 'search=%25')).body.totalCount).toBe(0);
      expect((await api.list('backoffice@portail.test', 'search=_')).body.totalCount).toBe(0);
    });

    it('combines the status filter and the search', async () => {
      const { body } = await api.list('backoffice@portail.test', 'status=rejected&search=%40&pageSize=100');
      expect(body.totalCount).toBe(all.filter((r) => r.status === 'REJECTED').length);
    });

    it('sorts by id and by creation date in both directions, ties broken by id', async () => {
      const asc = [...all].sort((a, b) => a.id - b.id).map((r) => r.id);
      expect(ids((await api.list('backoffice@portail.test', 'sort=id&pageSize=100')).body)).toEqual(asc);
      expect(ids((await api.list('backoffice@portail.test', 'sort=id&order=desc&pageSize=100')).body)).toEqual([...asc].reverse());
      const created = [...all].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id).map((r) => r.id);
      expect(ids((await api.list('backoffice@portail.test', 'sort=createdAt&pageSize=100')).body)).toEqual(created);
      expect(ids((await api.list('backoffice@portail.test', 'sort=createdAt&order=desc&pageSize=100')).body)).toEqual([...created].reverse());
    });

    it('sorts by email, case-insensitive, and pages through the same order without gaps or repeats', async () => {
      const clinique = await organizationByName(t, 'Clinique des Tilleuls');
      const make = async (email: string) =>
        (await api.create('backoffice@portail.test', { inviteeEmail: email, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinique.code, metadata: newPersonMetadata() })).body.id as number;
      const first = await make('AAAA.premier@exemple-test.fr');
      const second = await make('aaab.second@exemple-test.fr');
      const last = await make('zzzz.dernier@exemple-test.fr');
      const whole = ids((await api.list('backoffice@portail.test', 'sort=email&pageSize=100')).body);
      expect(whole.slice(0, 2)).toEqual([first, second]);
      expect(whole.at(-1)).toBe(last);
      const paged: number[] = [];
      for (let page = 1; page <= Math.ceil(whole.length / 7); page += 1) {
        paged.push(...ids((await api.list('backoffice@portail.test', `sort=email&pageSize=7&page=${page}`)).body));
      }
      expect(paged).toEqual(whole);
      expect(ids((await api.list('backoffice@portail.test', 'sort=email&order=desc&pageSize=100')).body)[0]).toBe(last);
    });

    it('answers exact totals on every page and an empty page beyond the last', async () => {
      const total = (await api.list('backoffice@portail.test')).body.totalCount as number;
      const lastPage = Math.ceil(total / 20);
      const last = await api.list('backoffice@portail.test', `pageSize=20&page=${lastPage}`);
      expect(last.body.invitations).toHaveLength(total - (lastPage - 1) * 20);
      expect(last.body).toMatchObject({ totalCount: total, totalPages: lastPage, page: lastPage, pageSize: 20 });
      const beyond = await api.list('backoffice@portail.test', `pageSize=20&page=${lastPage + 1}`);
      expect(beyond.body).toMatchObject({ invitations: [], items: [], totalCount: total, totalPages: lastPage });
    });

    it('refuses a page size over 100 and a page 0', async () => {
      expect((await api.list('backoffice@portail.test', 'pageSize=101')).status).toBe(400);
      expect((await api.list('backoffice@portail.test', 'page=0')).status).toBe(400);
    });

    it('costs the same two statements whatever the page size', async () => {
      let statements = 0;
      const counting: KyselyPlugin = {
        transformQuery: (args) => {
          statements += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const db = t.database.handle.db.withPlugin(counting);
      for (const pageSize of [1, 10, 100]) {
        statements = 0;
        const page = await listInvitations(db, { statuses: [], search: 'e', sort: 'email', order: 'asc', page: 1, pageSize });
        expect(page.rows.length).toBe(Math.min(pageSize, page.total));
        expect(statements).toBe(2);
      }
    });

    it('answers one invitation with every field of the contract, decided or not', async () => {
      const rejected = all.find((r) => r.status === 'REJECTED')!;
      const { status, body } = await api.get('backoffice@portail.test', rejected.id);
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: rejected.id, status: 'REJECTED', inviteeEmail: rejected.invitee_email, organizationCode: rejected.organization_code });
      expect(body.rejectionReason.trim().length).toBeGreaterThanOrEqual(10);
      expect(body.validatorEmail).toBe('backoffice@portail.test');
      expect(new Date(body.processedAt).getTime()).toBeGreaterThan(new Date(body.createdAt).getTime());
      const pending = all.find((r) => r.status === 'PENDING')!;
      expect((await api.get('backoffice@portail.test', pending.id)).body).toMatchObject({ status: 'PENDING', processedAt: null, validatorEmail: null, rejectionReason: null });
    });

    it('answers 404 for an unknown number and 400 for one that is not a number', async () => {
      const missing = await api.get('backoffice@portail.test', 987654321);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('Aucune invitation trouvée.');
      expect((await api.get('backoffice@portail.test', 'abc')).status).toBe(400);
      expect((await api.get('backoffice@portail.test', '99999999999999999999999')).status).toBe(404);
    });

    it('does not list an invitation created for a search it does not match', async () => {
      const email = freshEmail('introuvable');
      const { body } = await api.list('backoffice@portail.test', `search=${email}`);
      expect(body).toMatchObject({ totalCount: 0, totalPages: 0, invitations: [] });
    });
  });
}
