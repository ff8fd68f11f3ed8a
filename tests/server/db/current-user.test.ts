import type { Kysely, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCurrentUserBySubject } from '../../../server/features/session/current-user.repository.ts';
import { migrate } from '../../../server/db/migrate.ts';
import type { Database } from '../../../server/db/schema.ts';
import { seedDemoData } from '../../../server/seed/seed.ts';
import { backends, createTestDatabase, type TestDatabase } from './test-databases.ts';

async function userByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
}

async function organization(db: Kysely<Database>, name: string) {
  return db.selectFrom('organizations').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
}

async function role(db: Kysely<Database>, code: string) {
  return db.selectFrom('roles').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
}

/** Counts the statements sent through the returned instance. */
function counting(db: Kysely<Database>) {
  const counter = { statements: 0 };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      counter.statements += 1;
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), counter };
}

describe.each(backends)('loadCurrentUserBySubject on $name', (backend) => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;

  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    await migrate(testDb.handle);
    await seedDemoData(testDb.handle);
    db = testDb.handle.db;
  }, 120_000);

  afterAll(async () => {
    await testDb?.dispose();
  });

  it('gives the back-office account its own five permissions and no organization', async () => {
    const row = await userByEmail(db, 'backoffice@portail.test');
    expect(await loadCurrentUserBySubject(db, row.auth_id!)).toEqual({
      id: row.id,
      authId: row.auth_id,
      email: 'backoffice@portail.test',
      firstName: row.first_name,
      lastName: row.last_name,
      isActive: true,
      userType: 'BACKOFFICE',
      permissions: [{ code: 'B2C_USER_DISABLE' }, { code: 'ORG_LIST' }, { code: 'USER_CREATE' }, { code: 'USER_DELETE' }, { code: 'USER_LIST' }],
      organizations: [],
      lastLoginAt: row.last_login_at!.toISOString(),
      pendingEmail: null,
    });
  });

  it("gives the clinic's administrator the permissions of ADMIN_ADHERENT and the SIREN, inherited by its SIRETs", async () => {
    const row = await userByEmail(db, 'admin.clinique@portail.test');
    const clinic = await organization(db, 'Clinique des Tilleuls');
    const admin = await role(db, 'ADMIN_ADHERENT');
    const permissions = [{ code: 'ORG_LIST' }, { code: 'USER_CREATE' }, { code: 'USER_LIST' }];
    expect(await loadCurrentUserBySubject(db, row.auth_id!)).toEqual({
      id: row.id,
      authId: row.auth_id,
      email: 'admin.clinique@portail.test',
      firstName: row.first_name,
      lastName: row.last_name,
      isActive: true,
      userType: 'ORGANIZATION',
      permissions,
      organizations: [
        {
          id: clinic.id,
          code: clinic.code,
          name: 'Clinique des Tilleuls',
          type: 'SIREN',
          parentCode: null,
          inheritsToChildren: true,
          role: { id: admin.id, code: 'ADMIN_ADHERENT', name: admin.name, type: 'INTERNAL', permissions },
        },
      ],
      lastLoginAt: row.last_login_at!.toISOString(),
      pendingEmail: null,
    });
  });

  it('gives the clinic HR person one SIRET with its parent code and no permission', async () => {
    const row = await userByEmail(db, 'rh.clinique@portail.test');
    const clinic = await organization(db, 'Clinique des Tilleuls');
    const user = await loadCurrentUserBySubject(db, row.auth_id!);
    expect(user?.permissions).toEqual([]);
    expect(user?.organizations).toEqual([
      {
        id: expect.any(String),
        code: expect.stringMatching(new RegExp(`^${clinic.code}[0-9]{5}$`)),
        name: expect.stringMatching(/^Clinique des Tilleuls - /),
        type: 'SIRET',
        parentCode: clinic.code,
        inheritsToChildren: false,
        role: { id: expect.any(Number), code: 'RESSOURCE_HUMAINE', name: 'Ressources humaines', type: 'EXTERNAL', permissions: [] },
      },
    ]);
  });

  it('returns an inactive user, marked inactive, with the permissions of GESTIONNAIRE', async () => {
    const row = await userByEmail(db, 'inactif@portail.test');
    const user = await loadCurrentUserBySubject(db, row.auth_id!);
    expect(user?.isActive).toBe(false);
    expect(user?.permissions).toEqual([{ code: 'USER_LIST' }]);
  });

  it('gives the sorted union of the permissions of all roles, one organization entry per assignment', async () => {
    const gestionnaire = await role(db, 'GESTIONNAIRE');
    const admin = await role(db, 'ADMIN_ADHERENT');
    // Someone holding both GESTIONNAIRE (USER_LIST) and ADMIN_ADHERENT (USER_LIST, USER_CREATE, ORG_LIST).
    const holder = await db
      .selectFrom('users as u')
      .select(['u.auth_id'])
      .where((eb) => eb.exists(eb.selectFrom('role_assignments').whereRef('user_id', '=', 'u.id').where('role_id', '=', admin.id)))
      .where((eb) => eb.exists(eb.selectFrom('role_assignments').whereRef('user_id', '=', 'u.id').where('role_id', '=', gestionnaire.id)))
      .executeTakeFirstOrThrow();
    const user = await loadCurrentUserBySubject(db, holder.auth_id!);
    const assignments = await db
      .selectFrom('role_assignments')
      .innerJoin('users', 'users.id', 'role_assignments.user_id')
      .where('users.auth_id', '=', holder.auth_id)
      .select('role_id')
      .execute();
    expect(user?.organizations).toHaveLength(assignments.length);
    expect(user?.permissions).toEqual([{ code: 'ORG_LIST' }, { code: 'USER_CREATE' }, { code: 'USER_LIST' }]);
  });

  it('answers lastLoginAt null for someone who never signed in', async () => {
    const row = await db.selectFrom('users').select('auth_id').where('last_login_at', 'is', null).executeTakeFirstOrThrow();
    expect((await loadCurrentUserBySubject(db, row.auth_id!))?.lastLoginAt).toBeNull();
  });

  it('answers null for an unknown subject', async () => {
    expect(await loadCurrentUserBySubject(db, 'no-such-subject')).toBeNull();
  });

  it('sends at most 3 statements, whatever the number of assignments', async () => {
    const busiest = await db
      .selectFrom('role_assignments')
      .innerJoin('users', 'users.id', 'role_assignments.user_id')
      .select(['users.auth_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('users.auth_id')
      .orderBy('n', 'desc')
      .executeTakeFirstOrThrow();
    expect(busiest.n).toBeGreaterThanOrEqual(5);
    for (const subject of [busiest.auth_id!, (await userByEmail(db, 'backoffice@portail.test')).auth_id!]) {
      const { db: counted, counter } = counting(db);
      await loadCurrentUserBySubject(counted, subject);
      expect(counter.statements).toBeGreaterThanOrEqual(2); // the counter sees them
      expect(counter.statements).toBeLessThanOrEqual(3);
    }
  });
});
