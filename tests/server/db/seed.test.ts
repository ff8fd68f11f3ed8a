import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidSiren, isValidSiret } from '../../../rules/codes.ts';
import { migrate } from '../../../server/db/migrate.ts';
import type { Database } from '../../../server/db/schema.ts';
import { expireDueRequests } from '../../../server/features/invitations/invitations-lifecycle.service.ts';
import { buildDemoPlan, DEMO_ACCOUNTS, DEMO_PASSWORD, REFERENCE_DATE, seedDemoData } from '../../../server/seed/seed.ts';
import { backends, createTestDatabase, secondsSince, snapshot, type TestDatabase } from './test-databases.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The moment the seed runs in these tests: the pending requests are dated before it. */
const SEED_NOW = new Date('2027-03-15T10:30:00Z');
const EXPIRY_DAYS = 30;

describe('the demo plan', () => {
  it('dates the pending requests relative to the moment the seed runs, and nothing else: the same plan shifted', () => {
    const later = new Date(SEED_NOW.getTime() + 40 * DAY);
    const first = buildDemoPlan({ now: SEED_NOW });
    const second = buildDemoPlan({ now: later });
    expect(second.users).toEqual(first.users);
    expect(second.employers).toEqual(first.employers);
    const pendingShifted = (plan: typeof first, shift: number) =>
      plan.invitations.map((i) => (i.status === 'PENDING' ? { ...i, createdAt: new Date(i.createdAt.getTime() + shift) } : i));
    expect(pendingShifted(first, 40 * DAY)).toEqual(second.invitations);
    expect(buildDemoPlan({ now: SEED_NOW })).toEqual(first);
  });

  it('makes every pending request 1 hour to 20 days before the seed runs: none expires within 10 days of a fresh start', () => {
    const pending = buildDemoPlan({ now: SEED_NOW }).invitations.filter((i) => i.status === 'PENDING');
    expect(pending.length).toBeGreaterThanOrEqual(8);
    for (const i of pending) {
      expect(SEED_NOW.getTime() - i.createdAt.getTime()).toBeGreaterThanOrEqual(HOUR - 1000);
      expect(SEED_NOW.getTime() - i.createdAt.getTime()).toBeLessThanOrEqual(20 * DAY);
      expect(i.createdAt.getTime() + EXPIRY_DAYS * DAY).toBeGreaterThanOrEqual(SEED_NOW.getTime() + 10 * DAY);
    }
  });

  it('dates the expired requests by the period it is given, before REFERENCE_DATE', () => {
    const expired = buildDemoPlan({ now: SEED_NOW, expiryDays: 45 }).invitations.filter((i) => i.status === 'EXPIRED');
    expect(expired.length).toBeGreaterThan(0);
    expect(expired.filter((i) => i.processedAt!.getTime() - i.createdAt.getTime() !== 45 * DAY || i.processedAt! > REFERENCE_DATE)).toEqual([]);
  });
});

async function freshSeededDatabase(backend: (typeof backends)[number]): Promise<TestDatabase> {
  const start = performance.now();
  const testDb = await createTestDatabase(backend);
  const opened = secondsSince(start);
  await migrate(testDb.handle);
  const migrated = secondsSince(start);
  const result = await seedDemoData(testDb.handle, { now: SEED_NOW });
  expect(result).toEqual({ seeded: true });
  console.info(`[seed.test] ${backend.name}: opened ${opened} s, migrated ${migrated} s, seeded ${secondsSince(start)} s (cumulative)`);
  return testDb;
}

async function assignmentsOf(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('role_assignments as ra')
    .innerJoin('users as u', 'u.id', 'ra.user_id')
    .innerJoin('organizations as o', 'o.id', 'ra.organization_id')
    .innerJoin('roles as r', 'r.id', 'ra.role_id')
    .leftJoin('organizations as p', 'p.id', 'o.parent_id')
    .where('u.email', '=', email)
    .select(['r.code as role', 'o.type', 'o.name', 'p.name as parentName', 'ra.inherits_to_children as inherits'])
    .orderBy('r.code')
    .execute();
}

