// The copy of the journal's actions beside their organizations (migration 0028, server/jobs/audit-organization-actions.ts):
// rows written before the migration get their entry's action in batches of short transactions, from where the last
// run stopped; rows written since carry it (given, or by the trigger when an older node leaves it out); until the
// copy is whole the journal reads actions from the entries, then from the copy, with the same pages and totals.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../server/db/migrate.ts';
import { organizationActionsCopied } from '../../../server/features/audit/audit-backfill.repository.ts';
import { countJournalEntries, journalPageIds, listJournalPage, type JournalWhere } from '../../../server/features/audit/audit-list.repository.ts';
import { writeAudit } from '../../../server/features/audit/audit.repository.ts';
import type { AuditAction } from '../../../server/db/schema.ts';
import { auditOrganizationActionsJob } from '../../../server/jobs/audit-organization-actions.ts';
import { backends, createTestDatabase, type TestDatabase } from '../db/test-databases.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const ACTIONS: AuditAction[] = ['user.update', 'user.roles', 'user.deactivate', 'user.reactivate'];

describe.each(backends)("the copy of the journal's actions beside their organizations on $name", (backend) => {
  let testDb: TestDatabase;
  const db = () => testDb.handle.db;
  /** A new handle each time: organizationActionsCopied remembers a 'yes' per handle. */
  const fresh = () => db().withoutPlugins();
  const run = async (job: ReturnType<typeof auditOrganizationActionsJob>, signal = new AbortController().signal) =>
    (await job.run({ now: new Date(), signal, log: silent })) as { filled: number; remaining: number };
  const unfilled = async () => Number((await sql<{ n: number }>`select count(*)::int as n from audit_log_organizations where action is null`.execute(db())).rows[0]!.n);
  let siren: string;
  let sirets: string[];

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    await db().deleteFrom('audit_log').execute();
    siren = (await db().insertInto('organizations').values({ code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' }).returning('id').executeTakeFirstOrThrow()).id;
    sirets = [];
    for (const code of ['78744179900012', '78744179900020']) {
      sirets.push((await db().insertInto('organizations').values({ code, name: `Tilleuls ${code.slice(-2)}`, type: 'SIRET', parent_id: siren }).returning('id').executeTakeFirstOrThrow()).id);
    }
    // 24 entries, each action in turn, concerning one SIRET, the other, or both (two rows for one entry).
    for (let i = 0; i < 24; i++) {
      const organizationIds = i % 3 === 2 ? sirets : [sirets[i % 3]!];
      await writeAudit(db(), { actor: { userId: null, email: 'ops@exemple.fr' }, action: ACTIONS[i % 4]!, entityType: 'user', entityId: `u${i % 5}`, organizationIds, changes: {} });
    }
    // As written before migration 0028: no action beside the organizations, the bound at the newest entry.
    await sql`update audit_log_organizations set action = null`.execute(db());
    await sql`update audit_backfills set done_through = 0, upto = (select max(audit_id) from audit_log_organizations) where name = 'organization_action'`.execute(db());
  }, 60_000);
  afterAll(async () => {
    await testDb?.dispose();
  });

  const filters: [string, JournalWhere][] = [
    ['a scope, two actions', { scope: [], actions: ['user.roles', 'user.deactivate'] }],
    ['a SIREN, one action, a period', { scope: null, organization: { id: '', type: 'SIREN' }, actions: ['user.update'], since: new Date(0) }],
    ['a SIRET, three actions', { scope: null, organization: { id: '', type: 'SIRET' }, actions: ['user.update', 'user.roles', 'user.reactivate'] }],
  ];
  const resolved = (where: JournalWhere): JournalWhere => ({
    ...where,
    scope: where.scope === null ? null : sirets,
    organization: where.organization ? { ...where.organization, id: where.organization.type === 'SIREN' ? siren : sirets[0]! } : undefined,
  });
  /** Every page of 4 and the total, as the journal answers them now. */
  const answers = async (where: JournalWhere) => {
    const handle = fresh();
    const total = await countJournalEntries(handle, where, null);
    const ids: number[] = [];
    for (let page = 1; page <= Math.ceil(total / 4); page++) ids.push(...(await listJournalPage(handle, where, { page, pageSize: 4 }, { total })).map((r) => Number(r.id)));
    return { total, ids };
  };

  it('fills in the rows of older entries in batches, from where it stopped, and once through has nothing left to do', async () => {
    expect(await unfilled()).toBeGreaterThan(24);
    expect(await organizationActionsCopied(fresh())).toBe(false);
    const before = await Promise.all(filters.map(([, where]) => answers(resolved(where))));
    expect(before.map((b) => b.total)).toEqual([12, 6, 12]);

    const stopping = new AbortController();
    stopping.abort();
    expect(await run(auditOrganizationActionsJob({ db: db(), batchSize: 5 }), stopping.signal)).toMatchObject({ filled: 0 });
    const first = await run(auditOrganizationActionsJob({ db: db(), batchSize: 5, runMs: 0 }));
    expect(first.filled).toBeGreaterThan(0);
    expect(first.remaining).toBeGreaterThan(0);
    expect(await organizationActionsCopied(fresh())).toBe(false);
    expect(await run(auditOrganizationActionsJob({ db: db(), batchSize: 5 }))).toMatchObject({ remaining: 0 });
    expect(await unfilled()).toBe(0);
    const { rows } = await sql<{ wrong: number }>`select count(*)::int as wrong from audit_log_organizations o join audit_log a on a.id = o.audit_id where o.action <> a.action`.execute(db());
    expect(rows[0]!.wrong).toBe(0);
    expect(await run(auditOrganizationActionsJob({ db: db() }))).toEqual({ filled: 0, remaining: 0 });

    expect(await organizationActionsCopied(fresh())).toBe(true);
    const after = await Promise.all(filters.map(([, where]) => answers(resolved(where))));
    expect(after).toEqual(before);
  });

  it('gives a row written without its action its entry\'s, as a node of the previous version writes it', async () => {
    const entry = await db().insertInto('audit_log').values({ actor_email: 'ops@exemple.fr', action: 'user.roles', entity_type: 'user', entity_id: 'x', changes: '{}' }).returning(['id', 'at']).executeTakeFirstOrThrow();
    await sql`insert into audit_log_organizations (audit_id, organization_id, siren_id, at) values (${entry.id}, ${sirets[1]}, ${siren}, ${entry.at})`.execute(db());
    const { rows } = await sql<{ action: string }>`select action from audit_log_organizations where audit_id = ${entry.id}`.execute(db());
    expect(rows).toEqual([{ action: 'user.roles' }]);
  });

  it.each(filters)('once the copy is whole, answers %s from the organizations\' action index alone', async (_name, where) => {
    const plan = await testDb.handle.withRawTransaction(async (tx) => {
      await tx.exec('set local enable_seqscan = off');
      const { sql: text, parameters } = db().selectFrom(journalPageIds(db(), resolved(where), { page: 1, pageSize: 4 }, { gather: true, actionsCopied: true }).as('p')).selectAll().compile();
      return (await tx.query<{ 'QUERY PLAN': string }>(`explain ${text}`, parameters)).map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/audit_log_organizations_(org|siren)_action_idx/);
    expect(plan).not.toMatch(/ on audit_log\b(?!_)/);
  });
});
