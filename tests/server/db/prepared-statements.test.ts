// Which statements the PostgreSQL driver prepares once per connection (server/db/database.ts, issue 8).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { Database } from '../../../server/db/schema.ts';
import { journalPageIds } from '../../../server/features/audit/audit-list.repository.ts';
import { journalLookupRows } from '../../../server/features/audit/journal-lookups.repository.ts';
import { listOrganizations } from '../../../server/features/organizations/organizations-list.repository.ts';

// The names are cached per process and capped (MAX_PREPARED): other test files run in the same worker
// (isolate: false) may have filled the cache, so these tests read a fresh copy of the module.
let PREPARE_ANYWAY: string;
let preparedName: (text: string) => string | null;
beforeAll(async () => {
  vi.resetModules();
  ({ PREPARE_ANYWAY, preparedName } = await import('../../../server/db/database.ts'));
});

/** A Kysely that compiles the repositories' statements and answers no rows. */
const compileOnly = () =>
  new Kysely<Database>({
    dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() },
  });

describe('statements prepared once per connection', () => {
  it('names lookups whose plan does not depend on their values, the same text always under the same name', () => {
    const byAuthId = 'select "id", "email", "is_active", "user_type" from "users" where "auth_id" = $1';
    const name = preparedName(byAuthId);
    expect(name).toMatch(/^p[0-9a-f]{20}$/);
    expect(preparedName(byAuthId)).toBe(name);
    expect(preparedName(`${byAuthId} and "is_active"`)).not.toBe(name);
    expect(preparedName('select count(*) as "total" from "users" where "id" = $1')).not.toBeNull();
    expect(preparedName('select "id" from "users" order by "id" limit 10')).not.toBeNull();
  });

  it('plans every time searches, pages past the first, parameters as LIMIT, statements reading *, and transaction control', () => {
    for (const text of ['begin', 'commit', 'rollback', 'set local session_replication_role = replica']) expect(preparedName(text)).toBeNull();
    expect(preparedName('select "id" from "users" where lower(email) like lower($1)')).toBeNull();
    expect(preparedName('select "id" from "users" order by "id" limit 10 offset 40')).toBeNull();
    expect(preparedName('select "id" from "users" order by "id" limit $1')).toBeNull();
    expect(preparedName('select * from "invitations" where "id" = $1')).toBeNull();
    expect(preparedName('select "users".*, 1 as "one" from "users" where "id" = $1')).toBeNull();
    expect(preparedName('update "invitations" set "status" = $1 where "id" = $2 returning *')).toBeNull();
  });

  it('prepares a statement marked as planned alike whatever its values', () => {
    expect(preparedName(`${PREPARE_ANYWAY} select "id" from "users" where lower(email) like lower($1) limit 10 offset (select 3)`)).not.toBeNull();
  });

  it("prepares page 1 of the journal under each filter, and the statement of a page's names and labels", async () => {
    const db = compileOnly();
    const id = '00000000-0000-4000-8000-000000000000';
    const wheres = [{ scope: null }, { scope: null, actorId: id }, { scope: null, userId: id }, { scope: [id] }, { scope: null, organization: { id, type: 'SIREN' as const } }, { scope: null, actions: ['user.create', 'user.delete'] as ('user.create' | 'user.delete')[] }];
    for (const where of wheres) {
      expect(preparedName(journalPageIds(db, where, { page: 1, pageSize: 10 }, { total: 100_000 }).compile().sql), JSON.stringify(where)).not.toBeNull();
      expect(preparedName(journalPageIds(db, where, { page: 2, pageSize: 10 }, { total: 100_000 }).compile().sql), JSON.stringify(where)).toBeNull();
    }
    // Several actions of one organization: the actions' copy answers, and the best access depends on the actions' counts
    // (a rare action: its index then a sort; a common one: the organization's entries newest first). A generic plan made
    // from common ones walked the whole organization for a rare one (173 ms for 540,000 entries, 0.1 ms planned each time).
    for (const organization of [{ id, type: 'SIRET' as const }, { id, type: 'SIREN' as const }]) {
      const where = { scope: null, organization, actions: ['user.update', 'user.dormancy.end'] as ('user.update' | 'user.dormancy.end')[] };
      expect(preparedName(journalPageIds(db, where, { page: 1, pageSize: 10 }, { total: 100_000, actionsCopied: true }).compile().sql), organization.type).toBeNull();
      expect(preparedName(journalPageIds(db, { ...where, scope: [id], organization: undefined }, { page: 1, pageSize: 10 }, { total: 100, actionsCopied: true }).compile().sql)).toBeNull();
    }
    const nodes: RootOperationNode[] = [];
    const capture: KyselyPlugin = { transformQuery: (args) => (nodes.push(args.node), args.node), transformResult: async (args) => args.result };
    const keys = { userIds: [id], invitationIds: ['12'], organizationIds: [id], organizationCodes: ['123456789'], entriesOf: [1] };
    await journalLookupRows(db.withPlugin(capture), keys).catch(() => undefined);
    // The back office's page: the users' assignments are not read (the back office opens every user).
    await journalLookupRows(db.withPlugin(capture), { ...keys, entriesOf: [], assignments: false }).catch(() => undefined);
    expect(nodes).toHaveLength(2);
    const [scoped, backOffice] = nodes.map((node) => db.getExecutor().compileQuery(node, { queryId: 'lookups' } as never).sql);
    expect(preparedName(scoped!)).not.toBeNull();
    expect(preparedName(backOffice!)).not.toBeNull();
    expect(scoped).toContain('role_assignments');
    expect(backOffice).not.toContain('role_assignments');
  });

  it('prepares page 1 of the organizations without a search (the comboboxes open on it)', async () => {
    const db = compileOnly();
    const texts: string[] = [];
    const capture: KyselyPlugin = { transformQuery: (args) => (texts.push(db.getExecutor().compileQuery(args.node, { queryId: 'o' } as never).sql), args.node), transformResult: async (args) => args.result };
    for (const page of [1, 2]) await listOrganizations(db.withPlugin(capture), { visibility: { kind: 'all' } }, { page, pageSize: 100 }).catch(() => undefined);
    const pages = texts.filter((text) => /order by t\.code/.test(text));
    expect(pages).toHaveLength(2);
    expect(preparedName(pages[0]!)).not.toBeNull();
    expect(preparedName(pages[1]!)).toBeNull();
  });
});
