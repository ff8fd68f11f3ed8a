// Issue 20: the users' search is a substring of the full name or of the e-mail, case and accents ignored, on PGlite
// and PostgreSQL; the totals of short terms come from counts the writes keep exact; the two ways of finding a page
// give the same pages; the backfill of migration 0019 folds the rows found there without the search missing any.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import { searchFold } from '../../server/core/search-fold.ts';
import { listUsersPage, type UserListQuery, type UserSort } from '../../server/features/users/users-list.repository.ts';
import { searchBackfillJob } from '../../server/jobs/search-backfill.ts';
import { searchTexts, WORD_SEPARATORS } from '../../server/features/users/users-search-words.model.ts';
import type { Database } from '../../server/db/schema.ts';
import { fixtures } from './support/fixtures.ts';
import { EXACT, keptCopiesDiffering } from './support/kept-copies.ts';
import { expectedSearch } from './support/search-expected.ts';
import { capturing } from './support/plans.ts';
import { compactListTotals, ListTotals } from '../../server/db/list-totals.ts';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';

const base: UserListQuery = { page: 1, pageSize: 100, includeInactive: true, sort: 'name', order: 'asc', scope: null, pendingReach: null };

const PEOPLE = [
  { first: 'Hélène', last: 'Lefèvre', email: 'helene.lefevre@exemple-test.fr' },
  { first: 'Noël', last: 'Œillet', email: 'noel.oeillet@exemple-test.fr' },
  { first: 'Zoé', last: 'Cœurdevey', email: 'Z.Coeurdevey@Exemple-Test.fr' },
  { first: 'Ægidius', last: 'Straße', email: 'aegidius@exemple-test.fr' },
  { first: 'Françoise', last: 'Dürr', email: 'francoise.durr@exemple-test.fr', active: false },
];

const TERMS = [
  'helene', 'HÉLÈNE', 'Hélène', 'lefevre', 'LEFEVRE', 'lefèvre', 'ène lef', 'oe', 'œ', 'Œ', 'oeil', 'œil', 'coeur', 'cœur', 'ae', 'æg', 'strasse',
  'straße', 'ss', 'francoise', 'ç', 'durr', 'dür', 'zoe', 'ZOÉ', 'z.coeur', 'coeurdevey@exemple', '@exemple-test', 'é', 'e', 'x', 'qzx', 'qzxw', 'exemple-test.fr', 'a_', '%',
  // Terms with separators (migration 0039's words): a piece at a word's end, at its start, whole words between them.
  'noel.', '.oeillet', 'exemple-', '-test.fr', 'test', 'lefevre@', '@exemple', 'e-t', 'ne le', 'noël œil', 'z.', '.', '-', 'e.l', 'qzx.fr', 'fr.qzx',
];

