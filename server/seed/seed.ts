// Loads the demo data of docs/demo-data.md into an empty database, in one transaction.
import { sql, type Transaction } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import { hashPassword } from '../identity/passwords.ts';
import type { Database } from '../db/schema.ts';
import { DEMO_PASSWORD, PERMISSIONS, ROLES } from './seed-data.ts';
import { buildDemoPlan, roleName, type DemoPlanOptions } from './seed-plan.ts';

export { DEMO_PASSWORD, REFERENCE_DATE } from './seed-data.ts';
export { buildDemoPlan, stableUuid, type DemoPlanOptions } from './seed-plan.ts';

export interface DemoAccount {
  email: string;
  password: string;
  /** Who it is, in French, for the start script and the local sign-in page. */
  label: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'backoffice@portail.test',
    password: DEMO_PASSWORD,
    label: 'Back-office : tous les droits, dont la suppression définitive',
  },
  {
    email: 'lecteur@portail.test',
    password: DEMO_PASSWORD,
    label: 'Back-office en lecture : liste des utilisateurs et des demandes, sans création ni suppression',
  },
  {
    email: 'admin.clinique@portail.test',
    password: DEMO_PASSWORD,
    label: 'Administrateur adhérent de la Clinique des Tilleuls (tous ses établissements)',
  },
  {
    email: 'rh.clinique@portail.test',
    password: DEMO_PASSWORD,
    label: "Ressources humaines sur un établissement de la Clinique des Tilleuls, sans accès à la liste des utilisateurs",
  },
  {
    email: 'admin.ehpad@portail.test',
    password: DEMO_PASSWORD,
    label: "Administrateur adhérent de l'EHPAD Les Glycines",
  },
  {
    email: 'inactif@portail.test',
    password: DEMO_PASSWORD,
    label: "Compte désactivé (EHPAD Les Glycines) : le portail refuse l'accès",
  },
];

// ---------------------------------------------------------------------------------------------
// Loading.

const SEED_LOCK_KEY = 4_870_231_378;

export interface SeedResult {
  /** False when the database already had users: nothing was written. */
  seeded: boolean;
}

function chunks<T>(rows: readonly T[], size = 250): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < rows.length; i += size) result.push(rows.slice(i, i + size));
  return result;
}

/**
 * Permissions, roles and their mapping: inserts what is missing. A deployment without demo data needs
 * them too; they live here until they move to a migration.
 */
export async function seedReferenceData(trx: Transaction<Database>): Promise<Map<string, number>> {
  await trx.insertInto('permissions').values([...PERMISSIONS]).onConflict((oc) => oc.column('code').doNothing()).execute();
  await trx
    .insertInto('roles')
    .values(ROLES.map(({ code, name, type, color }) => ({ code, name, type, color })))
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  const roles = await trx.selectFrom('roles').select(['id', 'code']).execute();
  const roleIds = new Map(roles.map((role) => [role.code, role.id]));
  const mapping = ROLES.flatMap((role) =>
    role.permissions.map((permission) => ({ role_id: roleIds.get(role.code) as number, permission_code: permission })),
  );
  if (mapping.length > 0) {
    await trx.insertInto('role_permissions').values(mapping).onConflict((oc) => oc.doNothing()).execute();
  }
  return roleIds;
}

/**
 * Loads the demo data into a database without users; does nothing (seeded: false) otherwise. `options.now` (the
 * clock by default) dates the pending requests; tests pass a fixed one.
 */
