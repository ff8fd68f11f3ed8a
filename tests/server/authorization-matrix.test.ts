import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { loadApiDocument, type OpenApiDocument } from '../../server/api/openapi-document.ts';
import { backends } from './db/test-databases.ts';
import { expectMatchesContract } from './support/contract.ts';
import { fixtures } from './support/fixtures.ts';
import { foreignKey, startTestApp, type TestApp } from './support/test-app.ts';

/**
 * Every operation of openapi.yaml × every demo persona, plus callers without a valid token, with the
 * status each must get (spec §6 and the policy module). The rows are checked against the document: an
 * operation without a row fails, so a new operation cannot ship without its authorization decided.
 */
const PERSONAS = ['backoffice', 'lecteur', 'admin.clinique', 'rh.clinique', 'admin.ehpad', 'inactif', 'deux.societes', 'bureau.role'] as const;
/**
 * Personas made in this test's own database (the demo data stays as docs/demo-data.md says):
 * - deux.societes: administrator of the EHPAD (ADMIN_ADHERENT on its SIREN, inherited) who also holds COMPTABLE,
 *   a role without permissions, on the clinic's establishment the rows act on: the union of their permissions
 *   must not reach the clinic (issue 19, permissions per organization acted on);
 * - bureau.role: a read-only back-office account (USER_LIST) given ADMIN_ADHERENT on the clinic's SIREN directly
 *   in the database: a back-office account's rights are its own, never an organization role's.
 */
const MADE_HERE: Partial<Record<Persona, string>> = { 'deux.societes': 'deux.societes@exemple-test.fr', 'bureau.role': 'bureau.role@exemple-test.fr' };
const TOKENLESS = ['anonymous', 'expired', 'forged'] as const;
type Persona = (typeof PERSONAS)[number];
type Caller = Persona | (typeof TOKENLESS)[number];

interface Call {
  method: string;
  url: string;
  body?: unknown;
}

interface Context {
  t: TestApp;
  f: ReturnType<typeof fixtures>;
  clinicSiren: { id: string; code: string };
  clinicSiret: { id: string; code: string };
}

type Row = { call: (c: Context) => Promise<Call>; expect: Record<Persona, number>; public?: boolean };

const same = (status: number): Record<Persona, number> => ({
  backoffice: status,
  lecteur: status,
  'admin.clinique': status,
  'rh.clinique': status,
  'admin.ehpad': status,
  inactif: 403,
  'deux.societes': status,
  'bureau.role': status,
});

