// Issue 20, review: the rebuilt users' search reaches nobody outside the caller's scope, in its pages, its totals,
// the export and a bulk action's selection, whatever the term, includeInactive, excludeSelf, the sort or the page.
// The oracle is the same persona's list without a search (the scoped path, not the search's), filtered by the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFold } from '../../server/core/search-fold.ts';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

interface Listed {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

// 'e' and 'xv' and 'xvl' are counted from the short strings' counts when searched alone; the others are not.
const TERMS = ['qxvl', 'QXVLÀN', 'xvl', 'xv', 'e', 'zq.', 'zq.ehpad', '@exemple-test', 'zéphyr', 'partagé'];

for (const backend of backends) {
  describe(`the users' search within the caller's reach on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    let shared: { email: string; id: string };
    const db = () => t.database.handle.db;

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { env: { API_RATE_LIMIT_PER_MINUTE: '0' } }));
      const f = fixtures(db());
      const named = async (organizationId: string, email: string, first: string, last: string, active = true) => {
        const user = await f.user({ organizationId, roleCode: 'COMPTABLE', email, active });
        await db().updateTable('users').set({ first_name: first, last_name: last }).where('id', '=', user.id).execute();
        return user;
      };
      await named(orgs.cliniqueSirets[0]!.id, 'zq.clinique@exemple-test.fr', 'Zéphyrine', 'Qxvlàn');
      await named(orgs.ehpadSirets[0]!.id, 'zq.ehpad1@exemple-test.fr', 'Zéphyr', 'Qxvlan');
      await named(orgs.ehpadSirets[0]!.id, 'zq.ehpad2@exemple-test.fr', 'Zéphyr', 'Qxvlan', false);
      await named(orgs.ehpadSirets[1]!.id, 'zq.ehpad3@exemple-test.fr', 'Zéphyr', 'Qxvlan Autre');
      // A person in two companies: COMPTABLE at the clinic, GESTIONNAIRE (USER_LIST) at the EHPAD's first establishment.
      shared = await named(orgs.cliniqueSirets[0]!.id, 'zq.partage@exemple-test.fr', 'Zéphyrin', 'Partagé Qxvl');
      await db().insertInto('role_assignments').values({ user_id: shared.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.GESTIONNAIRE!, inherits_to_children: false }).execute();
    });
    afterAll(() => t?.close());

    const list = async (as: string, query: Record<string, string | number | boolean>) => {
      const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { pageSize: 100, ...query } });
      expect(answer.status).toBe(200);
      return answer.body as { items: Listed[]; total: number };
    };
    const rule = (term: string) => (u: Listed) => [`${u.firstName} ${u.lastName}`, u.email].some((text) => searchFold(text).includes(searchFold(term)));

    /** Everyone the persona's list shows without a search (every page), with these filters. */
    async function reach(as: string, query: Record<string, string | number | boolean>) {
      const all: Listed[] = [];
      for (let page = 1; ; page++) {
        const body = await list(as, { ...query, page });
        all.push(...body.items);
        if (body.items.length < 100) return all;
      }
    }

    const personas = () => [PERSONAS.adminClinique, PERSONAS.adminEhpad, PERSONAS.lecteur, PERSONAS.backoffice, 'zq.partage@exemple-test.fr'];

    it('counts and lists only the matches the persona may see, with and without inactive users, leaving themselves out, in every sort, page by page', async () => {
      for (const as of personas()) {
        for (const includeInactive of [false, true]) {
          for (const excludeSelf of [false, true]) {
            const filters = { includeInactive, excludeSelf };
            const visible = await reach(as, filters);
            for (const term of TERMS) {
              const want = visible.filter(rule(term)).map((u) => u.id).sort();
              const label = `${as} ${term} inactive=${includeInactive} excludeSelf=${excludeSelf}`;
              const whole = await list(as, { ...filters, search: term });
              expect(whole.total, label).toBe(want.length);
              if (want.length > 100) {
                expect(whole.items.every((u) => want.includes(u.id)), label).toBe(true);
                continue;
              }
              expect(whole.items.map((u) => u.id).sort(), label).toEqual(want);
              for (const sort of ['name', 'email', 'lastLogin'] as const) {
                for (const order of ['asc', 'desc'] as const) {
                  const seen: string[] = [];
                  const pages = Math.ceil(want.length / 2) + 1;
                  for (let page = 1; page <= Math.min(pages, 4); page++) {
                    const one = await list(as, { ...filters, search: term, sort, order, pageSize: 2, page });
                    expect(one.total, `${label} ${sort} ${order} page ${page}`).toBe(want.length);
                    seen.push(...one.items.map((u) => u.id));
                  }
                  expect(seen.every((id) => want.includes(id)), `${label} ${sort} ${order}`).toBe(true);
                }
              }
            }
          }
        }
      }
    }, 240_000);

    it('answers an inactive account no total and no match', async () => {
      const answer = await callApi(t, { as: PERSONAS.inactif, method: 'GET', route: '/api/v2/users', query: { search: 'e' } });
      expect([401, 403]).toContain(answer.status);
      expect(answer.body.total).toBeUndefined();
    });

    it('refuses a term with a NUL character, one over 200 characters, and a term given twice (400), counting nothing', async () => {
      for (const query of [`search=${encodeURIComponent('qx\u0000vl')}`, `search=${'a'.repeat(201)}`, 'search=qxvl&search=zq.']) {
        const answer = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query });
        expect(answer.status, query).toBe(400);
        expect(answer.body.total, query).toBeUndefined();
      }
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { search: 'é'.repeat(200) } })).status).toBe(200);
    });

    it('exports only the matches the persona may see', async () => {
      for (const as of [PERSONAS.adminClinique, PERSONAS.adminEhpad, 'zq.partage@exemple-test.fr', PERSONAS.lecteur, PERSONAS.backoffice]) {
        for (const term of ['qxvl', 'xvl', 'zq.', 'QXVLÀN']) {
          const visible = (await reach(as, { includeInactive: true })).filter(rule(term));
          const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/users/export', query: { search: term, includeInactive: true } });
          expect(answer.status).toBe(200);
          const text = String(answer.body);
          for (const email of ['zq.clinique', 'zq.ehpad1', 'zq.ehpad2', 'zq.ehpad3', 'zq.partage']) {
            expect(text.includes(`${email}@exemple-test.fr`), `${as} ${term} ${email}`).toBe(visible.some((u) => u.email.startsWith(`${email}@`)));
          }
        }
      }
    });

    it("selects for a bulk action by a search only the matches the persona's list shows", async () => {
      for (const as of [PERSONAS.adminClinique, PERSONAS.adminEhpad]) {
        for (const term of ['qxvl', 'xv']) {
          const visible = (await reach(as, { includeInactive: true, excludeSelf: true })).filter(rule(term));
          const started = await callApi(t, { as, method: 'POST', route: '/api/v2/users/bulk-actions', payload: { action: 'resendInvitation', filters: { search: term, includeInactive: true, excludeSelf: true } } });
          expect(started.status, `${as} ${term}`).toBe(202);
          expect(started.body.total, `${as} ${term}`).toBe(visible.length);
          // One job of a person at a time: this one through before the next.
          await t.app.bulkActions.drain();
        }
      }
    });
  });
}
