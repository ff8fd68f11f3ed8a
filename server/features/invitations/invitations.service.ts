// The writes of invitations: creation, approval, rejection. Each is one transaction holding its audit
// entries and its e-mails (outbox); a failure leaves no trace. A decision is a conditional UPDATE
// (… WHERE status = 'PENDING'): of two deciders, on one process or several, exactly one wins.
import { sql, type Kysely, type Transaction } from 'kysely';
import { writeAudit, writeAudits } from '../audit/audit.repository.ts';
import type { Database, InvitationRow, InvitationType, JsonValue } from '../../db/schema.ts';
import type { OrganizationRef, RoleRef } from './invitations.repository.ts';
import { IdentityTakenError, type IdentityDirectory } from '../../identity/directory.ts';
import { enqueueMail, logQueuedMails, type QueuedMail } from '../../mail/outbox.ts';
import { accountInvitationMail, invitationApprovedMail, invitationRejectedMail, type InvitationMailInput } from '../../mail/templates.ts';
import { requireInviteeNotBackOffice } from './invitations.policy.ts';
import { INPUT_MESSAGES, MAX_ROLES_PER_USER } from '../users/users.input.ts';

/** A refusal the caller answers as 404 or 409 with this French message. */
export class InvitationRefusal extends Error {
  readonly kind: 'notFound' | 'conflict';
  constructor(kind: 'notFound' | 'conflict', message: string) {
    super(message);
    this.name = 'InvitationRefusal';
    this.kind = kind;
  }
}

export const REFUSALS = {
  notFound: 'Aucune invitation trouvée.',
  alreadyDecided: 'Cette demande a déjà été traitée.',
  // The SPA recognises 'déjà en attente' and 'already exists' (spec §8).
  duplicatePending:
    'Une invitation est déjà en attente pour cette combinaison (email, organisation, rôle). An invitation already exists for this combination.',
  organizationGone: "L'organisation de cette demande n'existe plus : la demande ne peut pas être approuvée.",
  roleGone: "Le rôle de cette demande n'existe plus : la demande ne peut pas être approuvée.",
  noAccount: (email: string) =>
    `Aucun compte n'existe pour « ${email} » : le rôle ne peut pas être attribué. Approuvez d'abord sa demande d'administrateur, ou rejetez cette demande.`,
  noName: (email: string) => `La demande ne donne ni le prénom ni le nom de « ${email} » : son compte ne peut pas être créé.`,
  emailTaken: (email: string) => `Un compte vient d'être créé pour « ${email} » par ailleurs ; réessayez.`,
} as const;

export interface Decider {
  userId: string;
  email: string;
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23505' && e.constraint === constraint;
}

// ---------------------------------------------------------------------------------------------
// Creation

export interface UserProfileInput {
  firstName?: string | null;
  lastName?: string | null;
  phoneNumber?: string | null;
  jobTitle?: string | null;
  mobilePhone?: string | null;
  street?: string | null;
  city?: string | null;
  postalCode?: string | null;
}

export interface NewInvitationInput {
  inviteeEmail: string;
  invitationType: InvitationType;
  organization: OrganizationRef;
  role: RoleRef;
  sender: Decider;
  /** Kept as given (informative; an approval creating an account reads userProfile from it). */
  metadata: { userProfile?: UserProfileInput; isNewUser?: boolean; senderEmail?: string | null } | null;
}

