import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from './db/test-databases.ts';
import { StatementCounter } from './support/statement-counter.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, demoOrganizations, PERSONAS, type DemoOrganizations } from './support/users-api.ts';

// Read-only: one seeded database for the whole file.
for (const backend of backends) {
  describe(`GET /api/v2/users on ${backend.name}`, () => {
    let t: TestApp;
    let orgs: DemoOrganizations;
    const counter = new StatementCounter();
    beforeAll(async () => {
      t = await startTestApp(backend, { wrapDatabase: counter.wrap });
      orgs = await demoOrganizations(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    const list = (as: string, query: Record<string, string | number | boolean | undefined> = {}) =>
      callApi(t, { as, method: 'GET', route: '/api/v2/users', query });
    const emails = (body: { items: { email: string }[] }) => body.items.map((u) => u.email);
    const db = () => t.database.handle.db;
    const count = async (where: ReturnType<typeof sql<boolean>>) =>
      Number((await sql<{ n: number }>`select count(*) as n from users where ${where}`.execute(db())).rows[0]!.n);

    it('answers the first page of active users by name, with the exact total', async () => {
      const { status, body } = await list(PERSONAS.backoffice);
      expect(status).toBe(200);
      const active = await count(sql`is_active`);
      expect(body).toMatchObject({ total: active, totalCount: active, page: 1, pageSize: 10, totalPages: Math.ceil(active / 10) });
      const expected = await sql<{ id: string }>`select id from users where is_active order by lower(last_name || first_name), id limit 10`.execute(db());
      expect(body.items.map((u: { id: string }) => u.id)).toEqual(expected.rows.map((r) => r.id));
      expect(body.items.every((u: { isActive: boolean }) => u.isActive)).toBe(true);
    });

    it('pages through a filtered list without repeating or losing anyone, ties broken by id', async () => {
      const all = await list(PERSONAS.backoffice, { organizationId: orgs.clinique.id, includeInactive: true, pageSize: 100, sort: 'lastLogin' });
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(all.body.total / 3); page += 1) {
        const { body } = await list(PERSONAS.backoffice, { organizationId: orgs.clinique.id, includeInactive: true, pageSize: 3, page, sort: 'lastLogin' });
        seen.push(...body.items.map((u: { id: string }) => u.id));
      }
      expect(seen).toEqual(all.body.items.map((u: { id: string }) => u.id));
      expect(new Set(seen).size).toBe(all.body.total);
    });

    it('answers an empty page past the end with the same total', async () => {
      const { body } = await list(PERSONAS.backoffice, { page: 1000 });
      expect(body.items).toEqual([]);
      expect(body.total).toBeGreaterThan(0);
      expect(body.page).toBe(1000);
    });

    it('finds by a case-insensitive substring of the full name or of the email', async () => {
      expect(emails((await list(PERSONAS.backoffice, { search: 'CLAIRE vass' })).body)).toEqual(['admin.clinique@portail.test']);
      expect(emails((await list(PERSONAS.backoffice, { search: 'ADMIN.CLIN' })).body)).toEqual(['admin.clinique@portail.test']);
      expect(emails((await list(PERSONAS.backoffice, { search: '  vasseur  ' })).body)).toEqual(['admin.clinique@portail.test']);
    });

    it('takes % and _ in the search literally', async () => {
      expect((await list(PERSONAS.backoffice, { search: '%' })).body.total).toBe(0);
      expect((await list(PERSONAS.backoffice, { search: 'admin_clinique' })).body.total).toBe(0);
    });

    it('leaves inactive users out unless includeInactive is true', async () => {
      const without = await list(PERSONAS.backoffice, { search: 'inactif' });
      expect(without.body.total).toBe(0);
      const withInactive = await list(PERSONAS.backoffice, { search: 'inactif', includeInactive: true });
      expect(emails(withInactive.body)).toEqual(['inactif@portail.test']);
      expect(withInactive.body.items[0].isActive).toBe(false);
      expect((await list(PERSONAS.backoffice, { includeInactive: true })).body.total).toBe(await count(sql`true`));
    });

    it('keeps, for a SIREN, the users holding a role on it or on any of its SIRETs', async () => {
      const { body } = await list(PERSONAS.backoffice, { organizationId: orgs.clinique.id, pageSize: 100 });
      expect(emails(body)).toEqual(expect.arrayContaining(['admin.clinique@portail.test', 'rh.clinique@portail.test']));
      expect(emails(body)).not.toContain('admin.ehpad@portail.test');
      const ids = [orgs.clinique.id, ...orgs.cliniqueSirets.map((s) => s.id)];
      const expected = await sql<{ n: number }>`select count(distinct u.id) as n from users u join role_assignments ra on ra.user_id = u.id
        where u.is_active and ra.organization_id in (${sql.join(ids)})`.execute(db());
      expect(body.total).toBe(Number(expected.rows[0]!.n));
    });

    it('keeps, for a SIRET, its users and those of its SIREN held with inheritsToChildren', async () => {
      const rh = await t.database.handle.db
        .selectFrom('role_assignments as ra')
        .innerJoin('users as u', 'u.id', 'ra.user_id')
        .select('ra.organization_id')
        .where('u.email', '=', PERSONAS.rhClinique)
        .executeTakeFirstOrThrow();
      const { body } = await list(PERSONAS.backoffice, { organizationId: rh.organization_id, pageSize: 100 });
      expect(emails(body)).toEqual(expect.arrayContaining([PERSONAS.rhClinique, PERSONAS.adminClinique]));
      const other = orgs.cliniqueSirets.find((s) => s.id !== rh.organization_id)!;
      const onOther = await list(PERSONAS.backoffice, { organizationId: other.id, pageSize: 100 });
      expect(emails(onOther.body)).not.toContain(PERSONAS.rhClinique);
      expect(emails(onOther.body)).toContain(PERSONAS.adminClinique);
    });

    it('keeps the holders of a role, on the same assignment as the organization filter (ORG_ADMIN reads ADMIN_ADHERENT)', async () => {
      const admins = await list(PERSONAS.backoffice, { organizationId: orgs.clinique.id, roleCode: 'ADMIN_ADHERENT' });
      expect(emails(admins.body)).toContain(PERSONAS.adminClinique);
      expect(emails(admins.body)).not.toContain(PERSONAS.rhClinique);
      expect(admins.body.items.every((u: { roles: string[] }) => u.roles.includes('ADMIN_ADHERENT'))).toBe(true);
      const alias = await list(PERSONAS.backoffice, { organizationId: orgs.clinique.id, roleCode: 'ORG_ADMIN' });
      expect(emails(alias.body)).toEqual(emails(admins.body));
      expect((await list(PERSONAS.backoffice, { roleCode: 'NO_SUCH_ROLE' })).body.total).toBe(0);
    });

    it('sorts by email and by last login in both orders, a null last login last', async () => {
      const byEmail = emails((await list(PERSONAS.backoffice, { sort: 'email', order: 'desc', pageSize: 100, includeInactive: true })).body);
      const expected = await sql<{ email: string }>`select email from users order by lower(email) desc, id desc limit 100`.execute(db());
      expect(byEmail).toEqual(expected.rows.map((r) => r.email));
      for (const order of ['asc', 'desc'] as const) {
        const total = await count(sql`true`);
        const { body } = await list(PERSONAS.backoffice, { sort: 'lastLogin', order, pageSize: 100, page: Math.ceil(total / 100), includeInactive: true });
        const logins = body.items.map((u: { lastLoginAt: string | null }) => u.lastLoginAt);
        expect(logins.at(-1)).toBeNull();
        const first = (await list(PERSONAS.backoffice, { sort: 'lastLogin', order, pageSize: 5 })).body.items.map((u: { lastLoginAt: string }) => Date.parse(u.lastLoginAt));
        expect(first).toEqual([...first].sort((a, b) => (order === 'asc' ? a - b : b - a)));
      }
    });

    it('answers each user with their roles and organizations', async () => {
      const { body } = await list(PERSONAS.backoffice, { search: 'admin.clinique' });
      expect(body.items[0]).toMatchObject({
        email: PERSONAS.adminClinique,
        roles: ['ADMIN_ADHERENT'],
        userType: 'ORGANIZATION',
        organizations: [{ id: orgs.clinique.id, type: 'SIREN', inheritsToChildren: true, role: { code: 'ADMIN_ADHERENT', permissions: [{ code: 'ORG_LIST' }, { code: 'USER_CREATE' }, { code: 'USER_LIST' }] } }],
      });
    });

    it("reads a page's users with their assignments in one statement: the rate limit's hit, the caller, the total, the page; a search kept, its page alone", async () => {
      const page = await list(PERSONAS.backoffice, { includeInactive: true });
      expect(page.body.items.some((u: { organizations: unknown[] }) => u.organizations.length > 0)).toBe(true);
      expect(await counter.during(() => list(PERSONAS.backoffice, { includeInactive: true }))).toBe(4);
      await list(PERSONAS.backoffice, { search: 'vasseur' });
      const again = await list(PERSONAS.backoffice, { search: 'vasseur' });
      expect(again.body.items[0].organizations).toHaveLength(1);
      expect(await counter.during(() => list(PERSONAS.backoffice, { search: 'vasseur' }))).toBe(3);
    });

    it('lets a read-only back-office user list everyone', async () => {
      const { status, body } = await list(PERSONAS.lecteur);
      expect(status).toBe(200);
      expect(body.total).toBe(await count(sql`is_active`));
    });

    it('refuses a user without USER_LIST (403) and an inactive account (403)', async () => {
      const rh = await list(PERSONAS.rhClinique);
      expect(rh.status).toBe(403);
      expect(rh.body.message).toBe('Permission requise : USER_LIST.');
      const inactive = await list(PERSONAS.inactif);
      expect(inactive.status).toBe(403);
      expect(inactive.body.message).toBe('Votre compte est désactivé.');
    });

    it("shows an employer administrator only their organizations' users, and only those assignments", async () => {
      const { body } = await list(PERSONAS.adminClinique, { pageSize: 100, includeInactive: true });
      const backOffice = await list(PERSONAS.backoffice, { organizationId: orgs.clinique.id, pageSize: 100, includeInactive: true });
      expect(body.total).toBe(backOffice.body.total);
      const reach = new Set([orgs.clinique.id, ...orgs.cliniqueSirets.map((s) => s.id)]);
      for (const user of body.items) {
        expect(user.organizations.length).toBeGreaterThan(0);
        expect(user.organizations.every((o: { id: string }) => reach.has(o.id))).toBe(true);
      }
      expect(emails(body)).not.toContain(PERSONAS.adminEhpad);
      expect(emails((await list(PERSONAS.adminEhpad, { pageSize: 100 })).body)).not.toContain(PERSONAS.adminClinique);
    });

    it('answers 404 for a filter organization out of reach or unknown, as for a missing one', async () => {
      const outside = await list(PERSONAS.adminClinique, { organizationId: orgs.ehpad.id });
      expect(outside.status).toBe(404);
      const missing = await list(PERSONAS.adminClinique, { organizationId: '00000000-0000-4000-8000-000000000000' });
      expect(missing.status).toBe(404);
      expect(outside.body.message).toBe(missing.body.message);
      expect((await list(PERSONAS.backoffice, { organizationId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    });

    it('refuses a malformed query with the parameter named', async () => {
      const { status, body } = await list(PERSONAS.backoffice, { pageSize: 500 });
      expect(status).toBe(400);
      expect(body.fieldErrors[0].field).toBe('query.pageSize');
    });

    it('runs as many statements for a page of 100 as for a page of 5', async () => {
      for (const as of [PERSONAS.backoffice, PERSONAS.adminClinique]) {
        const small = await counter.during(() => list(as, { pageSize: 5, includeInactive: true }));
        const large = await counter.during(() => list(as, { pageSize: 100, includeInactive: true }));
        expect(small).toBeGreaterThanOrEqual(4); // actor, count, page, assignments at least: the counter counts
        expect(large).toBe(small);
        expect(large).toBeLessThanOrEqual(8);
      }
    });
  });
}
