// Values that reach the handlers: ids and codes of the seeded rows (users, invitations, organizations,
// roles), those within the persona's reach first, and field values the server's own rules accept. Rows are
// added: a pending e-mail change of someone else, whose link's token the persona may not use, and a job of an
// action on many users started by the persona and one by someone else (only its starter reads a job).
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db/schema.ts';
import { OMIT, type Hint, type Hints } from './values.ts';

interface Near<T> {
  near: T[];
  far: T[];
}

export interface RealRows {
  users: Near<string>;
  emails: string[];
  organizations: Near<{ id: string; code: string; type: string }>;
  invitations: number[];
  /** Near: those the persona may assign (all for the back office; EXTERNAL ones and ADMIN_ADHERENT otherwise). */
  roles: Near<{ id: number; code: string }>;
  /** The token of a good e-mail confirmation link of another person (confirmEmailChange refuses it to the persona: 403). */
  emailChangeTokens: string[];
  /** Near: a job of an action on many users the persona started; far: someone else's. */
  bulkActions: Near<string>;
}

/**
 * The seeded rows, in a stable order (by email, code or number): ids differ between runs, positions do not.
 * `near`: within the persona's organizations (everything for a back-office persona). The accounts of the
 * fuzz's personas are left out, but for the persona itself: a back-office run must not deactivate the
 * organization persona of another run, and the refusals about oneself are worth reaching.
 */
export async function realRows(db: Kysely<Database>, personaEmail: string, personaEmails: readonly string[]): Promise<RealRows> {
  const me = await db.selectFrom('users').select(['id', 'user_type']).where('email', '=', personaEmail).executeTakeFirstOrThrow();
  const organizations = await db.selectFrom('organizations').select(['id', 'code', 'type', 'parent_id']).orderBy('code').execute();
  const assignments = await db.selectFrom('role_assignments').select(['user_id', 'organization_id', 'inherits_to_children']).execute();
  const users = await db.selectFrom('users').select(['id', 'email']).orderBy('email').execute();
  const invitations = await db.selectFrom('invitations').select('id').orderBy('id').execute();
  const roles = await db.selectFrom('roles').select(['id', 'code', 'type']).orderBy('id').execute();

  // A pending address of someone who is not a persona, and the token of its link: a good link, but not the persona's.
  const someone = users.find((u) => !personaEmails.includes(u.email))!;
  const emailChangeToken = randomBytes(32).toString('base64url');
  const pendingEmail = `confirmation.${someone.id.slice(0, 8)}@fuzz.exemple.fr`;
  await db.updateTable('users').set({ pending_email: pendingEmail }).where('id', '=', someone.id).execute();
  await db
    .insertInto('email_change_tokens')
    .values({ token_hash: createHash('sha256').update(emailChangeToken).digest('hex'), user_id: someone.id, email: pendingEmail, expires_at: new Date(Date.now() + 24 * 3600_000) })
    .execute();

  // Two jobs without persons (nothing for a worker to do): the persona's, and someone else's.
  const job = (actor: string) => db.insertInto('bulk_actions').values({ actor_user_id: actor, action: 'deactivate', total: 0 }).returning('id').executeTakeFirstOrThrow();
  const bulkActions = { near: [(await job(me.id)).id], far: [(await job(someone.id)).id] };

  const mine = assignments.filter((a) => a.user_id === me.id);
  const inherited = new Set(mine.filter((a) => a.inherits_to_children).map((a) => a.organization_id));
  const reach = new Set([...mine.map((a) => a.organization_id), ...organizations.filter((o) => o.parent_id && inherited.has(o.parent_id)).map((o) => o.id)]);
  const isNear = me.user_type === 'BACKOFFICE' ? () => true : (organizationId: string) => reach.has(organizationId);
  const nearUsers = new Set(assignments.filter((a) => isNear(a.organization_id)).map((a) => a.user_id));
  const others = users.filter((u) => u.email === personaEmail || !personaEmails.includes(u.email));
  const split = <T>(rows: T[], near: (row: T) => boolean): Near<T> => ({ near: rows.filter(near), far: rows.filter((r) => !near(r)) });
  return {
    users: split(others.map((u) => u.id), (id) => nearUsers.has(id)),
    emails: users.map((u) => u.email),
    organizations: split(organizations.map(({ id, code, type }) => ({ id, code, type })), (o) => isNear(o.id)),
    invitations: invitations.map((i) => i.id),
    emailChangeTokens: [emailChangeToken],
    bulkActions,
    roles: split(
      roles.map(({ id, code, type }) => ({ id, code, type })),
      (r) => me.user_type === 'BACKOFFICE' || r.type === 'EXTERNAL' || r.code === 'ADMIN_ADHERENT',
    ),
  };
}

