// A second reader's attacks on the search within a role (issue 20, migration 0040: commits 6a65cab, eb48167), through
// the real API (GET /api/v2/users with search and roleCode, and its export) as another company's administrator, the
// read-only back office, a back-office account holding an organization role, a person holding roles in two companies,
// an inactive account. Settled here: no caller learns through a total or a page of users outside their reach, nor of
// who holds a role elsewhere; totals and pages kept for one caller, role or inactive flag are never served to another;
// a grant, a removal or a deactivation shows at the next request; a role code that is unknown, lower-case, the alias
// ORG_ADMIN or an INTERNAL role answers as the list's own way (the old filter, read with the roles' backfill marked
// not through) does; nothing is injected through roleCode or search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { send } from './support/api.ts';
import { callApi, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

/** Made here: every one of them holds the word 'zorvath' in their name or address (nobody in the demo data does). */
const MADE = {
  clinicOnly: 'quenotte.zorvath@exemple-test.fr',
  twoCompanies: 'deux.zorvath@exemple-test.fr',
  dormant: 'dormant.zorvath@exemple-test.fr',
  bureau: 'bureau.zorvath@exemple-test.fr',
  opco: 'opco.zorvath@exemple-test.fr',
} as const;

type Query = Record<string, string | number | boolean | undefined>;

for (const backend of backends) {
  describe(`attacks on the search within a role on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const db = () => t.database.handle.db;

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { env: { API_RATE_LIMIT_PER_MINUTE: '0' } }));
      const f = fixtures(db());
      const clinicSiret = orgs.cliniqueSirets[0]!.id;
      const named = async (email: string, first: string, last: string, organizationId: string, roleCode: string, options: { active?: boolean; inherits?: boolean } = {}) => {
        const { id } = await f.user({ organizationId, roleCode, email, ...options });
        await db().updateTable('users').set({ first_name: first, last_name: last }).where('id', '=', id).execute();
        return id;
      };
      await named(MADE.clinicOnly, 'Quenotte', 'Zorvath', clinicSiret, 'COMPTABLE');
      // Administrator of the EHPAD (inherited) who also holds COMPTABLE on the clinic's establishment.
      const two = await named(MADE.twoCompanies, 'Deux', 'Zorvath', orgs.ehpad.id, 'ADMIN_ADHERENT', { inherits: true });
      await db().insertInto('role_assignments').values({ user_id: two, organization_id: clinicSiret, role_id: roles.COMPTABLE!, inherits_to_children: false }).execute();
      await named(MADE.dormant, 'Dormant', 'Zorvath', clinicSiret, 'COMPTABLE', { active: false });
      // A read-only back-office account given ADMIN_ADHERENT on the clinic's SIREN directly in the database.
      const bureau = await named(MADE.bureau, 'Bureau', 'Zorvath', orgs.clinique.id, 'ADMIN_ADHERENT', { inherits: true });
      await db().updateTable('users').set({ user_type: 'BACKOFFICE' }).where('id', '=', bureau).execute();
      await db().insertInto('user_permissions').values({ user_id: bureau, permission_code: 'USER_LIST' }).execute();
      // An INTERNAL role.
      await named(MADE.opco, 'Opco', 'Zorvath', clinicSiret, 'ADMIN_OPCO');
      const { rows } = await sql<{ done: boolean }>`select done from user_search_roles_backfill`.execute(db());
      expect(rows[0]?.done, 'the roles are on the search rows: a search within a role is found as a search alone').toBe(true);
    }, 60_000);
    afterAll(() => t?.close());

    /** The list as `as` sees it: its status, total and the addresses of its page. */
    async function list(as: string, query: Query) {
      const { status, body } = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query });
      if (status !== 200) return { status, total: -1, emails: [] as string[] };
      expect(body.totalCount).toBe(body.total);
      return { status, total: body.total as number, emails: (body.items as { email: string }[]).map((u) => u.email) };
    }
    const zorvath = async (as: string, query: Query) => {
      const found = await list(as, { pageSize: 100, ...query });
      expect(found.status, JSON.stringify(query)).toBe(200);
      return [...found.emails].sort();
    };
    const sorted = (...emails: string[]) => [...emails].sort();

    /** `read` as the list's own way (the old filter): with the roles' backfill marked not through, no search within a role is a search alone. */
    async function theOldWay<T>(read: () => Promise<T>): Promise<T> {
      await sql`update user_search_roles_backfill set done = false`.execute(db());
      try {
        return await read();
      } finally {
        await sql`update user_search_roles_backfill set done = true`.execute(db());
      }
    }

    it("never shows another company's administrator, through a total or a page, a holder outside their reach or a role held elsewhere", async () => {
      const terms = ['zorvath', 'zor', 'orvat', 'ZORVATH', 'zorvath@exemple-test.fr', 'deux.zorvath@exemple-test.fr', '@exemple-test'];
      for (let round = 0; round < 2; round++) {
        for (const search of terms) {
          const q = (roleCode: string) => ({ search, roleCode, includeInactive: true });
          const label = (who: string, roleCode: string) => `${who} ${search} ${roleCode} round ${round}`;
          // The back office first, filling what the process keeps, then the companies' administrators, then the back office again.
          const wide = await zorvath(PERSONAS.backoffice, q('COMPTABLE'));
          if (search === 'zorvath' || search === 'zor' || search === 'orvat' || search === 'ZORVATH') {
            expect(wide, label('backoffice', 'COMPTABLE')).toEqual(sorted(MADE.clinicOnly, MADE.twoCompanies, MADE.dormant));
          }
          const ehpadComptable = await zorvath(PERSONAS.adminEhpad, q('COMPTABLE'));
          // The person of two companies holds COMPTABLE on the clinic only: the EHPAD's administrator must not learn it.
          expect(ehpadComptable, label('adminEhpad', 'COMPTABLE')).toEqual([]);
          const ehpadAdmins = await zorvath(PERSONAS.adminEhpad, q('ADMIN_ADHERENT'));
          expect(ehpadAdmins.filter((e) => e !== MADE.twoCompanies), label('adminEhpad', 'ADMIN_ADHERENT')).toEqual([]);
          expect((await list(PERSONAS.adminEhpad, { ...q('COMPTABLE'), pageSize: 1, page: 1 })).total, label('adminEhpad total', 'COMPTABLE')).toBe(0);
          expect(await zorvath(PERSONAS.adminEhpad, q('ADMIN_OPCO')), label('adminEhpad', 'ADMIN_OPCO')).toEqual([]);
          // The clinic's administrator: never the back-office account, whatever role it holds on the clinic.
          const clinicAdmins = await zorvath(PERSONAS.adminClinique, q('ADMIN_ADHERENT'));
          expect(clinicAdmins, label('adminClinique', 'ADMIN_ADHERENT')).toEqual([]);
          expect(await zorvath(PERSONAS.adminClinique, q('ORG_ADMIN')), label('adminClinique', 'ORG_ADMIN')).toEqual([]);
          const clinicComptable = await zorvath(PERSONAS.adminClinique, q('COMPTABLE'));
          expect(clinicComptable, label('adminClinique', 'COMPTABLE')).toEqual(wide.filter((e) => e !== MADE.bureau && e !== MADE.opco));
          expect(await zorvath(PERSONAS.backoffice, q('COMPTABLE')), label('backoffice again', 'COMPTABLE')).toEqual(wide);
        }
      }
      // Page by page (one a page): the organization callers' totals and pages never reach past their own.
      for (const page of [1, 2, 3, 4]) {
        const ehpad = await list(PERSONAS.adminEhpad, { search: 'zorvath', roleCode: 'COMPTABLE', includeInactive: true, pageSize: 1, page });
        expect(ehpad).toEqual({ status: 200, total: 0, emails: [] });
        const office = await list(PERSONAS.backoffice, { search: 'zorvath', roleCode: 'COMPTABLE', includeInactive: true, pageSize: 1, page });
        expect(office.total).toBe(3);
        expect(office.emails.length).toBe(page <= 3 ? 1 : 0);
      }
    });

    it('answers the read-only back office, and a back-office account holding an organization role, as the back office; excludeSelf kept apart', async () => {
      for (const roleCode of ['COMPTABLE', 'ADMIN_ADHERENT', 'ORG_ADMIN', 'ADMIN_OPCO', 'GESTIONNAIRE']) {
        for (const includeInactive of [true, false]) {
          const q = { search: 'zorvath', roleCode, includeInactive };
          const office = await zorvath(PERSONAS.backoffice, q);
          expect(await zorvath(PERSONAS.lecteur, q), `lecteur ${roleCode} ${includeInactive}`).toEqual(office);
          expect(await zorvath(MADE.bureau, q), `bureau ${roleCode} ${includeInactive}`).toEqual(office);
        }
      }
      expect(await zorvath(PERSONAS.backoffice, { search: 'zorvath', roleCode: 'ADMIN_ADHERENT' })).toEqual(sorted(MADE.twoCompanies, MADE.bureau));
      expect(await zorvath(PERSONAS.backoffice, { search: 'zorvath', roleCode: 'ADMIN_OPCO' })).toEqual([MADE.opco]);
      // The same search, left out and not: neither answer is the other's.
      for (let i = 0; i < 2; i++) {
        for (const search of ['zorvath', 'zor', 'bureau.zorvath@exemple-test.fr']) {
          const all = await list(MADE.bureau, { search, roleCode: 'ADMIN_ADHERENT', includeInactive: true });
          const others = await list(MADE.bureau, { search, roleCode: 'ADMIN_ADHERENT', includeInactive: true, excludeSelf: true });
          expect(all.emails, search).toContain(MADE.bureau);
          expect(others.emails, search).not.toContain(MADE.bureau);
          expect(others.total, search).toBe(all.total - 1);
        }
      }
    });

    it('refuses an inactive account the list and the export with a search within a role', async () => {
      for (const roleCode of ['GESTIONNAIRE', 'COMPTABLE']) {
        const answer = await list(PERSONAS.inactif, { search: 'zorvath', roleCode, includeInactive: true });
        expect(answer.status).toBe(403);
        const exported = await send(t, PERSONAS.inactif, { method: 'GET', url: `/api/v2/users/export?search=zorvath&roleCode=${roleCode}&includeInactive=true` });
        expect(exported.status).toBe(403);
        expect(String(exported.body)).not.toContain('zorvath@');
      }
    });

    it("exports within a role and a search only the caller's reach", async () => {
      const exported = async (as: string, roleCode: string) => {
        const answer = await send(t, as, { method: 'GET', url: `/api/v2/users/export?search=zorvath&roleCode=${roleCode}&includeInactive=true` });
        expect(answer.status).toBe(200);
        return Object.values(MADE).filter((email) => String(answer.body).includes(email)).sort();
      };
      expect(await exported(PERSONAS.backoffice, 'COMPTABLE')).toEqual(sorted(MADE.clinicOnly, MADE.twoCompanies, MADE.dormant));
      expect(await exported(PERSONAS.adminEhpad, 'COMPTABLE')).toEqual([]);
      expect(await exported(PERSONAS.adminEhpad, 'ADMIN_ADHERENT')).toEqual([MADE.twoCompanies]);
      expect(await exported(PERSONAS.adminClinique, 'ADMIN_ADHERENT')).toEqual([]);
    });

    it('never serves the total or a page kept for one role or inactive flag to another', async () => {
      const office = (query: Query) => list(PERSONAS.backoffice, { pageSize: 1, ...query });
      for (const search of ['zorvath', 'zor', 'dormant.zorvath@exemple-test.fr', 'zorvath@exemple']) {
        const seen: Record<string, { total: number; emails: string[] }> = {};
        for (let round = 0; round < 3; round++) {
          for (const roleCode of ['COMPTABLE', 'ADMIN_ADHERENT', 'GESTIONNAIRE', 'ADMIN_OPCO']) {
            for (const includeInactive of round === 1 ? [false, true] : [true, false]) {
              for (const page of [2, 1]) {
                const { total, emails } = await office({ search, roleCode, includeInactive, page });
                const key = `${roleCode} ${includeInactive} ${page}`;
                if (round === 0) seen[key] = { total, emails };
                else expect({ total, emails }, `${search} ${key} round ${round}`).toEqual(seen[key]);
              }
            }
          }
        }
        // What a search alone finds and what it finds within a role are not each other's either.
        const alone = await office({ search, includeInactive: true });
        expect(alone.total, search).toBeGreaterThanOrEqual(seen['COMPTABLE true 1']!.total);
      }
      expect((await office({ search: 'zorvath', roleCode: 'COMPTABLE', includeInactive: true })).total).toBe(3);
      expect((await office({ search: 'zorvath', roleCode: 'COMPTABLE', includeInactive: false })).total).toBe(2);
      expect((await office({ search: 'dormant.zorvath@exemple-test.fr', roleCode: 'COMPTABLE', includeInactive: false })).total).toBe(0);
      expect((await office({ search: 'dormant.zorvath@exemple-test.fr', roleCode: 'COMPTABLE', includeInactive: true })).total).toBe(1);
    });

    it('shows a grant, a removal and a deactivation at the very next request, kept totals and pages included', async () => {
      const person = (await db().selectFrom('users').select('id').where('email', '=', MADE.clinicOnly).executeTakeFirstOrThrow()).id;
      const within = async (as: string, search: string, roleCode: string, includeInactive = true) => {
        // Fill what the process keeps: the total, the first and a later page.
        await list(as, { search, roleCode, includeInactive, pageSize: 1, page: 2 });
        return list(as, { search, roleCode, includeInactive, pageSize: 100 });
      };
      for (const search of ['zorvath', 'zor', 'quenotte.zorvath@exemple-test.fr']) {
        const before = await within(PERSONAS.backoffice, search, 'GESTIONNAIRE');
        expect(before.emails, search).not.toContain(MADE.clinicOnly);
        const grant = await db().insertInto('role_assignments').values({ user_id: person, organization_id: orgs.cliniqueSirets[0]!.id, role_id: roles.GESTIONNAIRE!, inherits_to_children: false }).returning('id').executeTakeFirstOrThrow();
        const granted = await within(PERSONAS.backoffice, search, 'GESTIONNAIRE');
        expect(granted.emails, search).toContain(MADE.clinicOnly);
        expect(granted.total, search).toBe(before.total + 1);
        expect((await within(PERSONAS.adminClinique, search, 'GESTIONNAIRE')).emails, search).toContain(MADE.clinicOnly);
        expect((await within(PERSONAS.adminEhpad, search, 'GESTIONNAIRE')).emails, search).toEqual([]);
        await db().updateTable('users').set({ is_active: false }).where('id', '=', person).execute();
        const deactivated = await within(PERSONAS.backoffice, search, 'GESTIONNAIRE', false);
        expect(deactivated.emails, search).not.toContain(MADE.clinicOnly);
        expect((await within(PERSONAS.backoffice, search, 'GESTIONNAIRE', true)).emails, search).toContain(MADE.clinicOnly);
        await db().updateTable('users').set({ is_active: true }).where('id', '=', person).execute();
        await db().deleteFrom('role_assignments').where('id', '=', grant.id).execute();
        const removed = await within(PERSONAS.backoffice, search, 'GESTIONNAIRE');
        expect(removed, search).toEqual(before);
        // A role moved to another: gone from the first at once, there in the other.
        await db().updateTable('role_assignments').set({ role_id: roles.CABINET_COMPTABLE! }).where('user_id', '=', person).where('role_id', '=', roles.COMPTABLE!).execute();
        expect((await within(PERSONAS.backoffice, search, 'COMPTABLE')).emails, search).not.toContain(MADE.clinicOnly);
        expect((await within(PERSONAS.backoffice, search, 'CABINET_COMPTABLE')).emails, search).toContain(MADE.clinicOnly);
        await db().updateTable('role_assignments').set({ role_id: roles.COMPTABLE! }).where('user_id', '=', person).where('role_id', '=', roles.CABINET_COMPTABLE!).execute();
        expect((await within(PERSONAS.backoffice, search, 'COMPTABLE')).emails, search).toContain(MADE.clinicOnly);
      }
    });

    it('answers every role code (unknown, the alias, INTERNAL ones) as the list without a search within a role does', async () => {
      const codes = ['GESTIONNAIRE', 'COMPTABLE', 'ADMIN_ADHERENT', 'ORG_ADMIN', 'ADMIN_OPCO', 'RESSOURCE_HUMAINE', 'INCONNU', 'AB'];
      const terms = ['e', 'ma', 'zor', 'zorvath', 'martin', 'lef', 'é', '@portail.test', 'admin.clinique@portail.test', 'inactif@portail.test'];
      const cases: Query[] = [];
      for (const roleCode of codes) for (const search of terms) for (const includeInactive of [true, false]) cases.push({ search, roleCode, includeInactive, pageSize: 5 });
      for (const [sort, order] of [['email', 'desc'], ['lastLogin', 'asc']] as const) for (const roleCode of ['GESTIONNAIRE', 'ADMIN_ADHERENT']) cases.push({ search: 'e', roleCode, includeInactive: true, sort, order, pageSize: 3, page: 2 });
      const read = async () => {
        const answers = [];
        for (const query of cases) answers.push(await list(PERSONAS.backoffice, query));
        return answers;
      };
      const now = await read();
      const old = await theOldWay(read);
      for (const [i, query] of cases.entries()) expect(now[i], JSON.stringify(query)).toEqual(old[i]);
      // The alias is its role; a code no role has finds nobody; a search within a role never finds more than the role holds.
      for (const [i, query] of cases.entries()) {
        if (query.roleCode === 'ORG_ADMIN') expect(now[i], JSON.stringify(query)).toEqual(now[cases.findIndex((c) => c.roleCode === 'ADMIN_ADHERENT' && c.search === query.search && c.includeInactive === query.includeInactive && c.page === query.page)]);
        if (query.roleCode === 'INCONNU' || query.roleCode === 'AB') expect(now[i]!.total).toBe(0);
      }
      for (const roleCode of ['GESTIONNAIRE', 'ADMIN_OPCO']) {
        const held = (await list(PERSONAS.backoffice, { roleCode, includeInactive: true, pageSize: 1 })).total;
        const searched = (await list(PERSONAS.backoffice, { roleCode, search: 'e', includeInactive: true, pageSize: 1 })).total;
        expect(searched).toBeLessThanOrEqual(held);
      }
    });

    it('takes nothing through roleCode or search but a code and a text', async () => {
      // A role code not of the contract's form: refused before anything is read (lower-case, quotes, spaces, too long).
      for (const roleCode of ['comptable', 'Comptable', "COMPTABLE' OR '1'='1", 'COMPTABLE;--', 'A', 'X'.repeat(51), 'ADMIN ADHERENT']) {
        const answer = await list(PERSONAS.backoffice, { search: 'zorvath', roleCode });
        expect(answer.status, roleCode).toBe(400);
      }
      // Texts with LIKE's and SQL's own characters: the same answers as the list's own way.
      const terms = ['%', '_', "'", '\\', "' or 1=1 --", 'zor%vath', 'zor_ath', '%zorvath%', "zorvath' --", '@', '@@', 'a@b@c', '\u0000'.slice(1) + 'z'];
      const read = async () => {
        const answers = [];
        for (const search of terms) answers.push(await list(PERSONAS.backoffice, { search, roleCode: 'COMPTABLE', includeInactive: true, pageSize: 10 }));
        return answers;
      };
      const now = await read();
      expect(now.map((a) => a.status)).toEqual(terms.map(() => 200));
      expect(await theOldWay(read)).toEqual(now);
      for (const [i, search] of terms.entries()) if (search !== '@' && search !== 'z') expect(now[i]!.emails.filter((e) => e.includes('zorvath')), search).toEqual([]);
      // The tables are still there.
      expect((await list(PERSONAS.backoffice, { search: 'zorvath', roleCode: 'COMPTABLE', includeInactive: true })).total).toBe(3);
    });
  });
}