export async function seedDemoData(handle: Pick<DatabaseHandle, 'db'>, options: DemoPlanOptions = {}): Promise<SeedResult> {
  // The usual case at start-up: already seeded. Answer before hashing anything.
  if (await handle.db.selectFrom('users').select('id').limit(1).executeTakeFirst()) return { seeded: false };
  const plan = buildDemoPlan(options);
  const passwordHashes = new Map(
    await Promise.all(
      plan.users.filter((user) => user.hasPassword).map(async (user) => [user.email, await hashPassword(DEMO_PASSWORD)] as const),
    ),
  );

  return handle.db.transaction().execute(async (trx) => {
    // Two processes starting on one empty database: the second waits here, then finds the users.
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY}::bigint)`.execute(trx);
    const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return { seeded: false };

    const roleIds = await seedReferenceData(trx);
    const roleId = (code: string) => {
      const id = roleIds.get(code);
      if (id === undefined) throw new Error(`role ${code} missing`);
      return id;
    };

    const sirens = plan.employers.map((e) => ({ id: e.id, code: e.code, name: e.seed.name, type: 'SIREN' as const, parent_id: null, parent_code: null }));
    const sirets = plan.employers.flatMap((e) =>
      e.sites.map((site) => ({ id: site.id, code: site.code, name: site.name, type: 'SIRET' as const, parent_id: e.id, parent_code: e.code })),
    );
    for (const chunk of chunks(sirens)) await trx.insertInto('organizations').values(chunk).execute();
    for (const chunk of chunks(sirets)) await trx.insertInto('organizations').values(chunk).execute();

    const users = plan.users.map((u) => ({
      id: u.id,
      auth_id: u.authId,
      email: u.email,
      first_name: u.firstName,
      last_name: u.lastName,
      job_title: u.jobTitle,
      phone_number: u.phoneNumber,
      mobile_phone: u.mobilePhone,
      street: u.street,
      postal_code: u.postalCode,
      city: u.city,
      metadata: null,
      user_type: u.userType,
      is_active: u.isActive,
      last_login_at: u.lastLoginAt,
      created_at: u.createdAt,
      updated_at: u.updatedAt,
    }));
    for (const chunk of chunks(users)) await trx.insertInto('users').values(chunk).execute();

    const userPermissions = plan.users.flatMap((u) => u.permissions.map((code) => ({ user_id: u.id, permission_code: code })));
    for (const chunk of chunks(userPermissions)) await trx.insertInto('user_permissions').values(chunk).execute();

    const assignments = plan.users.flatMap((u) =>
      u.assignments.map((a) => ({
        id: a.id,
        user_id: u.id,
        organization_id: a.organizationId,
        role_id: roleId(a.roleCode),
        inherits_to_children: a.inheritsToChildren,
        created_at: a.grantedAt ?? u.createdAt,
      })),
    );
    for (const chunk of chunks(assignments)) await trx.insertInto('role_assignments').values(chunk).execute();

    const identities = plan.users.map((u) => ({
      subject: u.authId,
      email: u.email,
      display_name: `${u.firstName} ${u.lastName}`,
      password_hash: passwordHashes.get(u.email) ?? null,
      enabled: true,
      created_at: u.createdAt,
    }));
    for (const chunk of chunks(identities)) await trx.insertInto('identity_accounts').values(chunk).execute();

    const invitations = plan.invitations.map((i) => ({
      invitee_email: i.inviteeEmail,
      organization_id: i.organizationId,
      organization_code: i.organizationCode,
      organization_name: i.organizationName,
      role_id: roleId(i.roleCode),
      role_code: i.roleCode,
      role_name: roleName(i.roleCode),
      status: i.status,
      invitation_type: i.invitationType,
      sender_user_id: i.senderUserId,
      sender_email: i.senderEmail,
      validator_user_id: i.validatorUserId,
      validator_email: i.validatorEmail,
      rejection_reason: i.rejectionReason,
      cancelled_by_user_id: i.cancelledByUserId,
      cancelled_by_email: i.cancelledByEmail,
      cancellation_reason: i.cancellationReason,
      metadata: JSON.stringify(i.metadata),
      created_at: i.createdAt,
      processed_at: i.processedAt,
    }));
    for (const chunk of chunks(invitations)) await trx.insertInto('invitations').values(chunk).execute();

    return { seeded: true };
  });
}
