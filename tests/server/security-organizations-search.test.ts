// Issue 20, review: the rebuilt organizations' search (organization_search, organization_counts, organization_gram_counts,
// the totals kept under list version 'organizations') reaches no organization outside the caller's visibility, in its
// pages and its totals, whatever the term (counted strings of one to three characters, trigram terms, codes), the type,
// forNewAccess or parentId; a total kept for one caller is never served to another whose visibility differs.
// The oracle is the same persona's list without a search (read from organizations, not from the copy), filtered by the rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFold } from '../../server/core/search-fold.ts';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { Organization } from './support/organizations.ts';
import type { TestApp } from './support/test-app.ts';

const TERMS = ['a', 'e', 'zq', 'zqà', 'ZQA', 'clinique', 'tilleuls', 'glycines', 'hors', '1', '00', '9 9', 'zzz-none'];

for (const backend of backends) {
  describe(`the organizations' search within the caller's visibility on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const db = () => t.database.handle.db;
    const SHARED = 'zq.org.partage@exemple-test.fr';

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { env: { API_RATE_LIMIT_PER_MINUTE: '0' } }));
      // Organizations nobody but the back office sees, whose names share the terms' short strings.
      let code = 990_000_001;
      for (const [name, member] of [['Zqà Hors Périmètre', true], ['ZQA hors adhésion', false], ['Clinique Zqà Lointaine', true]] as const) {
        await db().insertInto('organizations').values({ code: String(code++), name, type: 'SIREN', member }).execute();
      }
      // A person in two companies: COMPTABLE at the clinic, GESTIONNAIRE (USER_LIST) at the EHPAD's first establishment.
      const f = fixtures(db());
      const shared = await f.user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE', email: SHARED });
      await db().insertInto('role_assignments').values({ user_id: shared.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.GESTIONNAIRE!, inherits_to_children: false }).execute();
    });
    afterAll(() => t?.close());

    const list = async (as: string, query: Record<string, string | number | boolean>) => {
      const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/organizations', query: { pageSize: 100, ...query } });
      expect(answer.status, `${as} ${JSON.stringify(query)}`).toBe(200);
      return answer.body as { items: Organization[]; total: number };
    };
    const rule = (term: string) => (o: Organization) => {
      const trimmed = term.trim();
      const code = /^[\d\s]+$/.test(trimmed) ? trimmed.replace(/\s+/g, '') : trimmed;
      return searchFold(o.name).includes(searchFold(trimmed)) || o.code.includes(code);
    };
    async function reach(as: string, query: Record<string, string | number | boolean>) {
      const all: Organization[] = [];
      for (let page = 1; ; page++) {
        const body = await list(as, { ...query, page });
        all.push(...body.items);
        if (body.items.length < 100) return all;
      }
    }
    const filterSets = (): Record<string, string | boolean>[] => [
      {},
      { type: 'SIREN' },
      { type: 'SIRET' },
      { forNewAccess: true },
      { type: 'SIREN', forNewAccess: true },
      { parentId: orgs.clinique.id },
      { parentId: orgs.ehpad.id },
    ];
    const scoped = () => [PERSONAS.adminClinique, PERSONAS.adminEhpad, SHARED];

    it('an organization user counts and lists only the organizations they see, for every term and filter', async () => {
      for (const as of [...scoped(), PERSONAS.lecteur, PERSONAS.backoffice]) {
        for (const filters of filterSets()) {
          const visible = await reach(as, filters);
          if (as !== PERSONAS.lecteur && as !== PERSONAS.backoffice) expect(visible.some((o) => o.name.includes('Zq'))).toBe(false);
          for (const term of TERMS) {
            const want = visible.filter(rule(term)).map((o) => o.id).sort();
            const label = `${as} ${term} ${JSON.stringify(filters)}`;
            const whole = await list(as, { ...filters, search: term });
            expect(whole.total, label).toBe(want.length);
            if (want.length <= 100) expect(whole.items.map((o) => o.id).sort(), label).toEqual(want);
            expect(whole.items.every((o) => want.includes(o.id)), label).toBe(true);
            const second = await list(as, { ...filters, search: term, page: 2 });
            expect(second.total, label).toBe(want.length);
            expect(second.items.every((o) => want.includes(o.id)), label).toBe(true);
          }
        }
      }
    });

    it('a total kept for one caller is not given to another whose visibility differs, in either order', async () => {
      for (const term of ['clinique', 'zqà', 'tilleuls', 'a', '9 9']) {
        for (const order of [[PERSONAS.backoffice, PERSONAS.adminClinique, SHARED, PERSONAS.adminEhpad], [PERSONAS.adminEhpad, SHARED, PERSONAS.adminClinique, PERSONAS.backoffice]]) {
          for (const as of order) {
            const visible = await reach(as, {});
            const want = visible.filter(rule(term)).length;
            expect((await list(as, { search: term })).total, `${as} ${term}`).toBe(want);
            expect((await list(as, { search: term, page: 3 })).total, `${as} ${term} page 3`).toBe(want);
          }
        }
      }
    });

    it('an inactive account and an employee without a search permission list nothing, searching or not', async () => {
      for (const as of [PERSONAS.inactif, PERSONAS.rhClinique]) {
        for (const query of [{}, { search: 'a' }, { search: 'clinique' }, { search: 'zqà', forNewAccess: true }, { parentId: orgs.ehpad.id }]) {
          const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/organizations', query });
          expect(answer.status, `${as} ${JSON.stringify(query)}`).toBe(403);
          expect(JSON.stringify(answer.body)).not.toMatch(/total|Zq/);
        }
      }
    });
  });
}