export async function createInvitation(db: Kysely<Database>, input: NewInvitationInput): Promise<InvitationRow> {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('invitations')
        .values({
          invitee_email: input.inviteeEmail.trim(),
          organization_id: input.organization.id,
          organization_code: input.organization.code,
          organization_name: input.organization.name,
          role_id: input.role.id,
          role_code: input.role.code,
          role_name: input.role.name,
          invitation_type: input.invitationType,
          sender_user_id: input.sender.userId,
          sender_email: input.sender.email,
          metadata: input.metadata ? JSON.stringify(input.metadata) : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeAudit(trx, {
        actor: input.sender,
        action: 'invitation.create',
        entityType: 'invitation',
        entityId: row.id,
        organizationId: row.organization_id,
        changes: {
          inviteeEmail: row.invitee_email,
          invitationType: row.invitation_type,
          organizationCode: row.organization_code,
          roleCode: row.role_code,
        },
      });
      return row;
    });
  } catch (error) {
    // Two requests at the same moment: the partial unique index lets one through.
    if (isUniqueViolation(error, 'invitations_one_pending_key')) throw new InvitationRefusal('conflict', REFUSALS.duplicatePending);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Decisions

/** Why a conditional decision matched no row: none with that id, or it is no longer pending. */
async function refusalFor(trx: Transaction<Database>, id: number): Promise<InvitationRefusal> {
  const row = await trx.selectFrom('invitations').select('status').where('id', '=', id).executeTakeFirst();
  return row ? new InvitationRefusal('conflict', REFUSALS.alreadyDecided) : new InvitationRefusal('notFound', REFUSALS.notFound);
}

function decide(trx: Transaction<Database>, id: number, decider: Decider, values: { status: 'APPROVED' } | { status: 'REJECTED'; rejection_reason: string }) {
  return trx
    .updateTable('invitations')
    .set({
      ...values,
      validator_user_id: decider.userId,
      validator_email: decider.email,
      // Never before the request (invitations_processed_after_created), whatever the clocks.
      processed_at: sql<Date>`greatest(now(), created_at)`,
    })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .returningAll()
    .executeTakeFirst();
}

function mailInput(row: InvitationRow): InvitationMailInput {
  return {
    senderEmail: row.sender_email,
    inviteeEmail: row.invitee_email,
    invitationId: row.id,
    invitationType: row.invitation_type,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    roleName: row.role_name,
  };
}

/** The invitation's organization (by id) and role (by id, else by its code), in one statement; missing ones null. */
async function organizationAndRole(trx: Transaction<Database>, row: InvitationRow) {
  const { rows } = await sql<{ o_id: string | null; o_code: string; o_name: string; o_type: 'SIREN' | 'SIRET'; r_id: number | null; r_code: string; r_name: string }>`
    select o.id as o_id, o.code as o_code, o.name as o_name, o.type as o_type, r.id as r_id, r.code as r_code, r.name as r_name
    from (select 1) as one
    left join organizations as o on o.id = ${row.organization_id}
    left join lateral (
      (select id, code, name from roles where id = ${row.role_id}) union all (select id, code, name from roles where code = ${row.role_code}) limit 1
    ) as r on true`.execute(trx);
  const found = rows[0]!;
  return {
    organization: found.o_id === null ? null : { id: found.o_id, code: found.o_code, name: found.o_name, type: found.o_type },
    role: found.r_id === null ? null : { id: found.r_id, code: found.r_code, name: found.r_name },
  };
}

export interface ApprovalContext {
  decider: Decider;
  directory: IdentityDirectory;
  /** The set-up link of a new account's e-mail (accountSetupUrl of server/dev-idp/account-setup.ts). */
  setupUrl: (subject: string) => string;
}

export interface ApprovalResult {
  row: InvitationRow;
  userId: string;
  userCreated: boolean;
}

function profileOf(metadata: JsonValue | null): UserProfileInput {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const profile = metadata.userProfile;
  if (!profile || typeof profile !== 'object' || Array.isArray(profile)) return {};
  const text = (value: JsonValue | undefined) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  return {
    firstName: text(profile.firstName),
    lastName: text(profile.lastName),
    phoneNumber: text(profile.phoneNumber),
    jobTitle: text(profile.jobTitle),
    mobilePhone: text(profile.mobilePhone),
    street: text(profile.street),
    city: text(profile.city),
    postalCode: text(profile.postalCode),
  };
}

/**
 * Approves a pending invitation: gives its role on its organization to the invitee (inherited by the
 * SIRETs when the organization is a SIREN). A NEW_ADMIN for an email without an account first creates
 * the account (portal user from metadata.userProfile, identity-provider account, set-up e-mail);
 * a ROLE_ASSIGNMENT needs an existing account. The requester is told by e-mail.
 */
export async function approveInvitation(db: Kysely<Database>, id: number, context: ApprovalContext): Promise<ApprovalResult> {
  const { decider, directory } = context;
  let createdSubject: string | null = null;
  const queued: QueuedMail[] = [];
  try {
    const approved = await db.transaction().execute(async (trx) => {
      const row = await decide(trx, id, decider, { status: 'APPROVED' });
      if (!row) throw await refusalFor(trx, id);

      const { organization, role } = await organizationAndRole(trx, row);
      if (!organization) throw new InvitationRefusal('conflict', REFUSALS.organizationGone);
      if (!role) throw new InvitationRefusal('conflict', REFUSALS.roleGone);

      const email = row.invitee_email;
      // Locked: the account cannot be deleted or changed under this approval.
      let user = await trx
        .selectFrom('users')
        .select(['id', 'user_type', 'first_name', 'last_name'])
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .forUpdate()
        .executeTakeFirst();
      const inherits = organization.type === 'SIREN';
      const grant = { organizationId: organization.id, organizationCode: organization.code, roleCode: role.code, inheritsToChildren: inherits };
      let userCreated = false;

      if (!user) {
        if (row.invitation_type !== 'NEW_ADMIN') throw new InvitationRefusal('conflict', REFUSALS.noAccount(email));
        const profile = profileOf(row.metadata);
        if (!profile.firstName || !profile.lastName) throw new InvitationRefusal('conflict', REFUSALS.noName(email));
        user = await trx
          .insertInto('users')
          .values({
            email,
            first_name: profile.firstName,
            last_name: profile.lastName,
            job_title: profile.jobTitle ?? null,
            phone_number: profile.phoneNumber ?? null,
            mobile_phone: profile.mobilePhone ?? null,
            street: profile.street ?? null,
            postal_code: profile.postalCode ?? null,
            city: profile.city ?? null,
            user_type: 'ORGANIZATION',
          })
          .returning(['id', 'user_type', 'first_name', 'last_name'])
          .executeTakeFirstOrThrow();
        userCreated = true;
      } else {
        requireInviteeNotBackOffice(user.user_type, email);
      }

      // Approving what is already held changes nothing but may widen it to the SIRETs.
      const given = (qc: typeof trx) =>
        qc
          .insertInto('role_assignments')
          .values({ user_id: user.id, organization_id: organization.id, role_id: role.id, inherits_to_children: inherits })
          .onConflict((oc) =>
            oc.columns(['user_id', 'organization_id', 'role_id']).doUpdateSet({
              inherits_to_children: sql<boolean>`role_assignments.inherits_to_children or excluded.inherits_to_children`,
            }),
          );
      if (userCreated) await given(trx).execute();
      else {
        // Spec §5 / §9: at most 5 distinct roles, counted with the one just given (the statement does not see
        // its own insert: the roles held before, and the one it returns); the user's version bumped with it.
        const held = await trx
          .with('given', (qc) => given(qc as unknown as typeof trx).returning('role_id'))
          .with('bumped', (qc) => qc.updateTable('users').set({ version: sql<number>`version + 1`, updated_at: sql<Date>`now()` }).where('id', '=', user.id).returning('id'))
          .selectFrom((eb) =>
            eb
              .selectFrom('role_assignments')
              .select('role_assignments.role_id')
              .where('role_assignments.user_id', '=', user.id)
              .unionAll(eb.selectFrom('given').select('given.role_id'))
              .as('held'),
          )
          .select((eb) => eb.fn.count<number>('held.role_id').distinct().as('roles'))
          .executeTakeFirstOrThrow();
        if (Number(held.roles) > MAX_ROLES_PER_USER) throw new InvitationRefusal('conflict', INPUT_MESSAGES.tooManyRoles);
      }
      await writeAudits(trx, [
        userCreated
          ? {
              actor: decider,
              action: 'user.create',
              entityType: 'user',
              entityId: user.id,
              organizationId: organization.id,
              changes: { email, firstName: user.first_name, lastName: user.last_name, userType: 'ORGANIZATION', roles: [grant], invitationId: row.id },
            }
          : { actor: decider, action: 'user.roles', entityType: 'user', entityId: user.id, organizationId: organization.id, changes: { added: [grant], invitationId: row.id } },
        {
          actor: decider,
          action: 'invitation.approve',
          entityType: 'invitation',
          entityId: row.id,
          organizationId: row.organization_id,
          changes: { status: { before: 'PENDING', after: 'APPROVED' }, userId: user.id, userCreated },
        },
      ]);
      await enqueueMail(trx, invitationApprovedMail(mailInput(row)), queued);

      if (userCreated) {
        // The identity provider last: a remote directory cannot join this transaction (see directory.ts).
        const { subject, reused } = await directory.createAccount(trx, { email, displayName: `${user.first_name} ${user.last_name}` });
        if (!reused) createdSubject = subject;
        await trx.updateTable('users').set({ auth_id: subject }).where('id', '=', user.id).execute();
        await enqueueMail(trx, accountInvitationMail({ email, firstName: user.first_name, lastName: user.last_name, setupUrl: context.setupUrl(subject) }), queued);
      }
      return { row, userId: user.id, userCreated };
    });
    logQueuedMails(queued);
    return approved;
  } catch (error) {
    // A remote account made for a transaction that did not commit is undone (never a reused one); the local one rolled back with it.
    if (createdSubject && directory.kind !== 'local') await directory.deleteAccount(db, createdSubject).catch(() => undefined);
    // Another approval or creation took the reused identity at the same moment.
    if (isUniqueViolation(error, 'users_auth_id_key')) throw new IdentityTakenError('Un utilisateur du portail détient déjà ce compte de connexion.', { cause: error });
    if (isUniqueViolation(error, 'users_email_lower_key')) {
      const row = await db.selectFrom('invitations').select('invitee_email').where('id', '=', id).executeTakeFirst();
      throw new InvitationRefusal('conflict', REFUSALS.emailTaken(row?.invitee_email ?? ''));
    }
    throw error;
  }
}

/** Rejects a pending invitation with its reason (already checked and trimmed); the requester is told by e-mail. */
export async function rejectInvitation(db: Kysely<Database>, id: number, reason: string, decider: Decider): Promise<InvitationRow> {
  const queued: QueuedMail[] = [];
  const rejected = await db.transaction().execute(async (trx) => {
    const row = await decide(trx, id, decider, { status: 'REJECTED', rejection_reason: reason });
    if (!row) throw await refusalFor(trx, id);
    await writeAudit(trx, {
      actor: decider,
      action: 'invitation.reject',
      entityType: 'invitation',
      entityId: row.id,
      organizationId: row.organization_id,
      changes: { status: { before: 'PENDING', after: 'REJECTED' }, rejectionReason: reason },
    });
    await enqueueMail(trx, invitationRejectedMail({ ...mailInput(row), rejectionReason: reason }), queued);
    return row;
  });
  logQueuedMails(queued);
  return rejected;
}
