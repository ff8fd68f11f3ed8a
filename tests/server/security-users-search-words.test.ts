// Issue 20, attacker review R11 of the search on words and phrases (migration 0039): what one search keeps per process
// (ListTotals.outlooks, keyed by the term, includeInactive and the caller left out, never by a scope) answers no other
// list; an organization caller never reads it; and the text of a person who leaves is not kept in the words' counts.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFold } from '../../server/core/search-fold.ts';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, startUsersApp, userIdOf, type DemoOrganizations } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

interface Listed {
  id: string;
}

for (const backend of backends) {
  describe(`the search on words and phrases, attacked, on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations;
    const db = () => t.database.handle.db;

    beforeAll(async () => {
      ({ t, orgs } = await startUsersApp(backend, { env: { API_RATE_LIMIT_PER_MINUTE: '0' } }));
    });
    afterAll(() => t?.close());

    const list = async (as: string, query: Record<string, string | number | boolean>) => {
      const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { pageSize: 100, ...query } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const body = answer.body as { items: Listed[]; total: number };
      return { total: body.total, ids: body.items.map((u) => u.id).sort() };
    };
    /** A person of `organizationId` with this name and e-mail. */
    const person = async (organizationId: string, first: string, last: string, email: string, active = true) => {
      const made = await fixtures(db()).user({ organizationId, roleCode: 'COMPTABLE', email, active });
      await db().updateTable('users').set({ first_name: first, last_name: last }).where('id', '=', made.id).execute();
      return made.id;
    };

    it('answers a search with inactive users or the caller left in from nothing another such list of it kept, in either order', async () => {
      const clinic = orgs.cliniqueSirets[0]!.id;
      const active = await person(clinic, 'Vendrick', 'Olmarre', 'v.olmarre@klopstad.fr');
      const inactive = await person(clinic, 'Vendrine', 'Olmarre', 'v2.olmarre@klopstad.fr', false);
      const self = await userIdOf(t, PERSONAS.lecteur);
      await db().updateTable('users').set({ last_name: 'Olmarre' }).where('id', '=', self).execute();
      // A word (of four characters or more, and of three), a name's phrase, an e-mail's part up to its '@' and from it,
      // digits meeting letters: each through the words or the phrases.
      const people = await db().selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', [active, inactive, self]).execute();
      const holders = (term: string) => people.filter((u) => [`${u.first_name} ${u.last_name}`, u.email].some((text) => searchFold(text).includes(searchFold(term)))).map((u) => u.id);
      for (const term of ['olmarre', 'lma', 'ick olm', 'olmarre@', '@klopstad', 'v2.olm', 'e olmarre', 'lecteur']) {
        const want = (inactiveIn: boolean, selfOut: boolean) => holders(term).filter((id) => (inactiveIn || id !== inactive) && (!selfOut || id !== self)).sort();
        const orders = [
          [true, false],
          [false, false],
          [true, true],
          [false, true],
          [true, false],
        ] as const;
        for (const order of [orders, [...orders].reverse()]) {
          for (const [includeInactive, excludeSelf] of order) {
            const found = await list(PERSONAS.lecteur, { search: term, includeInactive, excludeSelf });
            const label = `${term} includeInactive=${includeInactive} excludeSelf=${excludeSelf}`;
            if (term === 'lecteur') {
              // Others may hold it: the caller alone is looked at.
              expect(found.ids.includes(self), label).toBe(!excludeSelf);
              continue;
            }
            expect(found.ids, label).toEqual(want(includeInactive, excludeSelf));
            expect(found.total, label).toBe(want(includeInactive, excludeSelf).length);
          }
        }
      }
    });

    it("never answers an organization caller from a search the back office kept, nor learns of another company's person by any total", async () => {
      const ehpadOnly = await person(orgs.ehpadSirets[0]!.id, 'Quorvane', 'Brisedal', 'quorvane.brisedal7@hortensia-soins.fr');
      const clinicOne = await person(orgs.cliniqueSirets[0]!.id, 'Quorvane', 'Brisemont', 'q.brisemont@clinique-exemple.fr');
      for (const term of ['quorvane', 'brisedal', 'brisedal7', 'quorvane brise', 'hortensia-soins', '@hortensia', 'l7@', 'qu', 'ne b', 'brise']) {
        const unique = !['qu', 'ne b', 'brise'].includes(term);
        for (const includeInactive of [false, true]) {
          // The back office searches first: what it learnt is kept in the process.
          const all = await list(PERSONAS.backoffice, { search: term, includeInactive });
          expect([clinicOne, ehpadOnly].filter((id) => all.ids.includes(id)).length, term).toBeGreaterThan(0);
          for (const [as, outside] of [
            [PERSONAS.adminClinique, ehpadOnly],
            [PERSONAS.adminEhpad, clinicOne],
          ] as const) {
            const seen = await list(as, { search: term, includeInactive });
            const label = `${as} ${term} includeInactive=${includeInactive}`;
            expect(seen.ids, label).not.toContain(outside);
            // Every user counted is one listed: a total never tells of someone out of reach.
            if (unique) expect(seen.total, label).toBe(seen.ids.length);
          }
        }
      }
      expect((await list(PERSONAS.adminEhpad, { search: 'brisemont' })).total).toBe(0);
      expect((await list(PERSONAS.adminClinique, { search: 'brisedal' })).total).toBe(0);
    });

    it('leaves no text of a permanently deleted person in the words or their counts, even searched just before', async () => {
      const id = await person(orgs.cliniqueSirets[1]!.id, 'Ysmérie', 'Trobalquin', 'ysmerie.trobalquin4@vaudreuse.fr');
      const terms = ['trobalquin', 'ysmerie trob', 'trobalquin4@', '@vaudreuse', 'alquin4', 'ysm'];
      for (const term of terms) expect((await list(PERSONAS.backoffice, { search: term })).ids, term).toEqual([id]);
      const removed = await callApi(t, { as: PERSONAS.backoffice, method: 'DELETE', route: '/api/v2/users/{id}', params: { id }, query: { hardDelete: true } });
      expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
      for (const term of terms) expect(await list(PERSONAS.backoffice, { search: term }), term).toEqual({ total: 0, ids: [] });
      const { rows } = await sql<{ n: number }>`select (select count(*) from user_search_words where id = ${id} or word like '%trobalquin%' or word like '%vaudreuse%')
        + (select count(*) from user_search_word_counts where word like '%trobalquin%' or word like '%vaudreuse%' or word like '%ysmerie%') as n`.execute(db());
      expect(Number(rows[0]!.n)).toBe(0);
    });

    it.runIf(backend.name === 'postgres')('leaves no text in the counts when its last two holders leave in two transactions at once', async () => {
      const clinic = orgs.cliniqueSirets[0]!.id;
      const first = await person(clinic, 'Zelmire', 'Caudrevaque', 'z.caudrevaque@fenouillard.fr');
      // Names apart (no range of the list by name shared): the domain is the text they alone hold.
      const second = await person(clinic, 'Aubin', 'Marsolle', 'a.marsolle@fenouillard.fr');
      const client = new pg.Client({ connectionString: t.database.url });
      await client.connect();
      try {
        // One leaves the domain (a new address) in a transaction still open while the back office deletes the other for good through the API.
        await client.query('begin');
        await client.query(`update users set email = 'z.caudrevaque@ailleurs-exemple.fr' where id = $1`, [first]);
        const removed = callApi(t, { as: PERSONAS.backoffice, method: 'DELETE', route: '/api/v2/users/{id}', params: { id: second }, query: { hardDelete: true } });
        // Whether the delete waits for the open transaction or not, both then end.
        await Promise.race([removed, new Promise((resolve) => setTimeout(resolve, 3_000))]);
        await client.query('commit');
        expect((await removed).status).toBeLessThan(300);
        const { rows } = await sql<{ word: string }>`select distinct word from user_search_word_counts
          where word like '%fenouillard%' order by 1`.execute(db());
        // Found by attacker review R11: each transaction saw the other's holder still there, and neither forgot the
        // texts (forget_search_words); they stay until compact_list_totals runs (hourly, with audit.retention).
        expect(rows.map((r) => r.word)).toEqual([]);
      } finally {
        await client.end();
      }
    });
  });
}