/** A fresh user of the clinic, holding an external role on one of its establishments. */
const clinicUser = (c: Context, active = true) => c.f.user({ organizationId: c.clinicSiret.id, roleCode: 'COMPTABLE', active });
/** A clinic user whose new address waits for them, and the token of the link sent there. */
async function pendingEmailLink(c: Context): Promise<string> {
  const user = await clinicUser(c);
  const token = randomBytes(32).toString('base64url');
  const email = uniqueEmail();
  const db = c.t.database.handle.db;
  await db.updateTable('users').set({ pending_email: email }).where('id', '=', user.id).execute();
  await db
    .insertInto('email_change_tokens')
    .values({ token_hash: createHash('sha256').update(token).digest('hex'), user_id: user.id, email, expires_at: new Date(Date.now() + 3600_000) })
    .execute();
  return token;
}
/** A job of the back office's, deactivating a clinic user, completed (one running job a person: migration 0018). */
async function backOfficeJob(c: Context): Promise<string> {
  const db = c.t.database.handle.db;
  const starter = await db.selectFrom('users').select('id').where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
  const job = await db.insertInto('bulk_actions').values({ actor_user_id: starter.id, action: 'deactivate', total: 1, status: 'completed', finished_at: new Date() }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('bulk_action_targets').values({ bulk_action_id: job.id, position: 1, user_id: (await clinicUser(c)).id }).execute();
  return job.id;
}
const uniqueEmail = () => `matrice.${Math.random().toString(36).slice(2, 10)}@exemple-test.fr`;

const personal = { jobTitle: 'Comptable', phoneNumber: '0612345678', mobilePhone: null, street: '3 rue des Lilas', city: 'Angers', postalCode: '49000' };

const readUser = { backoffice: 200, lecteur: 200, 'admin.clinique': 200, 'rh.clinique': 403, 'admin.ehpad': 404, inactif: 403, 'deux.societes': 404, 'bureau.role': 200 };
const changeUser = { backoffice: 200, lecteur: 403, 'admin.clinique': 200, 'rh.clinique': 403, 'admin.ehpad': 404, inactif: 403, 'deux.societes': 404, 'bureau.role': 403 };
const createUser = { backoffice: 201, lecteur: 403, 'admin.clinique': 201, 'rh.clinique': 403, 'admin.ehpad': 400, inactif: 403, 'deux.societes': 400, 'bureau.role': 403 };
const backOfficeRead = { backoffice: 200, lecteur: 200, 'admin.clinique': 403, 'rh.clinique': 403, 'admin.ehpad': 403, inactif: 403, 'deux.societes': 403, 'bureau.role': 200 };
const decide = { backoffice: 200, lecteur: 403, 'admin.clinique': 403, 'rh.clinique': 403, 'admin.ehpad': 403, inactif: 403, 'deux.societes': 403, 'bureau.role': 403 };
// deux.societes sees the clinic's SIREN as the parent of the establishment they belong to.
const readClinic = { backoffice: 200, lecteur: 200, 'admin.clinique': 200, 'rh.clinique': 200, 'admin.ehpad': 404, inactif: 403, 'deux.societes': 200, 'bureau.role': 200 };

const MATRIX: Record<string, Row> = {
  getCurrentUser: { call: async () => ({ method: 'GET', url: '/api/v2/users/me' }), expect: { ...same(200), inactif: 200 } },
  // A good link of a clinic user's pending address: only that person may confirm it, none of the personas.
  confirmEmailChange: { call: async (c) => ({ method: 'POST', url: '/api/v2/users/me/email-confirmation', body: { token: await pendingEmailLink(c) } }), expect: same(403) },
  listUsers: { call: async () => ({ method: 'GET', url: '/api/v2/users' }), expect: { ...same(200), 'rh.clinique': 403 } },
  // The list's rights: each persona exports what it may list (tests/server/users-export.test.ts reads the files).
  exportUsers: { call: async () => ({ method: 'GET', url: '/api/v2/users/export' }), expect: { ...same(200), 'rh.clinique': 403 } },
  getUser: { call: async (c) => ({ method: 'GET', url: `/api/v2/users/${(await clinicUser(c)).id}` }), expect: readUser },
  getUserFullDetails: { call: async (c) => ({ method: 'GET', url: `/api/v2/users/${(await clinicUser(c)).id}/full-details` }), expect: readUser },
  // A person's data on request (issue 23): the back office holding USER_LIST for anyone, in both formats; organization
  // users never, not even their own employees (403 before the person is looked up).
  getUserPersonalData: { call: async (c) => ({ method: 'GET', url: `/api/v2/users/${(await clinicUser(c)).id}/personal-data?format=html` }), expect: backOfficeRead },
  // One's own: every active person.
  getMyPersonalData: { call: async () => ({ method: 'GET', url: '/api/v2/users/me/personal-data' }), expect: same(200) },
  createUser: {
    call: async (c) => ({
      method: 'POST',
      url: '/api/v2/users',
      body: { nom: 'Matrice', prenom: 'Élise', email: uniqueEmail(), sirets: [c.clinicSiret.code], roles: ['COMPTABLE'], ...personal, mobilePhone: '', hasInternalRole: false },
    }),
    expect: createUser,
  },
  createUserComplete: {
    call: async (c) => ({
      method: 'POST',
      url: '/api/v2/users/complete',
      body: { email: uniqueEmail(), firstName: 'Élise', lastName: 'Matrice', ...personal, mobilePhone: '', organizationCodes: [c.clinicSiret.code], roleIds: [(await c.f.role('COMPTABLE')).id] },
    }),
    expect: createUser,
  },
  updateUser: {
    call: async (c) => {
      const u = await clinicUser(c);
      return { method: 'PUT', url: `/api/v2/users/${u.id}`, body: { firstName: 'Élise', lastName: 'Modifiée', email: u.email, metadata: null } };
    },
    expect: changeUser,
  },
  fullUpdateUser: {
    call: async (c) => {
      const u = await clinicUser(c);
      const roleIds = [(await c.f.role('COMPTABLE')).id];
      return {
        method: 'PUT',
        url: `/api/v2/users/${u.id}/full-update`,
        body: { firstName: 'Élise', lastName: 'Modifiée', email: u.email, ...personal, isActive: true, roleAssignments: [{ organizationId: c.clinicSiret.id, roleIds }] },
      };
    },
    expect: changeUser,
  },
  updateUserComplete: {
    call: async (c) => {
      const u = await clinicUser(c);
      return {
        method: 'PUT',
        url: `/api/v2/users/${u.id}/complete`,
        body: { firstName: 'Élise', lastName: 'Modifiée', email: u.email, ...personal, organizationCodes: [c.clinicSiret.code], roleIds: [(await c.f.role('COMPTABLE')).id] },
      };
    },
    expect: changeUser,
  },
  assignUserRoles: {
    call: async (c) => ({
      method: 'POST',
      url: `/api/v2/users/${(await clinicUser(c)).id}/roles`,
      body: { organizationId: c.clinicSiret.id, roleIds: [(await c.f.role('GESTIONNAIRE')).id] },
    }),
    expect: changeUser,
  },
  replaceUserRoles: {
    call: async (c) => ({
      method: 'PUT',
      url: `/api/v2/users/${(await clinicUser(c)).id}/roles/bulk`,
      body: { assignments: [{ organizationCode: c.clinicSiret.code, roleIds: [(await c.f.role('GESTIONNAIRE')).id] }] },
    }),
    expect: changeUser,
  },
  deactivateUser: { call: async (c) => ({ method: 'POST', url: `/api/v2/users/${(await clinicUser(c)).id}/deactivate` }), expect: changeUser },
  reactivateUser: { call: async (c) => ({ method: 'POST', url: `/api/v2/users/${(await clinicUser(c, false)).id}/reactivate` }), expect: changeUser },
  deleteUser: {
    call: async (c) => ({ method: 'DELETE', url: `/api/v2/users/${(await clinicUser(c)).id}?hardDelete=true` }),
    expect: { backoffice: 204, lecteur: 403, 'admin.clinique': 403, 'rh.clinique': 403, 'admin.ehpad': 403, inactif: 403, 'deux.societes': 403, 'bureau.role': 403 },
  },
  // A clinic user who never signed in: a new set-up link, with a deactivation's rights.
  resendUserInvitation: { call: async (c) => ({ method: 'POST', url: `/api/v2/users/${(await clinicUser(c)).id}/resend-invitation` }), expect: changeUser },
  // USER_CREATE lets a deactivation job start (each person is then decided alone: users-bulk-actions.test.ts).
  startUsersBulkAction: {
    call: async (c) => ({ method: 'POST', url: '/api/v2/users/bulk-actions', body: { action: 'deactivate', userIds: [(await clinicUser(c)).id] } }),
    expect: { backoffice: 202, lecteur: 403, 'admin.clinique': 202, 'rh.clinique': 403, 'admin.ehpad': 202, inactif: 403, 'deux.societes': 202, 'bureau.role': 403 },
  },
  // A job the back office started: only it reads it.
  getUsersBulkAction: { call: async (c) => ({ method: 'GET', url: `/api/v2/users/bulk-actions/${await backOfficeJob(c)}` }), expect: { ...same(404), backoffice: 200 } },
  // The list's rights, as exportUsers.
  exportSelectedUsers: { call: async (c) => ({ method: 'POST', url: '/api/v2/users/export', body: { userIds: [(await clinicUser(c)).id] } }), expect: { ...same(200), 'rh.clinique': 403 } },
  listInvitations: { call: async () => ({ method: 'GET', url: '/api/v2/invitations' }), expect: backOfficeRead },
  getInvitation: { call: async (c) => ({ method: 'GET', url: `/api/v2/invitations/${(await c.f.pendingInvitation({ sirenId: c.clinicSiren.id })).id}` }), expect: backOfficeRead },
  createInvitation: {
    call: async (c) => ({
      method: 'POST',
      url: `/api/v2/invitations?organizationId=${c.clinicSiren.id}`,
      body: {
        inviteeEmail: uniqueEmail(),
        roleCode: 'ADMIN_ADHERENT',
        invitationType: 'NEW_ADMIN',
        metadata: { userProfile: { firstName: 'Nouvel', lastName: 'Administrateur' }, isNewUser: true },
      },
    }),
    expect: { backoffice: 201, lecteur: 403, 'admin.clinique': 201, 'rh.clinique': 403, 'admin.ehpad': 404, inactif: 403, 'deux.societes': 404, 'bureau.role': 403 },
  },
  approveInvitation: { call: async (c) => ({ method: 'POST', url: `/api/v2/invitations/${(await c.f.pendingInvitation({ sirenId: c.clinicSiren.id })).id}/approve` }), expect: decide },
  rejectInvitation: {
    call: async (c) => ({
      method: 'POST',
      url: `/api/v2/invitations/${(await c.f.pendingInvitation({ sirenId: c.clinicSiren.id })).id}/reject`,
      body: { rejectionReason: 'Demande incomplète, merci de la renouveler.' },
    }),
    expect: decide,
  },
  // Issue 22: anyone lists the requests they made; a request is cancelled by its requester (admin.clinique here) or
  // the back office holding USER_CREATE; another organization user does not reach it (404).
  listMyInvitations: { call: async () => ({ method: 'GET', url: '/api/v2/invitations/mine' }), expect: same(200) },
  // Each person's own counts (the items are decided by the lists they count: tests/server/home.test.ts).
  getHome: { call: async () => ({ method: 'GET', url: '/api/v2/home' }), expect: same(200) },
  cancelInvitation: {
    call: async (c) => ({
      method: 'POST',
      url: `/api/v2/invitations/${(await c.f.pendingInvitation({ sirenId: c.clinicSiren.id, senderEmail: 'admin.clinique@portail.test' })).id}/cancel`,
      body: { reason: 'Plus nécessaire.' },
    }),
    expect: { backoffice: 200, lecteur: 403, 'admin.clinique': 200, 'rh.clinique': 404, 'admin.ehpad': 404, inactif: 403, 'deux.societes': 404, 'bureau.role': 403 },
  },
  listOrganizations: { call: async () => ({ method: 'GET', url: '/api/v2/organizations' }), expect: { ...same(200), 'rh.clinique': 403 } },
  getOrganizationByCode: { call: async (c) => ({ method: 'GET', url: `/api/v2/organizations/code/${c.clinicSiren.code}` }), expect: readClinic },
  getOrganization: { call: async (c) => ({ method: 'GET', url: `/api/v2/organizations/${c.clinicSiren.id}` }), expect: readClinic },
  listRoles: { call: async () => ({ method: 'GET', url: '/api/v2/roles' }), expect: same(200) },
  // The journal: USER_LIST, each caller within their scope (authorization-cross-company.test.ts and journal.api.test.ts hold what each sees).
  listAuditEntries: { call: async () => ({ method: 'GET', url: '/api/v2/audit' }), expect: { ...same(200), 'rh.clinique': 403 } },
  exportAuditEntries: { call: async () => ({ method: 'GET', url: '/api/v2/audit/export' }), expect: { ...same(200), 'rh.clinique': 403 } },
  // 'Durées de conservation' (issue 23): the back office only, its read-only accounts included.
  getRetention: { call: async () => ({ method: 'GET', url: '/api/v2/retention' }), expect: backOfficeRead },
  // Issue 24: the back office reads every request's figures (lecteur and bureau.role too, as the invitations list); a person
  // holding USER_CREATE those of 'Mes demandes' (workflow-figures.api.test.ts holds what each sees); anyone else 403.
  getWorkflowFigures: { call: async () => ({ method: 'GET', url: '/api/v2/workflows/request-lifecycle/figures?days=90' }), expect: { ...same(200), 'rh.clinique': 403 } },
  exportWorkflowFigures: { call: async () => ({ method: 'GET', url: '/api/v2/workflows/request-lifecycle/figures/export?days=7' }), expect: { ...same(200), 'rh.clinique': 403 } },
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
function documentOperations(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    HTTP_METHODS.flatMap((m) => {
      const op = item[m] as { operationId?: string; security?: unknown[] } | undefined;
      return op?.operationId ? [{ operationId: op.operationId, method: m.toUpperCase(), route, public: Array.isArray(op.security) && op.security.length === 0 }] : [];
    }),
  );
}

const operations = documentOperations(loadApiDocument());

/**
 * Operations whose path names one of several resources decided apart: a row for each other one. Issue 24: the account
 * lifecycle's figures, read by the back office (every account) and a person holding USER_CREATE (their users list's
 * accounts: account-figures.api.test.ts holds what each sees); anyone else 403.
 */
const VARIANTS: { operationId: string; label: string; row: Row }[] = [
  { operationId: 'getWorkflowFigures', label: 'account-lifecycle', row: { call: async () => ({ method: 'GET', url: '/api/v2/workflows/account-lifecycle/figures?days=90' }), expect: { ...same(200), 'rh.clinique': 403 } } },
  { operationId: 'exportWorkflowFigures', label: 'account-lifecycle', row: { call: async () => ({ method: 'GET', url: '/api/v2/workflows/account-lifecycle/figures/export?days=7' }), expect: { ...same(200), 'rh.clinique': 403 } } },
];
const cases = [
  ...operations.map((operation) => ({ operation, name: operation.operationId, row: MATRIX[operation.operationId] })),
  ...VARIANTS.map((v) => ({ operation: operations.find((o) => o.operationId === v.operationId)!, name: `${v.operationId} (${v.label})`, row: v.row })),
];

describe('the authorization matrix', () => {
  it('has a row for every operation of openapi.yaml, and none for an operation it lacks', () => {
    const documented = operations.map((o) => o.operationId).sort();
    expect(Object.keys(MATRIX).sort()).toEqual(documented);
  });
});

for (const backend of backends) {
  describe(`authorization of every operation on ${backend.name}`, () => {
    let t: TestApp;
    let context: Context;
    const tokens = new Map<Caller, string | undefined>();

    beforeAll(async () => {
      t = await startTestApp(backend);
      const f = fixtures(t.database.handle.db);
      const clinicSiren = await f.organization('Clinique des Tilleuls');
      const [clinicSiret] = await f.siretsOf(clinicSiren.id);
      context = { t, f, clinicSiren, clinicSiret: clinicSiret! };
      const db = t.database.handle.db;
      const ehpad = await f.organization('EHPAD Les Glycines');
      const twoCompanies = await f.user({ organizationId: ehpad.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: MADE_HERE['deux.societes'] });
      await db.insertInto('role_assignments').values({ user_id: twoCompanies.id, organization_id: clinicSiret!.id, role_id: (await f.role('COMPTABLE')).id, inherits_to_children: false }).execute();
      const backOffice = await f.user({ organizationId: clinicSiren.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: MADE_HERE['bureau.role'] });
      await db.updateTable('users').set({ user_type: 'BACKOFFICE' }).where('id', '=', backOffice.id).execute();
      await db.insertInto('user_permissions').values({ user_id: backOffice.id, permission_code: 'USER_LIST' }).execute();
      for (const persona of PERSONAS) tokens.set(persona, await t.tokenFor(MADE_HERE[persona] ?? `${persona}@portail.test`));
      const past = Math.floor(Date.now() / 1000) - 7200;
      tokens.set('anonymous', undefined);
      tokens.set('expired', await t.tokenFor('backoffice@portail.test', { iat: past, auth_time: past, exp: past + 3600 }));
      const now = Math.floor(Date.now() / 1000);
      tokens.set(
        'forged',
        await new SignJWT({ iss: t.issuer, aud: t.audience, sub: 'forged', iat: now, exp: now + 600 }).setProtectedHeader({ alg: 'RS256' }).sign(await foreignKey()),
      );
    }, 120_000);

    afterAll(async () => {
      await t?.close();
    });

    // The fourth attacker review (2026-11-27): a back-office account holding no permission at all. It reads every
    // request's figures, as it reads the invitations list, but no account's: those count the users list's people and
    // need USER_LIST, which it does not hold. Neither can it list the users those figures count.
    it('a back-office account without any permission: request figures 200, account figures 403, users list 403', async () => {
      const bare = await context.f.user({ organizationId: context.clinicSiren.id, roleCode: 'COMPTABLE', email: 'bureau.vide@exemple-test.fr' });
      const db = t.database.handle.db;
      await db.deleteFrom('role_assignments').where('user_id', '=', bare.id).execute();
      await db.updateTable('users').set({ user_type: 'BACKOFFICE' }).where('id', '=', bare.id).execute();
      const token = await t.tokenFor('bureau.vide@exemple-test.fr');
      const status = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } })).statusCode;
      expect({
        requests: await status('/api/v2/workflows/request-lifecycle/figures?days=90'),
        requestsCsv: await status('/api/v2/workflows/request-lifecycle/figures/export?days=7'),
        accounts: await status('/api/v2/workflows/account-lifecycle/figures?days=90'),
        accountsCsv: await status('/api/v2/workflows/account-lifecycle/figures/export?days=7'),
        users: await status('/api/v2/users'),
      }).toEqual({ requests: 200, requestsCsv: 200, accounts: 403, accountsCsv: 403, users: 403 });
    });

    for (const { operation, name, row } of cases) {
      if (!row) continue;
      const callers: [Caller, number][] = [
        ...PERSONAS.map((p): [Caller, number] => [p, row.expect[p]]),
        ...TOKENLESS.map((c): [Caller, number] => [c, operation.public ? 200 : 401]),
      ];
      it(`${name}: ${callers.map(([c, s]) => `${c} ${s}`).join(', ')}`, async () => {
        const got: string[] = [];
        for (const [caller, expected] of callers) {
          const call = await row.call(context);
          const token = tokens.get(caller);
          const answer = await t.app.inject({
            method: call.method as 'GET',
            url: call.url,
            headers: token ? { authorization: `Bearer ${token}` } : {},
            ...(call.body === undefined ? {} : { payload: call.body as object }),
          });
          if (answer.statusCode !== expected) got.push(`${caller}: expected ${expected}, got ${answer.statusCode} ${answer.body.slice(0, 200)}`);
          else {
            const isJson = String(answer.headers['content-type'] ?? '').includes('json');
            expectMatchesContract(operation.method, operation.route, answer.statusCode, answer.body ? (isJson ? answer.json() : answer.body) : undefined);
          }
        }
        expect(got).toEqual([]);
      });
    }
  });
}