for (const backend of backends) {
  describe(`the users' search on ${backend.name}`, () => {
    let t: TestDatabase;
    let db: Kysely<Database>;

    beforeAll(async () => {
      t = await createTestDatabase(backend);
      await migrate(t.handle);
      await seedDemoData(t.handle);
      db = t.handle.db;
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      for (const person of PEOPLE) {
        const { id } = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE', email: person.email, active: person.active ?? true });
        await db.updateTable('users').set({ first_name: person.first, last_name: person.last }).where('id', '=', id).execute();
      }
    }, 60_000);

    afterAll(async () => {
      await t?.dispose();
    });

    /** The users a term finds by the issue's rule, folded here in TypeScript: the ids in the list's order. */
    const expected = (term: string, query: Pick<UserListQuery, 'includeInactive' | 'sort' | 'order'>) => expectedSearch(db, term, query);

    async function expectSameMeaning() {
      for (const term of TERMS) {
        for (const includeInactive of [true, false]) {
          const want = await expected(term, { includeInactive, sort: 'name', order: 'asc' });
          for (const searchAccess of ['walk', 'fetch', 'words', undefined] as const) {
            const found = await listUsersPage(db, { ...base, includeInactive, search: term }, null, { searchAccess });
            expect(found.total, `${term} ${includeInactive} ${searchAccess}`).toBe(want.length);
            expect(found.rows.map((r) => r.id), `${term} ${searchAccess}`).toEqual(want.slice(0, 100));
          }
        }
      }
    }

    it("cuts words in SQL at exactly the separators TypeScript knows and where digits meet letters, and keeps as phrases the texts holding either (migration 0039's search_words)", async () => {
      const characters: string[] = [];
      for (let code = 0x20; code <= 0x7e; code++) characters.push(String.fromCodePoint(code));
      characters.push('’', '‘', '\u00a0', '\t', '·', '–', '—', 'é', 'œ', 'σ');
      const { rows } = await sql<{ c: string; words: string[] }>`
        select c, array(select search_words('a' || c || 'b', 'x@y')) as words from unnest(${characters}::text[]) as c`.execute(db);
      for (const { c, words } of rows) {
        // Cut at a separator, the name is also a phrase; a name without one is a word; cut where a digit meets a
        // letter, it is a phrase too, the digit a word. The e-mail's two phrases hold its '@'.
        const name = WORD_SEPARATORS.includes(c) ? ['a', `a${c}b`, 'b'] : /[0-9]/.test(c) ? ['a', c, 'b', `a${c}b`] : [`a${c}b`];
        expect([...words].sort(), JSON.stringify(c)).toEqual([...new Set([...name, 'x', 'y', 'x@', '@y'])].sort());
        const { rows: phrases } = await sql<{ word: string; phrase: boolean }>`select w as word, search_phrase(w) as phrase from search_words(${`a${c}b`}, 'x@y') as w`.execute(db);
        for (const { word, phrase } of phrases) expect(phrase, `${JSON.stringify(c)} ${word}`).toBe(searchTexts(word) !== 'words');
      }
      const { rows: digits } = await sql<{ words: string[] }>`select array(select search_words('jean2b 12ab3', 'x9.y@z')) as words`.execute(db);
      expect([...digits[0]!.words].sort()).toEqual(['jean', '2', 'b', '12', 'ab', '3', 'x', '9', 'y', 'z', 'jean2b 12ab3', 'x9.y@', '@z'].sort());
    });

    it('folds in SQL exactly as in TypeScript, every Latin letter and the ligatures', async () => {
      const letters: string[] = [];
      for (let code = 0x20; code <= 0x24f; code++) letters.push(String.fromCodePoint(code));
      letters.push('Œuvre', 'cœur', 'Æther', 'Straße', 'ÉLÈNE', 'İstanbul', 'Łódź');
      const { rows } = await sql<{ text: string; folded: string }>`select t.text, search_fold(t.text) as folded from unnest(${letters}::text[]) as t (text)`.execute(db);
      const differing = rows.filter((r) => r.folded !== searchFold(r.text)).map((r) => `${r.text} → ${r.folded} / ${searchFold(r.text)}`);
      expect(differing).toEqual([]);
      expect(['Hélène', 'LEFÈVRE', 'œ', 'Ægidius', 'Straße'].map(searchFold)).toEqual(['helene', 'lefevre', 'oe', 'aegidius', 'strasse']);
    });

    it('finds a substring of the name or the e-mail, case and accents ignored, alike whichever way the page is found', async () => {
      const found = await listUsersPage(db, { ...base, search: 'helene' });
      expect(found.rows.map((r) => `${r.first_name} ${r.last_name}`)).toContain('Hélène Lefèvre');
      expect((await listUsersPage(db, { ...base, search: 'LEFEVRE' })).rows.map((r) => r.email)).toContain('helene.lefevre@exemple-test.fr');
      expect((await listUsersPage(db, { ...base, search: 'oe' })).rows.map((r) => r.last_name)).toEqual(expect.arrayContaining(['Œillet', 'Cœurdevey']));
      await expectSameMeaning();
    });

    it('gives the same pages both ways, in every sort and direction, excluding the caller, at a later page', async () => {
      const caller = await db.selectFrom('users').select('id').where('email', '=', 'helene.lefevre@exemple-test.fr').executeTakeFirstOrThrow();
      const sorts: UserSort[] = ['name', 'email', 'lastLogin'];
      for (const term of ['e', 'ex', 'exemple', 'hélène', 'portail']) {
        for (const sort of sorts) {
          for (const order of ['asc', 'desc'] as const) {
            const want = (await expected(term, { includeInactive: false, sort, order })).filter((id) => id !== caller.id);
            for (const searchAccess of ['walk', 'fetch', 'words', undefined] as const) {
              const query = { ...base, includeInactive: false, sort, order, search: term, excludeUserId: caller.id, pageSize: 3, page: 2 };
              const found = await listUsersPage(db, query, null, { searchAccess });
              expect(found.total, `${term} ${sort} ${order}`).toBe(want.length);
              expect(found.rows.map((r) => r.id), `${term} ${sort} ${order} ${searchAccess}`).toEqual(want.slice(3, 6));
              // The last page and the one before it, read from the other end when the walk finds them.
              const lastPage = Math.max(1, Math.ceil(want.length / 3));
              for (const page of [lastPage, lastPage - 1].filter((p) => p >= 1)) {
                const tail = await listUsersPage(db, { ...query, page }, null, { searchAccess });
                expect(tail.rows.map((r) => r.id), `${term} ${sort} ${order} ${searchAccess} page ${page}`).toEqual(want.slice((page - 1) * 3, page * 3));
              }
            }
          }
        }
      }
    });

    it('gives a filtered list\'s later pages as its whole order does, read from either end', async () => {
      const clinique = await fixtures(db).organization('Clinique des Tilleuls');
      const organization = { id: clinique.id, code: clinique.code, name: clinique.name, type: 'SIREN' as const, parentCode: null, parentId: null, member: true, closed: false };
      for (const sort of ['name', 'email', 'lastLogin'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const filter = { ...base, organization, sort, order, search: 'e' };
          const whole = await listUsersPage(db, { ...filter, pageSize: 100 });
          expect(whole.total).toBeGreaterThan(4);
          for (let page = 1; page <= Math.ceil(whole.total / 2); page++) {
            const one = await listUsersPage(db, { ...filter, pageSize: 2, page });
            expect(one.rows.map((r) => r.id), `${sort} ${order} ${page}`).toEqual(whole.rows.slice((page - 1) * 2, page * 2).map((r) => r.id));
          }
        }
      }
    });

    it("counts once the users holding several of a term's words: the most held one, its variants in e-mails, either without the other, inactive ones, the caller left out", async () => {
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      const people = [
        { first: 'Anne', last: 'Simonet', email: 'anne.simonet@exemple-test.fr' },
        { first: 'Paul', last: 'Simonet', email: 'psimonet2@exemple-test.fr' },
        { first: 'Lucie', last: 'Bernard', email: 'lsimonet@exemple-test.fr' },
        { first: 'Simonetta', last: 'Rossi', email: 'simonetta.rossi3@exemple-test.fr', active: false },
        { first: 'Marc', last: 'Simonet', email: 'msimonet@exemple-test.fr', active: false },
      ];
      const ids: string[] = [];
      for (const person of people) {
        const { id } = await f.user({ organizationId: clinique.id, roleCode: 'GESTIONNAIRE', email: person.email, active: person.active ?? true });
        await db.updateTable('users').set({ first_name: person.first, last_name: person.last }).where('id', '=', id).execute();
        ids.push(id);
      }
      for (const term of ['simonet', 'simone', 'imon', 'simonet2', 'simonett']) {
        for (const includeInactive of [true, false]) {
          for (const excludeUserId of [undefined, ids[0], ids[2], ids[4]]) {
            const want = (await expected(term, { includeInactive, sort: 'name', order: 'asc' })).filter((id) => id !== excludeUserId);
            const found = await listUsersPage(db, { ...base, includeInactive, search: term, ...(excludeUserId ? { excludeUserId } : {}) }, null, { searchAccess: 'words' });
            expect(found.total, `${term} ${includeInactive} ${excludeUserId}`).toBe(want.length);
            expect(found.rows.map((r) => r.id), `${term} ${includeInactive} ${excludeUserId}`).toEqual(want.slice(0, 100));
          }
        }
      }
      await db.deleteFrom('users').where('id', 'in', ids).execute();
    });

    it('forgets at compaction a word whose last holders left at once (its rows sum to nought, inactive ones alone included), and no word still held', async () => {
      // As two transactions leave them: the rows of a connection still there (never folded), summing to nought.
      await sql`insert into user_search_word_counts (word, inactive_only, backend, n)
        values ('phrase orpheline@', false, pg_backend_pid(), 0), ('exemple', false, 111, 1), ('exemple', false, 222, -1)`.execute(db);
      await compactListTotals(db);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from user_search_word_counts where word = 'phrase orpheline@'`.execute(db);
      expect(rows[0]!.n).toBe(0);
      // A word left with rows of its inactive holders alone (a deactivation writes no other), summing to nought: forgotten too.
      await sql`insert into user_search_word_counts (word, inactive_only, backend, n)
        values ('personne inactive@', true, pg_backend_pid(), 1), ('personne inactive@', true, 0, -1)`.execute(db);
      await compactListTotals(db);
      const { rows: inactive } = await sql<{ n: number }>`select count(*)::int as n from user_search_word_counts where word = 'personne inactive@'`.execute(db);
      expect(inactive[0]!.n).toBe(0);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      expect((await listUsersPage(db, { ...base, search: 'exemple' })).total).toBe((await expected('exemple', { includeInactive: true, sort: 'name', order: 'asc' })).length);
    });

    it("within a role, finds a term few hold from its words' holders, as the list's order finds it: every sort, direction and page", async () => {
      const fromWords = capturing(db);
      await listUsersPage(fromWords.db, { ...base, search: 'lefevre', roleCode: 'GESTIONNAIRE' });
      expect(fromWords.statements.some((st) => /user_search_words/.test(st.sql))).toBe(true);
      for (const search of ['lefevre', 'oe', 'exemple-', 'e', 'ne le', 'qzx', '@exemple', 'durr']) {
        for (const roleCode of ['GESTIONNAIRE', 'ADMIN_ADHERENT']) {
          for (const sort of ['name', 'email', 'lastLogin'] as const) {
            for (const order of ['asc', 'desc'] as const) {
              for (const includeInactive of [true, false]) {
                for (const page of [1, 2, 3]) {
                  const query: UserListQuery = { ...base, search, roleCode, sort, order, includeInactive, page, pageSize: 2 };
                  const words = await listUsersPage(db, query);
                  const walked = await listUsersPage(db, query, null, { heldFirstAtMost: 0 });
                  const label = `${search} ${roleCode} ${sort} ${order} ${includeInactive} page ${page}`;
                  expect(words.total, label).toBe(walked.total);
                  expect(words.rows.map((r) => r.id), label).toEqual(walked.rows.map((r) => r.id));
                }
              }
            }
          }
        }
      }
    });

    it('reads a search again from what it kept, checked against the users list in the page\'s own statement, exact after every write', async () => {
      const totals = new ListTotals();
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      const terms = ['lefevre', 'exemple', 'noel œil', 'ex', '-test.fr', 'zorglub', 'lefevre@exemple', 'e@exemple-test.fr'];
      // Three times: the first request keeps what it learnt, the second reads its page from that and keeps the page's ids
      // (name and e-mail orders), the third reads the rows of those ids.
      const same = async (term: string, query: Partial<UserListQuery> = {}) => {
        const want = await expected(term, { includeInactive: query.includeInactive ?? base.includeInactive, sort: query.sort ?? 'name', order: query.order ?? 'asc' });
        const page = query.page ?? 1;
        for (const time of [1, 2, 3]) {
          const found = await listUsersPage(db, { ...base, pageSize: 2, search: term, ...query }, totals);
          expect(found.total, `${term} (${time})`).toBe(want.length);
          expect(found.rows.map((r) => r.id), `${term} page ${page} (${time})`).toEqual(want.slice((page - 1) * 2, page * 2));
        }
      };
      for (const term of terms) {
        await same(term);
        await same(term, { page: 2 });
        await same(term, { sort: 'email', order: 'desc' });
      }
      // Kept: the same search again is one statement, its page with its rows, their assignments and the list's version;
      // the page's ids once kept, with the rows of those ids alone.
      const recorder = capturing(db);
      await listUsersPage(recorder.db, { ...base, pageSize: 2, search: 'lefevre' }, totals);
      expect(recorder.statements).toHaveLength(1);
      expect(recorder.statements[0]!.sql).toContain('list_versions');
      expect(recorder.statements[0]!.sql).toMatch(/^select [^]*from \(select unnest\(\$\d+::uuid\[\]\) as id\) as "page"/);
      const byLogin = capturing(db);
      for (const _time of [1, 2, 3]) await listUsersPage(byLogin.db, { ...base, pageSize: 2, search: 'lefevre', sort: 'lastLogin' }, totals);
      expect(byLogin.statements.at(-1)!.sql, 'a page by last sign-in is never kept').not.toMatch(/unnest\(\$\d+::uuid/);
      // An address the e-mail parts index finds, alike.
      const address = capturing(db);
      await listUsersPage(address.db, { ...base, pageSize: 2, search: 'lefevre@exemple' }, totals);
      expect(address.statements).toHaveLength(1);
      // Every kind of write the kept outlook must not outlive: a creation, a rename into and out of the term, a deactivation, a delete.
      const { id } = await f.user({ organizationId: clinique.id, roleCode: 'COMPTABLE', email: 'zorglub.lefevre@exemple-test.fr' });
      for (const term of terms) await same(term);
      await db.updateTable('users').set({ email: 'autre@ailleurs-test.fr', last_name: 'Noel Œil' }).where('id', '=', id).execute();
      for (const term of terms) await same(term);
      await db.updateTable('users').set({ is_active: false }).where('id', '=', id).execute();
      for (const term of terms) await same(term, { includeInactive: false });
      await db.deleteFrom('users').where('id', '=', id).execute();
      for (const term of terms) {
        await same(term);
        await same(term, { page: 2 });
      }
    });

    it('keeps the counts of short strings exact through creations, renames, deactivations, deletes and a rolled back change', async () => {
      const f = fixtures(db);
      const clinique = await f.organization('Clinique des Tilleuls');
      const total = async (search: string, includeInactive = true) => (await listUsersPage(db, { ...base, search, includeInactive })).total;
      const zy = await total('zy');
      const { id } = await f.user({ organizationId: clinique.id, roleCode: 'COMPTABLE', email: 'zyvan@exemple-test.fr' });
      expect(await total('zy')).toBe(zy + 1);
      await db.updateTable('users').set({ email: 'yvan@exemple-test.fr', first_name: 'Žyvan' }).where('id', '=', id).execute();
      expect(await total('zy')).toBe(zy + 1);
      expect(await total('zy', false)).toBe((await expected('zy', { includeInactive: false, sort: 'name', order: 'asc' })).length);
      await db.updateTable('users').set({ is_active: false }).where('id', '=', id).execute();
      expect(await total('zy', false)).toBe((await expected('zy', { includeInactive: false, sort: 'name', order: 'asc' })).length);
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ first_name: 'Ivan' }).where('id', '=', id).execute();
          throw new Error('rollback');
        })
        .catch(() => undefined);
      expect(await total('zy')).toBe(zy + 1);
      await db.deleteFrom('users').where('id', '=', id).execute();
      expect(await total('zy')).toBe(zy);
      for (const term of ['a', 'é', 'z', 'zy', 'oe', 'œ', '@', '.f', 'e l', 'lèn', 'qzx']) {
        expect(await total(term), term).toBe((await expected(term, { includeInactive: true, sort: 'name', order: 'asc' })).length);
      }
    });

    it('finds every user while the backfill folds the rows written before migration 0019, and counts once it is through', async () => {
      // The rows as migration 0019 finds them: lower case, accents kept, not folded (the counts follow them out).
      await sql`update user_search s set name = lower(u.first_name || ' ' || u.last_name), email = lower(u.email), folded = false from users u where u.id = s.id`.execute(db);
      await sql`update user_search_backfill set after_id = null, done = false`.execute(db);
      const { rows: left } = await sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from user_search_gram_counts`.execute(db);
      expect(left[0]!.n).toBe(0);
      // Before the backfill, what is typed with accents is found, written with or without them (the totals counted).
      for (const term of ['Hélène', 'Œil', 'e', 'lè']) {
        expect((await listUsersPage(db, { ...base, search: term })).total, term).toBe((await expected(term, { includeInactive: true, sort: 'name', order: 'asc' })).length);
      }

      const job = searchBackfillJob({ db, batchSize: 7 });
      const signal = new AbortController().signal;
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      expect(await job.run({ now: new Date(), signal, log })).toMatchObject({ done: 1 });
      const state = await db.selectFrom('user_search_backfill').select(['done']).executeTakeFirstOrThrow();
      expect(state.done).toBe(true);
      const { rows: unfolded } = await sql<{ n: number }>`select count(*)::int as n from user_search where not folded`.execute(db);
      expect(unfolded[0]!.n).toBe(0);
      await expectSameMeaning();
      // Once through, a run reads where it stands and does nothing more.
      expect(await job.run({ now: new Date(), signal, log })).toEqual({ batches: 0, done: 1 });
    });

    it('finds every user while the backfill writes the words of the users there before migration 0039, then reads them exact', async () => {
      // The words as migration 0039 finds them: none (their counts follow them out).
      await sql`truncate user_search_words`.execute(db);
      await sql`update user_search_words_backfill set after_id = null, done = false`.execute(db);
      const { rows: left } = await sql<{ n: number }>`select count(*)::int as n from user_search_word_counts`.execute(db);
      expect(left[0]!.n).toBe(0);
      await expectSameMeaning();

      const job = searchBackfillJob({ db, batchSize: 4 });
      const signal = new AbortController().signal;
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      // A user written during the backfill has its words from the triggers, once.
      const clinique = await fixtures(db).organization('Clinique des Tilleuls');
      await fixtures(db).user({ organizationId: clinique.id, roleCode: 'COMPTABLE', email: 'pendant.le-rattrapage@exemple-test.fr' });
      expect(await job.run({ now: new Date(), signal, log })).toMatchObject({ done: 1 });
      expect((await db.selectFrom('user_search_words_backfill').select(['done']).executeTakeFirstOrThrow()).done).toBe(true);
      expect(await keptCopiesDiffering(db)).toEqual(EXACT);
      await expectSameMeaning();
      expect(await job.run({ now: new Date(), signal, log })).toEqual({ batches: 0, done: 1 });
    });
  });
}