/** Mostly real values (those within reach more often), sometimes what the schema alone gives. */
function real<T>(values: Near<T>): Hint {
  return (generic) =>
    fc.oneof(
      ...[
        values.near.length ? { weight: 8, arbitrary: fc.constantFrom(...values.near) as fc.Arbitrary<unknown> } : null,
        values.far.length ? { weight: 1, arbitrary: fc.constantFrom(...values.far) as fc.Arbitrary<unknown> } : null,
        { weight: 1, arbitrary: generic },
      ].filter((w): w is fc.WeightedArbitrary<unknown> => w !== null),
    );
}
const accepted = (values: unknown[]): Hint => (generic) => fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: generic });
const pick = <T, U>(values: Near<T>, f: (v: T) => U, keep: (v: T) => boolean = () => true): Near<U> => ({ near: values.near.filter(keep).map(f), far: values.far.filter(keep).map(f) });

/** Stands for the edited user's version at the time of sending (body `version`, If-Match): the fuzz puts it in then. */
export const CURRENT_VERSION = 987_654_321;

const NAMES = ['Élodie', 'Durand', 'Jean-Pierre', "L'Hôte", 'Marie Claire', 'Zoé', 'Lyon', 'Saint-Étienne', 'Ñúñez', 'Ångström'];

/** The hints of the fuzz for one persona (see values.ts for the places they apply to). */
export function hintsFor(rows: RealRows): Hints {
  const fresh = fc.tuple(fc.constantFrom('marie', 'jean', 'zoe', 'lea'), fc.integer({ min: 0, max: 2 ** 31 - 1 })).map(([n, i]) => `${n}.${i}@fuzz.exemple.fr`);
  const email: Hint = (generic) => fc.oneof({ weight: 6, arbitrary: fresh }, { weight: 1, arbitrary: fc.constantFrom(...rows.emails) }, { weight: 1, arbitrary: generic });
  const organizationIds = pick(rows.organizations, (o) => o.id);
  const codes = pick(rows.organizations, (o) => o.code);
  const profile = { firstName: 'Nadia', lastName: 'Benali', jobTitle: 'Directrice', phoneNumber: '', mobilePhone: null, street: '1 rue de la Paix', city: 'Paris', postalCode: '75002' };
  return {
    'parameters.UserId': real(rows.users),
    'parameters.InvitationId': real({ near: rows.invitations, far: [] }),
    'parameters.BulkActionId': real(rows.bulkActions),
    // The lifecycle machines whose figures the server computes (issue 24): mostly the one there is.
    'parameters.WorkflowId': accepted(['request-lifecycle']),
    'ConfirmEmailChangeRequest.token': real({ near: rows.emailChangeTokens, far: [] }),
    'parameters.OrganizationId': real(organizationIds),
    'parameters.IfMatch': (generic) => fc.oneof({ weight: 6, arbitrary: fc.constant(OMIT) }, { weight: 3, arbitrary: fc.constantFrom(`"${CURRENT_VERSION}"`, `W/"${CURRENT_VERSION}"`, '"1"') }, { weight: 1, arbitrary: generic }),
    'query.organizationId': real(organizationIds),
    'query.parentId': real(pick(rows.organizations, (o) => o.id, (o) => o.type === 'SIREN')),
    'query.userId': real(rows.users),
    'AssignUserRolesRequest.organizationId': real(organizationIds),
    'RoleAssignmentInput.organizationId': real(organizationIds),
    OrganizationCode: real(codes),
    SiretCode: real(pick(rows.organizations, (o) => o.code, (o) => o.type === 'SIRET')),
    SirenCode: real(pick(rows.organizations, (o) => o.code, (o) => o.type === 'SIREN')),
    RoleCode: real({ near: [...rows.roles.near.map((r) => r.code), 'ORG_ADMIN'], far: rows.roles.far.map((r) => r.code) }),
    RoleId: real(pick(rows.roles, (r) => r.id)),
    // The version read before editing: often not sent (If-Match neither), mostly the current one, sometimes a stale one.
    Version: (generic) => fc.oneof({ weight: 2, arbitrary: fc.constant(OMIT) }, { weight: 3, arbitrary: fc.constant(CURRENT_VERSION) }, { weight: 1, arbitrary: generic }),
    UserNameInput: accepted(NAMES),
    UserEmailInput: email,
    'CreateInvitationRequest.inviteeEmail': email,
    UserJobTitleInput: accepted(['Assistante RH', 'Directeur général', 'Chef de projet', 'R&D / Qualité']),
    UserPhoneInput: accepted(['06 12 34 56 78', '+33612345678', '0472000000', '', null]),
    UserStreetInput: accepted(['12 rue des Lilas', '3 place Bellecour']),
    UserPostalCodeInput: accepted(['69003', '75001', '13008']),
    'UpdateUserRequest.metadata': accepted([null, '{}', JSON.stringify({ jobTitle: 'Directeur', street: '1 rue de la Paix', postalCode: '75002', city: 'Paris' }), '{"phoneNumber":null}']),
    'InvitationMetadataInput.userProfile': accepted([profile, { firstName: 'Paul', lastName: 'Martin' }]),
    'RejectInvitationRequest.rejectionReason': accepted(['Demande incomplète, merci de préciser le SIRET.', '   trop court   ']),
  };
}
