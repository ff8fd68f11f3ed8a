// Migrations 0013 and 0014 on a database that already has a journal: each existing entry gets the organizations it concerns
// (the one recorded, the user's current ones, those its roles name; a SIRET's with its SIREN), the names and the
// search text, and the journal's total; the entry's time, changed afterwards, is followed by its copies.
import { copyFile, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS_DIR, migrate } from '../../../server/db/migrate.ts';
import { auditBackfillJob } from '../../../server/jobs/audit-backfill.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';

async function migrationsBefore(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portail-migrations-'));
  for (const file of (await readdir(DEFAULT_MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && f < name)) await copyFile(path.join(DEFAULT_MIGRATIONS_DIR, file), path.join(dir, file));
  return dir;
}

describe.each(backends)('migration 0013 on an existing journal on $name', (backend) => {
  let testDb: TestDatabase;
  const ids = { siren: '', siret: '', other: '', zoe: '', admin: '' };

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle, { migrationsDir: await migrationsBefore('0013') });
    const db = testDb.handle.db;
    const org = async (code: string, name: string, parent: string | null) =>
      (
        await db
          .insertInto('organizations')
          .values({ code, name, type: code.length === 9 ? 'SIREN' : 'SIRET', parent_id: parent, parent_code: parent ? code.slice(0, 9) : null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    ids.siren = await org('787441799', 'Clinique des Tilleuls', null);
    ids.siret = await org('78744179900014', 'Clinique des Tilleuls - Lyon', ids.siren);
    ids.other = await org('443061841', 'EHPAD Les Glycines', null);
    const user = async (email: string, first: string, last: string) =>
      (await db.insertInto('users').values({ email, first_name: first, last_name: last, user_type: 'ORGANIZATION' }).returning('id').executeTakeFirstOrThrow()).id;
    ids.zoe = await user('zoe.bonnet@exemple.fr', 'Zoé', 'Bonnet');
    ids.admin = await user('claire@exemple.fr', 'Claire', 'Vasseur');
    const role = (await db.selectFrom('roles').select('id').where('code', '=', 'COMPTABLE').executeTakeFirst())?.id
      ?? (await db.insertInto('roles').values({ code: 'COMPTABLE', name: 'Comptable', type: 'EXTERNAL' } as never).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('role_assignments').values({ user_id: ids.zoe, organization_id: ids.siret, role_id: role, inherits_to_children: false }).execute();
    const invitation = await db
      .insertInto('invitations')
      .values({ invitee_email: 'thomas.guérin@exemple.fr', organization_code: '787441799', organization_name: 'Clinique des Tilleuls', role_code: 'COMPTABLE', role_name: 'Comptable', invitation_type: 'ROLE_ASSIGNMENT', sender_email: 'claire@exemple.fr' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const audit = (values: Record<string, unknown>) => sql`insert into audit_log (actor_id, actor_email, action, entity_type, entity_id, organization_id, changes) values (${values.actor ?? null}, ${values.email ?? null}, ${values.action}, ${values.type}, ${values.entity}, ${values.org ?? null}, ${JSON.stringify(values.changes ?? {})}::jsonb)`.execute(db);
    // Filed under the SIREN only, about Zoé who is at Lyon; roles naming the EHPAD; a request; a deleted person.
    await audit({ actor: ids.admin, email: 'claire@exemple.fr', action: 'user.update', type: 'user', entity: ids.zoe, org: ids.siren });
    await audit({ actor: ids.admin, email: 'claire@exemple.fr', action: 'user.roles', type: 'user', entity: ids.zoe, changes: { assignments: { before: ['443061841 COMPTABLE +'], after: [] } } });
    await audit({ actor: ids.admin, email: 'claire@exemple.fr', action: 'invitation.reject', type: 'invitation', entity: String(invitation.id), org: ids.siren });
    await audit({ email: 'ops@exemple.fr', action: 'user.delete', type: 'user', entity: '00000000-0000-4000-8000-000000000000', changes: { firstName: { before: 'Œdipe', after: null }, lastName: { before: 'Roi', after: null } } });
    await migrate(testDb.handle);
    // Migration 0014 leaves the existing entries' subject search text to its job.
    await auditBackfillJob({ db }).run({ now: new Date(Date.now() + 3600_000), signal: new AbortController().signal, log: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  }, 120_000);
  afterAll(async () => {
    await testDb?.dispose();
  });

  const rows = async () =>
    (
      await sql<{ action: string; actor_name: string | null; subject_name: string | null; search_text: string; subject_search_text: string; orgs: string[] | null; sirens: string[] | null }>`
      select a.action, a.actor_name, a.subject_name, a.search_text, a.subject_search_text,
        (select array_agg(o.organization_id::text order by o.organization_id) from audit_log_organizations o where o.audit_id = a.id) as orgs,
        (select array_agg(distinct o.siren_id::text) from audit_log_organizations o where o.audit_id = a.id) as sirens
      from audit_log a order by a.id`.execute(testDb.handle.db)
    ).rows;

  it("records each entry's organizations: the one recorded, the person's current ones, those its roles name, each with its SIREN", async () => {
    const [update, roles, reject, deleted] = await rows();
    expect(update!.orgs).toEqual([ids.siren, ids.siret].sort());
    expect(update!.sirens).toEqual([ids.siren]);
    expect(roles!.orgs).toEqual([ids.siret, ids.other].sort());
    expect(reject!.orgs).toEqual([ids.siren]);
    expect(deleted!.orgs).toBeNull();
  });

  it('keeps the names and a search text without accents, and the exact total', async () => {
    const [update, , reject, deleted] = await rows();
    expect(update).toMatchObject({ actor_name: 'Claire Vasseur', subject_name: 'Zoé Bonnet', search_text: 'claire vasseur claire@exemple.fr zoe bonnet zoe.bonnet@exemple.fr' });
    expect(reject!.search_text).toContain('thomas.guerin@exemple.fr');
    expect(deleted).toMatchObject({ actor_name: null, subject_name: 'Œdipe Roi', search_text: 'ops@exemple.fr oedipe roi' });
    // Migration 0014 and its job: the person's or the request's part alone, which finds an entry whoever its author.
    expect(update!.subject_search_text).toBe('zoe bonnet zoe.bonnet@exemple.fr');
    expect(reject!.subject_search_text).toBe('thomas.guerin@exemple.fr');
    expect(deleted!.subject_search_text).toBe('oedipe roi');
    const { rows: total } = await sql<{ n: number }>`select sum(n)::int as n from audit_counts`.execute(testDb.handle.db);
    expect(total[0]!.n).toBe(4);
    // Migration 0017: the same entries counted per day.
    const { rows: days } = await sql<{ n: number }>`select sum(n)::int as n from audit_day_counts`.execute(testDb.handle.db);
    expect(days[0]!.n).toBe(4);
  });

  it("moves the copies of an entry's time with it", async () => {
    const db = testDb.handle.db;
    await db.updateTable('audit_log').set({ at: new Date('2025-01-01T00:00:00Z') }).execute();
    const { rows: times } = await sql<{ n: number }>`select count(*)::int as n from audit_log_organizations where at <> '2025-01-01T00:00:00Z'::timestamptz`.execute(db);
    expect(times[0]!.n).toBe(0);
  });
});