describe.each(backends)('demo seed on $name', (backend) => {
  let testDb: TestDatabase;
  let db: Kysely<Database>;

  beforeAll(async () => {
    testDb = await freshSeededDatabase(backend);
    db = testDb.handle.db;
  }, 120_000);

  afterAll(async () => {
    await testDb?.dispose();
  });

  it('creates the six demo accounts with their user types, active flags and back-office permissions', async () => {
    const rows = await db
      .selectFrom('users')
      .select(['email', 'user_type', 'is_active'])
      .select((eb) =>
        eb
          .selectFrom('user_permissions')
          .whereRef('user_permissions.user_id', '=', 'users.id')
          .select(sql<string>`string_agg(permission_code, ',' order by permission_code)`.as('p'))
          .as('permissions'),
      )
      .where('email', 'like', '%@portail.test')
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      { email: 'admin.clinique@portail.test', user_type: 'ORGANIZATION', is_active: true, permissions: null },
      { email: 'admin.ehpad@portail.test', user_type: 'ORGANIZATION', is_active: true, permissions: null },
      {
        email: 'backoffice@portail.test',
        user_type: 'BACKOFFICE',
        is_active: true,
        permissions: 'B2C_USER_DISABLE,ORG_LIST,USER_CREATE,USER_DELETE,USER_LIST',
      },
      { email: 'inactif@portail.test', user_type: 'ORGANIZATION', is_active: false, permissions: null },
      { email: 'lecteur@portail.test', user_type: 'BACKOFFICE', is_active: true, permissions: 'USER_LIST' },
      { email: 'rh.clinique@portail.test', user_type: 'ORGANIZATION', is_active: true, permissions: null },
    ]);
    expect(DEMO_ACCOUNTS.map((account) => account.email).sort()).toEqual(rows.map((row) => row.email));
    expect(DEMO_ACCOUNTS.every((account) => account.password === DEMO_PASSWORD && account.label.length > 10)).toBe(true);
  });

  it('gives the demo organization accounts exactly their roles of demo-data.md, and the back office none', async () => {
    expect(await assignmentsOf(db, 'admin.clinique@portail.test')).toEqual([
      { role: 'ADMIN_ADHERENT', type: 'SIREN', name: 'Clinique des Tilleuls', parentName: null, inherits: true },
    ]);
    expect(await assignmentsOf(db, 'rh.clinique@portail.test')).toEqual([
      { role: 'RESSOURCE_HUMAINE', type: 'SIRET', name: expect.stringMatching(/^Clinique des Tilleuls - /), parentName: 'Clinique des Tilleuls', inherits: false },
    ]);
    expect(await assignmentsOf(db, 'admin.ehpad@portail.test')).toEqual([
      { role: 'ADMIN_ADHERENT', type: 'SIREN', name: 'EHPAD Les Glycines', parentName: null, inherits: true },
    ]);
    expect(await assignmentsOf(db, 'inactif@portail.test')).toEqual([
      { role: 'GESTIONNAIRE', type: 'SIRET', name: expect.stringMatching(/^EHPAD Les Glycines - /), parentName: 'EHPAD Les Glycines', inherits: false },
    ]);
    expect(await assignmentsOf(db, 'backoffice@portail.test')).toEqual([]);
    expect(await assignmentsOf(db, 'lecteur@portail.test')).toEqual([]);
  });

  it('seeds the five permissions, the eleven known roles and the role to permission mapping', async () => {
    const permissions = await db.selectFrom('permissions').select(['code', 'label']).orderBy('code').execute();
    expect(permissions.map((p) => p.code)).toEqual(['B2C_USER_DISABLE', 'ORG_LIST', 'USER_CREATE', 'USER_DELETE', 'USER_LIST']);
    expect(permissions.every((p) => p.label.trim().length > 5)).toBe(true);
    const roles = await db
      .selectFrom('roles')
      .select(['code', 'name', 'type', 'color'])
      .select((eb) =>
        eb
          .selectFrom('role_permissions')
          .whereRef('role_permissions.role_id', '=', 'roles.id')
          .select(sql<string>`string_agg(permission_code, ',' order by permission_code)`.as('p'))
          .as('permissions'),
      )
      .orderBy('code')
      .execute();
    const byCode = Object.fromEntries(
      roles.map((r) => [r.code, { type: r.type, permissions: r.permissions ?? '' }]),
    );
    expect(byCode).toEqual({
      ADHESION: { type: 'EXTERNAL', permissions: '' },
      ADMIN_ADHERENT: { type: 'INTERNAL', permissions: 'ORG_LIST,USER_CREATE,USER_LIST' },
      ADMIN_OPCO: { type: 'INTERNAL', permissions: '' },
      CABINET_COMPTABLE: { type: 'EXTERNAL', permissions: '' },
      CE_CSE_SIEGE: { type: 'EXTERNAL', permissions: '' },
      COMPTABLE: { type: 'EXTERNAL', permissions: '' },
      DECIDEUR_SIGNATAIRE: { type: 'EXTERNAL', permissions: '' },
      GESTIONNAIRE: { type: 'EXTERNAL', permissions: 'USER_LIST' },
      GESTIONNAIRE_ALTERNANCE: { type: 'EXTERNAL', permissions: '' },
      GESTIONNAIRE_ESAT: { type: 'EXTERNAL', permissions: '' },
      RESSOURCE_HUMAINE: { type: 'EXTERNAL', permissions: '' },
    });
    expect(roles.every((r) => r.name.trim().length > 3 && /^#[0-9A-Fa-f]{6}$/.test(r.color ?? ''))).toBe(true);
  });

  it('seeds about 30 SIRENs, including Clinique des Tilleuls and EHPAD Les Glycines, with valid codes', async () => {
    const sirens = await db.selectFrom('organizations').select(['id', 'code', 'name']).where('type', '=', 'SIREN').execute();
    expect(sirens.length).toBeGreaterThanOrEqual(25);
    expect(sirens.length).toBeLessThanOrEqual(35);
    expect(sirens.map((s) => s.name)).toEqual(expect.arrayContaining(['Clinique des Tilleuls', 'EHPAD Les Glycines']));
    expect(sirens.filter((s) => !isValidSiren(s.code))).toEqual([]);
  });

  it('gives every SIREN 1 to 12 SIRETs whose 14 digits pass Luhn and start with the SIREN', async () => {
    const sirets = await db
      .selectFrom('organizations as o')
      .innerJoin('organizations as p', 'p.id', 'o.parent_id')
      .select(['o.code', 'o.name', 'o.parent_code', 'p.code as parent', 'p.type as parentType', 'p.name as parentName'])
      .where('o.type', '=', 'SIRET')
      .execute();
    const total = await db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 'SIRET').executeTakeFirstOrThrow();
    expect(sirets).toHaveLength(total.n);
    const wrong = sirets.filter(
      (s) => !isValidSiret(s.code) || !s.code.startsWith(s.parent) || s.parent_code !== s.parent || s.parentType !== 'SIREN' || !s.name.startsWith(s.parentName),
    );
    expect(wrong).toEqual([]);
    const perSiren = new Map<string, number>();
    for (const s of sirets) perSiren.set(s.parent, (perSiren.get(s.parent) ?? 0) + 1);
    const sirenCount = await db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 'SIREN').executeTakeFirstOrThrow();
    expect(perSiren.size).toBe(sirenCount.n);
    expect([...perSiren.values()].every((n) => n >= 1 && n <= 12)).toBe(true);
  });

  it('seeds about 200 other users with 1 to 5 roles each, some inactive, some who never signed in', async () => {
    const users = await db
      .selectFrom('users')
      .select(['email', 'first_name', 'last_name', 'is_active', 'last_login_at', 'user_type', 'job_title', 'phone_number', 'postal_code', 'created_at'])
      .select((eb) =>
        eb.selectFrom('role_assignments').whereRef('role_assignments.user_id', '=', 'users.id').select((i) => i.fn.countAll<number>().as('n')).as('roles'),
      )
      .where('email', 'not like', '%@portail.test')
      .execute();
    expect(users.length).toBeGreaterThanOrEqual(180);
    expect(users.length).toBeLessThanOrEqual(220);
    expect(users.every((u) => u.user_type === 'ORGANIZATION' && u.roles !== null && u.roles >= 1 && u.roles <= 5)).toBe(true);
    const inactive = users.filter((u) => !u.is_active).length / users.length;
    const neverSignedIn = users.filter((u) => u.last_login_at === null).length / users.length;
    expect(inactive).toBeGreaterThan(0.05);
    expect(inactive).toBeLessThan(0.15);
    expect(neverSignedIn).toBeGreaterThan(0.1);
    expect(neverSignedIn).toBeLessThan(0.2);
    expect(users.every((u) => /^[a-z0-9.-]+@[a-z0-9-]+\.fr$/.test(u.email))).toBe(true);
    expect(users.some((u) => /[À-ÿ]/.test(`${u.first_name}${u.last_name}`))).toBe(true);
    expect(users.every((u) => u.job_title && u.job_title.length >= 2 && u.job_title.length <= 100)).toBe(true);
    expect(users.filter((u) => u.phone_number !== null && !/^0[1-9]( [0-9]{2}){4}$/.test(u.phone_number))).toEqual([]);
    expect(users.every((u) => u.postal_code === null || /^[0-9]{5}$/.test(u.postal_code))).toBe(true);
    expect(users.every((u) => u.created_at.getTime() <= REFERENCE_DATE.getTime())).toBe(true);
  });

  it('fills the personal fields of every user so that they pass the validation rules of spec §5', async () => {
    const users = await db.selectFrom('users').selectAll().execute();
    const name = /^[\p{L}' -]{2,}$/u;
    const jobTitle = /^[\p{L}0-9 '&./-]{2,100}$/u;
    const email = /^[A-Za-z0-9._%-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
    const phone = /^(\+33|0)[1-9][0-9]{8}$/;
    const problems = users.flatMap((u) =>
      [
        name.test(u.first_name) ? null : `first name ${u.first_name}`,
        name.test(u.last_name) ? null : `last name ${u.last_name}`,
        u.city === null || name.test(u.city) ? null : `city ${u.city}`,
        u.job_title === null || jobTitle.test(u.job_title) ? null : `job title ${u.job_title}`,
        email.test(u.email) ? null : `email ${u.email}`,
        ...[u.phone_number, u.mobile_phone].map((p) => (p === null || phone.test(p.replace(/\s/g, '')) ? null : `phone ${p}`)),
        u.postal_code === null || /^[0-9]{5}$/.test(u.postal_code) ? null : `postal code ${u.postal_code}`,
      ].filter((problem) => problem !== null),
    );
    expect(problems).toEqual([]);
  });

  it('puts at least 3 other people in each demo employer, one of them administrator of the clinic', async () => {
    const membersOf = async (sirenName: string) =>
      db
        .selectFrom('role_assignments as ra')
        .innerJoin('users as u', 'u.id', 'ra.user_id')
        .innerJoin('organizations as o', 'o.id', 'ra.organization_id')
        .innerJoin('organizations as s', (join) => join.on((eb) => eb.or([eb('s.id', '=', eb.ref('o.id')), eb('s.id', '=', eb.ref('o.parent_id'))])))
        .innerJoin('roles as r', 'r.id', 'ra.role_id')
        .where('s.name', '=', sirenName)
        .where('s.type', '=', 'SIREN')
        .where('u.email', 'not like', '%@portail.test')
        .select(['u.email', 'r.code as role', 'o.type'])
        .execute();
    const clinic = await membersOf('Clinique des Tilleuls');
    const ehpad = await membersOf('EHPAD Les Glycines');
    expect(new Set(clinic.map((m) => m.email)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(ehpad.map((m) => m.email)).size).toBeGreaterThanOrEqual(3);
    expect(clinic.some((m) => m.role === 'ADMIN_ADHERENT' && m.type === 'SIREN')).toBe(true);
  });

  it('seeds about 40 invitations over the 5 statuses and 2 types, each with the dates, people and reasons of its status', async () => {
    const invitations = await db.selectFrom('invitations').selectAll().orderBy('id').execute();
    expect(invitations.length).toBeGreaterThanOrEqual(35);
    expect(invitations.length).toBeLessThanOrEqual(45);
    const combinations = new Set(invitations.map((i) => `${i.status}/${i.invitation_type}`));
    expect([...combinations].sort()).toEqual([
      'APPROVED/NEW_ADMIN',
      'APPROVED/ROLE_ASSIGNMENT',
      'CANCELLED/NEW_ADMIN',
      'CANCELLED/ROLE_ASSIGNMENT',
      'EXPIRED/NEW_ADMIN',
      'EXPIRED/ROLE_ASSIGNMENT',
      'PENDING/NEW_ADMIN',
      'PENDING/ROLE_ASSIGNMENT',
      'REJECTED/NEW_ADMIN',
      'REJECTED/ROLE_ASSIGNMENT',
    ]);
    const count = (status: string) => invitations.filter((i) => i.status === status).length;
    expect(count('PENDING')).toBeGreaterThanOrEqual(8);
    expect([count('EXPIRED'), count('CANCELLED')].every((n) => n >= 2 && n <= 5)).toBe(true);
    expect(invitations.every((i) => typeof i.id === 'number')).toBe(true);
    for (const i of invitations) {
      expect(i.sender_email).toMatch(/@/);
      const decided = i.status === 'APPROVED' || i.status === 'REJECTED';
      expect(i.validator_email === null).toBe(!decided);
      if (i.status === 'PENDING') {
        // Made 1 hour to 20 days before the seed ran.
        expect(i.created_at.getTime()).toBeGreaterThanOrEqual(SEED_NOW.getTime() - 20 * DAY);
        expect(i.created_at.getTime()).toBeLessThanOrEqual(SEED_NOW.getTime() - HOUR + 1000);
        expect([i.processed_at, i.rejection_reason, i.cancelled_by_email, i.cancellation_reason]).toEqual([null, null, null, null]);
        continue;
      }
      expect(i.created_at.getTime()).toBeGreaterThanOrEqual(REFERENCE_DATE.getTime() - 60 * DAY);
      expect(i.processed_at!.getTime()).toBeGreaterThan(i.created_at.getTime());
      expect(i.processed_at!.getTime()).toBeLessThanOrEqual(REFERENCE_DATE.getTime());
      if (decided) expect(i.validator_email).toMatch(/@/);
      if (i.status === 'REJECTED') expect(i.rejection_reason!.trim().length).toBeGreaterThanOrEqual(10);
      else expect(i.rejection_reason).toBeNull();
      // Expired at the end of its period, INVITATION_EXPIRY_DAYS (30) after it was made.
      if (i.status === 'EXPIRED') expect(i.processed_at!.getTime() - i.created_at.getTime()).toBe(EXPIRY_DAYS * DAY);
      // Cancelled by the person who made it, within its period.
      if (i.status === 'CANCELLED') {
        expect([i.cancelled_by_user_id, i.cancelled_by_email]).toEqual([i.sender_user_id, i.sender_email]);
        expect(i.processed_at!.getTime() - i.created_at.getTime()).toBeLessThan(EXPIRY_DAYS * DAY);
      } else {
        expect([i.cancelled_by_user_id, i.cancelled_by_email, i.cancellation_reason]).toEqual([null, null, null]);
      }
    }
    const reasons = invitations.filter((i) => i.status === 'CANCELLED').map((i) => i.cancellation_reason);
    expect(reasons.filter((reason) => reason !== null)).toHaveLength(1);
    expect(reasons.filter((reason) => reason === null).length).toBeGreaterThanOrEqual(1);
    const senders = new Set(invitations.map((i) => i.sender_email));
    expect(senders.has('backoffice@portail.test')).toBe(true);
    expect(senders.has('admin.clinique@portail.test')).toBe(true);
    // Both demo administrators have a request of their own to follow, still pending.
    const pendingFrom = (email: string) => invitations.filter((i) => i.status === 'PENDING' && i.sender_email === email).length;
    expect(pendingFrom('admin.clinique@portail.test')).toBeGreaterThanOrEqual(1);
    expect(pendingFrom('admin.ehpad@portail.test')).toBeGreaterThanOrEqual(1);
  });

  it('leaves nothing for the expiry job to do during the 10 days after the seed ran', async () => {
    const tenDaysLater = new Date(SEED_NOW.getTime() + 10 * DAY);
    expect(await expireDueRequests(db, tenDaysLater, EXPIRY_DAYS)).toBe(0);
  });

  it('gives every user a local identity whose subject is the auth_id, and a password to the demo accounts only', async () => {
    const rows = await db
      .selectFrom('users as u')
      .leftJoin('identity_accounts as i', 'i.subject', 'u.auth_id')
      .select(['u.email', 'i.email as identityEmail', 'i.password_hash', 'i.enabled'])
      .execute();
    expect(rows.filter((r) => r.identityEmail !== r.email)).toEqual([]);
    const withPassword = rows.filter((r) => r.password_hash !== null).map((r) => r.email).sort();
    expect(withPassword).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    expect(rows.every((r) => r.enabled === true)).toBe(true);
    expect(rows.filter((r) => r.password_hash !== null).every((r) => /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/.test(r.password_hash!))).toBe(true);
  });

  it('adds nothing when run on a database that already has users', async () => {
    const before = await snapshot(db);
    expect(await seedDemoData(testDb.handle)).toEqual({ seeded: false });
    expect(await snapshot(db)).toEqual(before);
  });

  it('writes the same rows on two fresh databases', async () => {
    const other = await freshSeededDatabase(backend);
    try {
      expect(await snapshot(other.handle.db)).toEqual(await snapshot(db));
    } finally {
      await other.dispose();
    }
  }, 120_000);
});
