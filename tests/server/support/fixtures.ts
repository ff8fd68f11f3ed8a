import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db/schema.ts';

/** How many rows each of these tables holds, under the names given: to show what a call wrote, or that it wrote nothing. */
export async function countRows<K extends string>(db: Kysely<Database>, tables: Record<K, keyof Database>): Promise<Record<K, number>> {
  const counts = {} as Record<K, number>;
  for (const [name, table] of Object.entries(tables) as [K, keyof Database][]) {
    counts[name] = Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  }
  return counts;
}

/** Test data made directly in the database: each test makes its own, so that none depends on another's. */
export function fixtures(db: Kysely<Database>) {
  const organization = async (name: string, type: 'SIREN' | 'SIRET' = 'SIREN') =>
    db.selectFrom('organizations').selectAll().where('name', type === 'SIREN' ? '=' : 'like', type === 'SIREN' ? name : `${name}%`).where('type', '=', type).orderBy('code').executeTakeFirstOrThrow();

  const siretsOf = async (sirenId: string) => db.selectFrom('organizations').selectAll().where('parent_id', '=', sirenId).orderBy('code').execute();

  const role = async (code: string) => db.selectFrom('roles').selectAll().where('code', '=', code).executeTakeFirstOrThrow();

  /** A new organization user with one role on one organization, and an identity account. */
  async function user(options: { organizationId: string; roleCode: string; inherits?: boolean; active?: boolean; email?: string }) {
    const id = randomUUID();
    const subject = randomUUID();
    const email = options.email ?? `test.${id.slice(0, 8)}@exemple-test.fr`;
    const { id: roleId } = await role(options.roleCode);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('identity_accounts').values({ subject, email, display_name: 'Test Utilisateur', password_hash: null, enabled: true }).execute();
      await trx
        .insertInto('users')
        .values({ id, auth_id: subject, email, first_name: 'Test', last_name: `Utilisateur ${id.slice(0, 4)}`, user_type: 'ORGANIZATION', is_active: options.active ?? true, job_title: 'Testeur', postal_code: '75001', city: 'Paris', street: '1 rue du Test' })
        .execute();
      await trx.insertInto('role_assignments').values({ user_id: id, organization_id: options.organizationId, role_id: roleId, inherits_to_children: options.inherits ?? false }).execute();
    });
    return { id, email, subject };
  }

  /** A new PENDING invitation for a SIREN. */
  /** `senderEmail`: the account that made the request (default the back office's, not recorded as an account). */
  async function pendingInvitation(options: { sirenId: string; roleCode?: string; type?: 'NEW_ADMIN' | 'ROLE_ASSIGNMENT'; inviteeEmail?: string; senderEmail?: string }) {
    const org = await db.selectFrom('organizations').selectAll().where('id', '=', options.sirenId).executeTakeFirstOrThrow();
    const r = await role(options.roleCode ?? 'ADMIN_ADHERENT');
    const sender = options.senderEmail ? await db.selectFrom('users').select('id').where('email', '=', options.senderEmail).executeTakeFirstOrThrow() : null;
    const row = await db
      .insertInto('invitations')
      .values({
        invitee_email: options.inviteeEmail ?? `invite.${randomUUID().slice(0, 8)}@exemple-test.fr`,
        organization_id: org.id,
        organization_code: org.code,
        organization_name: org.name,
        role_id: r.id,
        role_code: r.code,
        role_name: r.name,
        invitation_type: options.type ?? 'NEW_ADMIN',
        sender_email: options.senderEmail ?? 'backoffice@portail.test',
        sender_user_id: sender?.id ?? null,
        metadata: JSON.stringify({ userProfile: { firstName: 'Nouvel', lastName: 'Administrateur', jobTitle: 'Directeur', phoneNumber: '', mobilePhone: '', street: '1 rue de la Paix', city: 'Paris', postalCode: '75002' }, isNewUser: true }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id };
  }

  return { organization, siretsOf, role, user, pendingInvitation };
}
