// listUsers as the assign-existing screen uses it: excludeSelf, and each item's hasPendingInvitation (spec §2, §5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Compilable } from 'kysely';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { StatementCounter } from './support/statement-counter.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, demoOrganizations, PERSONAS, type DemoOrganizations } from './support/users-api.ts';
import { pendingInvitationFor } from '../../server/features/users/users-read.repository.ts';

type Item = { id: string; email: string; hasPendingInvitation: boolean };

for (const backend of backends) {
  describe(`GET /api/v2/users for the assign-existing screen on ${backend.name}`, () => {
    let t: TestApp;
    let orgs: DemoOrganizations;
    const counter = new StatementCounter();
    beforeAll(async () => {
      // Without the API rate limit: its one statement per request (server/plugins/rate-limit.ts, counted across
      // nodes in the database) is not the list's, which is what this file counts.
      t = await startTestApp(backend, { wrapDatabase: counter.wrap, env: { API_RATE_LIMIT_PER_MINUTE: '0' } });
      orgs = await demoOrganizations(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.database.handle.db;
    const make = () => fixtures(db());
    const list = (as: string, query: Record<string, string | number | boolean | undefined> = {}) => callApi(t, { as, method: 'GET', route: '/api/v2/users', query });
    /** The user with this email as `as` lists them (searched by email), or undefined when not listed. */
    const listedAs = async (as: string, email: string): Promise<Item | undefined> => {
      const { status, body } = await list(as, { search: email });
      expect(status).toBe(200);
      return (body.items as Item[]).find((u) => u.email === email);
    };
    const activeUsers = async () => Number((await sql<{ n: number }>`select count(*) as n from users where is_active`.execute(db())).rows[0]!.n);
    // processed_at from the database's clock, as the server does: the Node clock may run behind created_at.
    const decide = (id: number, status: 'APPROVED' | 'REJECTED') =>
      db()
        .updateTable('invitations')
        .set({ status, processed_at: sql`now()`, validator_email: PERSONAS.backoffice, rejection_reason: status === 'REJECTED' ? 'Dossier incomplet pour cette demande' : null })
        .where('id', '=', id)
        .execute();

    describe('excludeSelf', () => {
      it('leaves the back-office caller out of the items and of the exact total', async () => {
        const all = await list(PERSONAS.backoffice, { pageSize: 100, page: 1 });
        const without = await list(PERSONAS.backoffice, { excludeSelf: true, pageSize: 10 });
        const active = await activeUsers();
        expect(all.body.total).toBe(active);
        expect(without.body).toMatchObject({ total: active - 1, totalCount: active - 1, totalPages: Math.ceil((active - 1) / 10) });
        expect(await listedAs(PERSONAS.backoffice, PERSONAS.backoffice)).toBeDefined();
        const searched = await list(PERSONAS.backoffice, { search: PERSONAS.backoffice, excludeSelf: true });
        expect(searched.body).toMatchObject({ total: 0, items: [] });
      });

      it('pages through an employer administrator’s list without them, nobody repeated or lost', async () => {
        const full = await list(PERSONAS.adminClinique, { pageSize: 100 });
        const expected = (full.body.items as Item[]).map((u) => u.id).filter((id) => id !== full.body.items.find((u: Item) => u.email === PERSONAS.adminClinique)?.id);
        expect(full.body.items.some((u: Item) => u.email === PERSONAS.adminClinique)).toBe(true);
        const seen: string[] = [];
        for (let page = 1; ; page += 1) {
          const { body } = await list(PERSONAS.adminClinique, { excludeSelf: true, pageSize: 7, page });
          expect(body.total).toBe(full.body.total - 1);
          if (body.items.length === 0) break;
          seen.push(...body.items.map((u: Item) => u.id));
        }
        expect(seen).toEqual(expected);
      });

      it('refuses a value other than a boolean, naming the parameter', async () => {
        const { status, body } = await list(PERSONAS.backoffice, { excludeSelf: 'perhaps' });
        expect(status).toBe(400);
        expect(body.fieldErrors[0].field).toBe('query.excludeSelf');
      });
    });

    describe('hasPendingInvitation', () => {
      it('is true for a user with a pending request, whatever the case of the invitation’s email, and false otherwise', async () => {
        const f = make();
        const [siret] = await f.siretsOf(orgs.clinique.id);
        const withRequest = await f.user({ organizationId: siret!.id, roleCode: 'COMPTABLE' });
        const without = await f.user({ organizationId: siret!.id, roleCode: 'COMPTABLE' });
        await f.pendingInvitation({ sirenId: orgs.clinique.id, inviteeEmail: withRequest.email.toUpperCase(), type: 'ROLE_ASSIGNMENT' });
        expect(await listedAs(PERSONAS.backoffice, withRequest.email)).toMatchObject({ hasPendingInvitation: true });
        expect(await listedAs(PERSONAS.backoffice, without.email)).toMatchObject({ hasPendingInvitation: false });
        expect(await listedAs(PERSONAS.adminClinique, withRequest.email)).toMatchObject({ hasPendingInvitation: true });
        expect(await listedAs(PERSONAS.adminClinique, without.email)).toMatchObject({ hasPendingInvitation: false });
      });

      it('counts only pending requests: an approved or a rejected one is no longer in the way', async () => {
        const f = make();
        const [siret] = await f.siretsOf(orgs.clinique.id);
        const user = await f.user({ organizationId: siret!.id, roleCode: 'COMPTABLE' });
        const first = await f.pendingInvitation({ sirenId: orgs.clinique.id, inviteeEmail: user.email });
        expect(await listedAs(PERSONAS.backoffice, user.email)).toMatchObject({ hasPendingInvitation: true });
        await decide(first.id, 'REJECTED');
        expect(await listedAs(PERSONAS.backoffice, user.email)).toMatchObject({ hasPendingInvitation: false });
        const second = await f.pendingInvitation({ sirenId: orgs.clinique.id, inviteeEmail: user.email });
        await decide(second.id, 'APPROVED');
        expect(await listedAs(PERSONAS.backoffice, user.email)).toMatchObject({ hasPendingInvitation: false });
      });

      it('tells an employer administrator only of requests on organizations of their scope; the back office sees every one', async () => {
        const f = make();
        const [cliniqueSiret] = await f.siretsOf(orgs.clinique.id);
        const user = await f.user({ organizationId: cliniqueSiret!.id, roleCode: 'COMPTABLE' });
        // The same person is also asked as administrator of another employer.
        await f.pendingInvitation({ sirenId: orgs.ehpad.id, inviteeEmail: user.email });
        expect(await listedAs(PERSONAS.backoffice, user.email)).toMatchObject({ hasPendingInvitation: true });
        expect(await listedAs(PERSONAS.adminClinique, user.email)).toMatchObject({ hasPendingInvitation: false });
        // A request on an establishment of the clinic is within the administrator's scope.
        await f.pendingInvitation({ sirenId: cliniqueSiret!.id, roleCode: 'COMPTABLE', type: 'ROLE_ASSIGNMENT', inviteeEmail: user.email });
        expect(await listedAs(PERSONAS.adminClinique, user.email)).toMatchObject({ hasPendingInvitation: true });
      });

      it('does not count a request on the parent SIREN of an establishment the caller only holds', async () => {
        const f = make();
        const [first, second] = await f.siretsOf(orgs.clinique.id);
        // GESTIONNAIRE gives USER_LIST, on one establishment, without the SIREN.
        const manager = await f.user({ organizationId: first!.id, roleCode: 'GESTIONNAIRE' });
        const colleague = await f.user({ organizationId: first!.id, roleCode: 'COMPTABLE' });
        await f.pendingInvitation({ sirenId: orgs.clinique.id, inviteeEmail: colleague.email });
        expect(await listedAs(manager.email, colleague.email)).toMatchObject({ hasPendingInvitation: false });
        await f.pendingInvitation({ sirenId: second!.id, roleCode: 'COMPTABLE', type: 'ROLE_ASSIGNMENT', inviteeEmail: colleague.email });
        expect(await listedAs(manager.email, colleague.email)).toMatchObject({ hasPendingInvitation: false });
        await f.pendingInvitation({ sirenId: first!.id, roleCode: 'COMPTABLE', type: 'ROLE_ASSIGNMENT', inviteeEmail: colleague.email });
        expect(await listedAs(manager.email, colleague.email)).toMatchObject({ hasPendingInvitation: true });
      });

      it('matches the seeded pending invitations of existing users exactly, for a whole page', async () => {
        const { body } = await list(PERSONAS.backoffice, { pageSize: 100, includeInactive: true });
        const pending = await sql<{ email: string }>`select distinct lower(invitee_email) as email from invitations where status = 'PENDING'`.execute(db());
        const emails = new Set(pending.rows.map((r) => r.email));
        for (const user of body.items as Item[]) expect(user.hasPendingInvitation, user.email).toBe(emails.has(user.email.toLowerCase()));
        expect((body.items as Item[]).some((u) => u.hasPendingInvitation)).toBe(true);
      });
    });

    it('adds no statement: the flags are read with the page, as many statements for 100 users as for 5', async () => {
      // The actor (one statement whoever calls: see loadActor), then count, and the page with its assignments.
      for (const as of [PERSONAS.backoffice, PERSONAS.adminClinique]) {
        const small = await counter.during(() => list(as, { pageSize: 5, excludeSelf: true }));
        const large = await counter.during(() => list(as, { pageSize: 100, excludeSelf: true }));
        expect(small).toBe(1 + 2);
        expect(large).toBe(small);
      }
    });

    it('finds pending requests through an index of the invitations, not by reading them all', async () => {
      for (const reach of [null, new Set([orgs.clinique.id])]) {
        const query: Compilable = db()
          .selectFrom('users')
          .select((eb) => pendingInvitationFor(eb, reach).as('pending'))
          .where('users.email', '=', PERSONAS.adminClinique);
        const { sql: text, parameters } = query.compile();
        const plan = await t.database.handle.withRawTransaction(async (tx) => {
          await tx.exec('set local enable_seqscan = off');
          const rows = await tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, parameters);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        expect(plan).toMatch(/invitations_one_pending_key|invitations_invitee_email_idx/);
        expect(plan).not.toMatch(/Seq Scan on invitations/);
      }
    });
  });
}
