// loadActor (server/features/session/actor.repository.ts) reads a person's rights in one statement. Checked against
// a plain reading of the same rules, statement by statement, for every account of the demo data and for people
// built to cover each case: roles with and without permissions, a SIREN held with or without inheritance, a SIRET
// held beside its SIREN, several organizations, a back-office account, an inactive one, an unknown subject.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadActor } from '../../../server/features/session/actor.repository.ts';
import type { Database } from '../../../server/db/schema.ts';
import { backends } from '../db/test-databases.ts';
import { fixtures } from '../support/fixtures.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { demoOrganizations } from '../support/users-api.ts';

/** The rights of a person as the rules state them, read naively: a statement per question. */
async function expectedRights(db: Kysely<Database>, userId: string) {
  const user = await db.selectFrom('users').select(['id', 'email', 'is_active', 'user_type']).where('id', '=', userId).executeTakeFirstOrThrow();
  const base = { userId: user.id, email: user.email, isActive: user.is_active, userType: user.user_type, isBackOffice: user.user_type === 'BACKOFFICE' };
  if (base.isBackOffice) {
    const { rows } = await sql<{ code: string }>`select permission_code as code from user_permissions where user_id = ${userId}`.execute(db);
    return { ...base, permissions: rows.map((r) => r.code).sort(), scope: null, parentIds: null, permissionScopes: null, roleCodes: [] };
  }
  const { rows: held } = await sql<{ organization_id: string; inherits: boolean; role: string }>`
    select ra.organization_id, ra.inherits_to_children as inherits, r.code as role from role_assignments ra join roles r on r.id = ra.role_id
    where ra.user_id = ${userId}`.execute(db);
  const childrenOf = async (id: string) => (await sql<{ id: string }>`select id from organizations where parent_id = ${id}`.execute(db)).rows.map((r) => r.id);
  const parentOf = async (id: string) => (await sql<{ parent_id: string | null }>`select parent_id from organizations where id = ${id}`.execute(db)).rows[0]?.parent_id ?? null;
  const permissionsOf = async (role: string) =>
    (await sql<{ code: string }>`select rp.permission_code as code from role_permissions rp join roles r on r.id = rp.role_id where r.code = ${role}`.execute(db)).rows.map((r) => r.code);
  const scope = new Set<string>();
  const byPermission = new Map<string, Set<string>>();
  const permissions = new Set<string>();
  for (const a of held) {
    const reached = [a.organization_id, ...(a.inherits ? await childrenOf(a.organization_id) : [])];
    for (const id of reached) scope.add(id);
    for (const code of await permissionsOf(a.role)) {
      permissions.add(code);
      const set = byPermission.get(code) ?? new Set<string>();
      for (const id of reached) set.add(id);
      byPermission.set(code, set);
    }
  }
  const parentsOf = async (ids: Iterable<string>) => {
    const parents = new Set<string>();
    for (const id of ids) {
      const parent = await parentOf(id);
      if (parent) parents.add(parent);
    }
    return [...parents].sort();
  };
  const permissionScopes: Record<string, { organizationIds: string[]; parentIds: string[] }> = {};
  for (const [code, ids] of byPermission) permissionScopes[code] = { organizationIds: [...ids].sort(), parentIds: await parentsOf(ids) };
  return {
    ...base,
    permissions: [...permissions].sort(),
    scope: [...scope].sort(),
    parentIds: await parentsOf(scope),
    permissionScopes,
    roleCodes: [...new Set(held.map((a) => a.role))].sort(),
  };
}

/** An actor with its sets as sorted arrays, to compare. */
function comparable(actor: NonNullable<Awaited<ReturnType<typeof loadActor>>>) {
  const sorted = (set: ReadonlySet<string> | null) => (set === null ? null : [...set].sort());
  return {
    userId: actor.userId,
    email: actor.email,
    isActive: actor.isActive,
    userType: actor.userType,
    isBackOffice: actor.isBackOffice,
    permissions: sorted(actor.permissions),
    scope: sorted(actor.scope),
    parentIds: sorted(actor.parentIds),
    permissionScopes: actor.permissionScopes === null ? null : Object.fromEntries([...actor.permissionScopes].map(([code, reach]) => [code, { organizationIds: sorted(reach.organizationIds), parentIds: sorted(reach.parentIds) }])),
    roleCodes: sorted(actor.roleCodes),
  };
}

describe.each(backends)('loadActor on $name', (backend) => {
  let t: TestApp;
  const db = () => t.database.handle.db;

  beforeAll(async () => {
    t = await startTestApp(backend);
    const orgs = await demoOrganizations(t);
    const f = fixtures(db());
    const [siret1, siret2] = orgs.cliniqueSirets;
    // A SIREN with inheritance plus a SIRET of another company; a role without permissions beside one with.
    const mixed = await f.user({ organizationId: orgs.clinique.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: 'melange.acteur@exemple-test.fr' });
    const role = (code: string) => db().selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow();
    await db()
      .insertInto('role_assignments')
      .values([
        { user_id: mixed.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: (await role('COMPTABLE')).id, inherits_to_children: false },
        { user_id: mixed.id, organization_id: siret1!.id, role_id: (await role('GESTIONNAIRE_ALTERNANCE')).id, inherits_to_children: false },
      ])
      .execute();
    // A SIREN without inheritance and one of its SIRETs; a person with no role at all; an inactive one.
    const partial = await f.user({ organizationId: orgs.ehpad.id, roleCode: 'ADMIN_ADHERENT', email: 'partiel.acteur@exemple-test.fr' });
    await db().insertInto('role_assignments').values({ user_id: partial.id, organization_id: siret2!.id, role_id: (await role('DECIDEUR_SIGNATAIRE')).id, inherits_to_children: false }).execute();
    const bare = await f.user({ organizationId: orgs.ehpad.id, roleCode: 'COMPTABLE', email: 'sans.role.acteur@exemple-test.fr' });
    await db().deleteFrom('role_assignments').where('user_id', '=', bare.id).execute();
    await f.user({ organizationId: orgs.clinique.id, roleCode: 'ADMIN_ADHERENT', inherits: true, active: false, email: 'inactif.acteur@exemple-test.fr' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every account the rights the rules give it', async () => {
    const users = await db().selectFrom('users').select(['id', 'auth_id']).where('auth_id', 'is not', null).execute();
    expect(users.length).toBeGreaterThan(20);
    const seen = new Set<string>();
    for (const user of users) {
      const actor = await loadActor(db(), user.auth_id!);
      expect(actor).not.toBeNull();
      expect(comparable(actor!)).toEqual(await expectedRights(db(), user.id));
      seen.add(`${actor!.isBackOffice}/${actor!.permissions.size > 0}/${(actor!.scope?.size ?? 0) > 1}/${actor!.isActive}`);
    }
    // The cases above were all met: back office and not, with and without permissions, several organizations, inactive.
    for (const expected of ['true/true/false/true', 'false/true/true/true', 'false/false/false/true', 'false/true/true/false']) expect(seen).toContain(expected);
  });

  it('answers null for a subject no account has', async () => {
    expect(await loadActor(db(), 'sujet-inconnu')).toBeNull();
  });
});
