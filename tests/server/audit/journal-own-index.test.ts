// One author, one person's history or one action over the whole journal, however few its entries: its page walks its
// own index newest first (audit-list.repository.ts inItsOwnIndex), the same pages as all its entries sorted, ties
// and a period included, on both backends; and no page sorts them.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/schema.ts';
import { journalPageIds, listJournalPage, type JournalWhere } from '../../../server/features/audit/audit-list.repository.ts';
import { backends, createSeededTestDatabase, type TestDatabase } from '../db/test-databases.ts';

const AUTHOR = '00000000-0000-4000-8000-00000000a001';
const PERSON = '00000000-0000-4000-8000-00000000b001';

for (const backend of backends) {
  describe(`a journal filtered by one key of its own index, on ${backend.name}`, () => {
    let testDb: TestDatabase;
    const db = (): Kysely<Database> => testDb.handle.db;
    const filters: [string, JournalWhere][] = [
      ['an author', { scope: null, actorId: AUTHOR }],
      ["a person's history", { scope: null, userId: PERSON }],
      ['one action', { scope: null, actions: ['user.email.confirm'] }],
      ['an author in a period', { scope: null, actorId: AUTHOR, since: new Date('2026-11-02T00:00:00Z'), until: new Date('2026-11-03T12:00:00Z') }],
    ];

    beforeAll(async () => {
      testDb = await createSeededTestDatabase(backend);
      // 40 entries, three at each instant (ties broken by id), some by the author, some about the person, some of the action.
      await sql`insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, changes, at)
        select case when i % 2 = 0 then ${AUTHOR}::uuid end, 'ops@exemple.fr', case when i % 3 = 0 then 'user.email.confirm' else 'user.update' end,
          'user', case when i % 5 < 3 then ${PERSON} else 'autre' end, '{}'::jsonb, timestamptz '2026-11-01 08:00Z' + (i / 3) * interval '5 hours'
        from generate_series(0, 39) as i`.execute(db());
    }, 120_000);
    afterAll(() => testDb?.dispose());

    it.each(filters)('pages %s as all its entries sorted newest first', async (_name, where) => {
      const rows = await db().selectFrom('audit_log').select('id')
        .where((eb) => eb.and([
          ...(where.actorId ? [eb('actor_id', '=', where.actorId)] : []),
          ...(where.userId ? [eb('entity_type', '=', 'user'), eb('entity_id', '=', where.userId)] : []),
          ...(where.actions ? [eb('action', 'in', [...where.actions])] : []),
          ...(where.since ? [eb('at', '>=', where.since)] : []),
          ...(where.until ? [eb('at', '<', where.until)] : []),
        ])).orderBy('at', 'desc').orderBy('id', 'desc').execute();
      const expected = rows.map((r) => Number(r.id));
      expect(expected.length).toBeGreaterThan(3);
      for (const size of [1, 3, 10]) {
        const pages: number[] = [];
        for (let page = 1; page <= Math.ceil(expected.length / size) + 1; page++) {
          pages.push(...(await listJournalPage(db(), where, { page, pageSize: size }, { gather: true, total: expected.length })).map((r) => r.id));
        }
        expect(pages, `pages of ${size}`).toEqual(expected);
      }
    });

    it.each(filters)('reads %s newest first from its index, without sorting its entries', async (_name, where) => {
      const plan = await testDb.handle.withRawTransaction(async (tx) => {
        await tx.exec('set local enable_seqscan = off');
        const { sql: text, parameters } = db().selectFrom(journalPageIds(db(), where, { page: 1, pageSize: 10 }, { gather: true }).as('p')).selectAll().compile();
        return (await tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, parameters)).map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/audit_log_(actor_at|entity_at|action_at)_idx/);
      expect(plan).not.toMatch(/Sort/);
    });
  });
}
