// The lists' cost: a bounded number of statements whatever the page size, and filters an index serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Compilable, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { migrate } from '../../server/db/migrate.ts';
import { seedDemoData } from '../../server/seed/seed.ts';
import type { Database } from '../../server/db/schema.ts';
import { findOrganizationByCode, findOrganizationById, type OrganizationFilter } from '../../server/features/organizations/organizations.repository.ts';
import { countMatching, listOrganizations } from '../../server/features/organizations/organizations-list.repository.ts';
import { auditEntriesMatching, countJournalEntries, journalPageIds, listJournalPage } from '../../server/features/audit/audit-list.repository.ts';
import { listAllRoles } from '../../server/features/roles/roles.repository.ts';
import { StatementCounter as ExecutedStatements } from './support/statement-counter.ts';

/** Counts the statements a Kysely instance sends. */
class StatementCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

async function statementsOf(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<unknown>): Promise<number> {
  const counter = new StatementCounter();
  await work(db.withPlugin(counter));
  return counter.count;
}

for (const backend of backends) {
  describe(`organization and audit queries on ${backend.name}`, () => {
    let database: TestDatabase;
    let db: Kysely<Database>;
    let scope: string[];
    let clinique: { id: string; code: string };

    beforeAll(async () => {
      database = await createTestDatabase(backend);
      await migrate(database.handle);
      await seedDemoData(database.handle);
      db = database.handle.db;
      clinique = await db.selectFrom('organizations').select(['id', 'code']).where('name', '=', 'Clinique des Tilleuls').executeTakeFirstOrThrow();
      scope = (await db.selectFrom('organizations').select('id').where('parent_id', '=', clinique.id).execute()).map((r) => r.id);
    });
    afterAll(async () => {
      await database?.dispose();
    });

    /** The plan of a query with the scans named turned off: what remains tells which index can serve it. */
    async function planOf(query: Compilable, disable: string[]): Promise<string> {
      const { sql, parameters } = query.compile();
      return database.handle.withRawTransaction(async (tx) => {
        for (const setting of disable) await tx.exec(`set local ${setting} = off`);
        const rows = await tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, parameters);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    }
    const bitmapOnly = ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan'];

    const filters: [string, OrganizationFilter][] = [
      ['everything', { visibility: { kind: 'all' } }],
      ['a search', { visibility: { kind: 'all' }, search: 'tilleuls' }],
      ['a scope, a search and a type', { visibility: { kind: 'scope', organizationIds: [] }, search: '0', type: 'SIRET' }],
    ];

    it.each(filters)('lists organizations (%s) in 2 statements for a page of 1 or of 100, with the exact total', async (_name, filter) => {
      const actual = filter.visibility.kind === 'scope' ? { ...filter, visibility: { kind: 'scope' as const, organizationIds: scope } } : filter;
      const small = await statementsOf(db, (d) => listOrganizations(d, actual, { page: 1, pageSize: 1 }));
      const large = await statementsOf(db, (d) => listOrganizations(d, actual, { page: 1, pageSize: 100 }));
      expect([small, large]).toEqual([2, 2]);
      const { total } = await listOrganizations(db, actual, { page: 1, pageSize: 1 });
      // Counted here over organizations, the name folded by search_fold.
      const ids = actual.visibility.kind === 'scope' ? actual.visibility.organizationIds : null;
      const pattern = actual.search ? `%${actual.search}%` : '%';
      const { rows } = await sql<{ n: number }>`select count(*) as n from organizations
        where (search_fold(name) like ${pattern} or code like ${pattern}) and (${ids === null} or id::text = any(${ids ?? []}))
          and (${actual.type ?? null}::text is null or type = ${actual.type ?? null})`.execute(db);
      expect(total).toBe(Number(rows[0]!.n));
    });

    it('finds one organization by id or code in 1 statement, scope included', async () => {
      // The policy passes the visible ids: here the SIRETs and their parent SIREN.
      const visibility = { kind: 'scope' as const, organizationIds: [...scope, clinique.id] };
      expect(await statementsOf(db, (d) => findOrganizationById(d, clinique.id, visibility))).toBe(1);
      expect(await statementsOf(db, (d) => findOrganizationByCode(d, clinique.code, visibility))).toBe(1);
      expect(await findOrganizationByCode(db, clinique.code, visibility)).toMatchObject({ id: clinique.id });
      expect(await findOrganizationByCode(db, clinique.code, { kind: 'scope', organizationIds: scope })).toBeNull();
    });

    it('lists roles with their permissions in 1 statement, and audit entries in 2 whatever the page size', async () => {
      expect(await statementsOf(db, (d) => listAllRoles(d))).toBe(1);
      // Executed statements (a subquery is built apart but sent within its statement).
      const executed = new ExecutedStatements();
      const counted = db.withPlugin(executed);
      const pageOf = (where: Parameters<typeof listJournalPage>[1], page: { page: number; pageSize: number }, gather = false) =>
        executed.during(() => Promise.all([countJournalEntries(counted, where, null), listJournalPage(counted, where, page, { gather })]));
      expect(await pageOf({ scope: null, actions: ['user.update'] }, { page: 1, pageSize: 100 })).toBe(2);
      expect(await pageOf({ scope: [clinique.id], search: 'tilleuls' }, { page: 3, pageSize: 1 }, true)).toBe(2);
      expect(await pageOf({ scope: null }, { page: 3, pageSize: 1 })).toBe(2);
    });

    it('searches folded names and codes through the trigram indexes of organization_search', async () => {
      const plan = await planOf(db.selectNoFrom(countMatching({ visibility: { kind: 'all' }, search: 'Tilleuls' }).as('n')), bitmapOnly);
      expect(plan).toContain('organization_search_name_trgm_idx');
      expect(plan).toContain('organization_search_code_trgm_idx');
      expect(plan).not.toMatch(/Seq Scan/);
    });

    it("searches the SIRENs' names through their own trigram index (the SIREN combobox), never every SIRET's", async () => {
      const plan = await planOf(db.selectNoFrom(countMatching({ visibility: { kind: 'all' }, search: 'Tilleuls', type: 'SIREN' }).as('n')), bitmapOnly);
      expect(plan).toContain('organization_search_siren_name_trgm_idx');
      expect(plan).not.toContain('organization_search_name_trgm_idx');
    });

    it('filters by parentId and by type through indexes', async () => {
      expect(await planOf(db.selectNoFrom(countMatching({ visibility: { kind: 'all' }, parentId: clinique.id }).as('n')), bitmapOnly)).toContain('organizations_parent_id_idx');
      expect(await planOf(db.selectNoFrom(countMatching({ visibility: { kind: 'all' }, type: 'SIREN' }).as('n')), bitmapOnly)).toContain('organizations_type_code_idx');
      const searched = countMatching({ visibility: { kind: 'all' }, parentId: clinique.id, search: 'a' });
      expect(await planOf(db.selectNoFrom(searched.as('n')), bitmapOnly)).toContain('organization_search_parent_idx');
    });

    it('filters the journal by user, author, organization, SIREN, action, search and scope through indexes, and pages it newest first by index', async () => {
      const plan = (where: Parameters<typeof auditEntriesMatching>[1]) => planOf(auditEntriesMatching(db, where).select('id'), bitmapOnly);
      expect(await plan({ scope: null, userId: clinique.id })).toContain('audit_log_entity_at_idx');
      expect(await plan({ scope: null, actorId: clinique.id })).toContain('audit_log_actor_at_idx');
      expect(await plan({ scope: null, organization: { id: scope[0]!, type: 'SIRET' } })).toContain('audit_log_organizations_org_idx');
      expect(await plan({ scope: null, organization: { id: clinique.id, type: 'SIREN' } })).toContain('audit_log_organizations_siren_idx');
      expect(await plan({ scope: [clinique.id, ...scope] })).toContain('audit_log_organizations_org_idx');
      expect(await plan({ scope: null, actions: ['user.delete', 'user.create'] })).toContain('audit_log_action_at_idx');
      expect(await plan({ scope: null, search: 'tilleuls' })).toContain('audit_log_search_trgm_idx');
      // Narrowed: the index is asked for the rarest strings alone; the whole term is checked on the entries found.
      const narrowed = await plan({ scope: null, search: 'noel faure clinique-tilleuls', searchGrams: ['noe', 'fau'] });
      expect(narrowed).toContain('audit_log_search_trgm_idx');
      expect(narrowed).toMatch(/Index Cond: \(\(search_text ~~ '%noe%'::text\) AND \(search_text ~~ '%fau%'::text\)\)/);
      expect(narrowed).not.toMatch(/Index Cond: [^\n]*noel faure/);
      // An address: its indexes (migration 0036), whatever strings narrowing would pick; never the trigram index of every entry.
      const address = await plan({ scope: null, search: 'noel.faure@clinique-tilleuls.fr', searchGrams: ['noe', 'fau'] });
      expect(address).toContain('audit_log_address_1_idx');
      expect(address).not.toContain('audit_log_search_trgm_idx');
      const newest = auditEntriesMatching(db, { scope: null }).select('id').orderBy('at', 'desc').orderBy('id', 'desc').limit(10);
      expect(await planOf(newest, ['enable_seqscan'])).toContain('audit_log_at_idx');
    });

    it("pages a scope by merging each organization's index up to the page's end, never gathering the scope's every entry", async () => {
      for (const page of [1, 3]) {
        const plan = await planOf(journalPageIds(db, { scope: [clinique.id, ...scope] }, { page, pageSize: 10 }, {}), ['enable_seqscan', 'enable_bitmapscan']);
        expect(plan).toMatch(/Limit[\s\S]*Index Only Scan using audit_log_organizations_org_idx/);
        expect(plan).toContain('Function Scan on unnest');
      }
    });

    it("pages several actions by merging each action's index, newest first, never walking the time index past the others' entries", async () => {
      const where = { scope: null, actions: ['user.delete', 'user.create', 'user.update'] as const };
      for (const page of [1, 40]) {
        const plan = await planOf(journalPageIds(db, { ...where, actions: [...where.actions] }, { page, pageSize: 10 }, {}), ['enable_seqscan', 'enable_bitmapscan']);
        expect(plan.match(/audit_log_action_at_idx/g)).toHaveLength(3);
        expect(plan).not.toContain('audit_log_at_idx');
      }
    });
  });
}
