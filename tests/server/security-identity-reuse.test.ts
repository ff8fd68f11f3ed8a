// Creating an account for an e-mail whose sign-in identity already exists (a deleted user came back):
// the identity is reused only when no portal user holds it, and only an account this request made is
// ever deleted to undo it (security review, item 1).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestDatabase, type TestDatabase } from './db/test-databases.ts';
import { commitFailureSwitch } from './support/commit-failure.ts';
import { fixtures } from './support/fixtures.ts';
import { IDENTITY_TAKEN, startGraphStub, type GraphCall } from './support/graph-stub.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName, traceCounts } from './support/invitations.ts';
import { callApi, completePayload, PERSONAS, rowCounts, roleIds, type RoleIds } from './support/users-api.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { migrate } from '../../server/db/migrate.ts';
import { IdentityTakenError, LocalIdentityDirectory } from '../../server/identity/directory.ts';

const IDENTITY_TAKEN_MESSAGE = 'Le compte de connexion de cette adresse email appartient déjà à un autre utilisateur.';

/** Graph holding an account for every e-mail asked, whose object id is `subject`. */
const graphHolding = (subject: string) => (call: GraphCall) => {
  if (call.method === 'POST' && call.path === '/v1.0/users') return IDENTITY_TAKEN;
  if (call.method === 'GET') return { status: 200, body: { value: [{ id: subject }] } };
  return { status: 204 };
};

for (const backend of backends) {
  describe(`reusing a sign-in identity through Microsoft Graph on ${backend.name}`, () => {
    let t: TestApp;
    let graph: Awaited<ReturnType<typeof startGraphStub>>;
    let roles: RoleIds;
    let siretCode: string;
    let clinique: { id: string; code: string };
    let failCommits: Awaited<ReturnType<typeof commitFailureSwitch>>;

    beforeAll(async () => {
      graph = await startGraphStub();
      t = await startTestApp(backend, { directory: graph.directory() });
      roles = await roleIds(t);
      clinique = await organizationByName(t, 'Clinique des Tilleuls');
      siretCode = (await fixtures(t.database.handle.db).siretsOf(clinique.id))[0]!.code;
      failCommits = await commitFailureSwitch(t.database.handle);
    });
    afterAll(async () => {
      await t?.close();
      await graph?.close();
    });

    const db = () => t.database.handle.db;
    const subjectOf = async (email: string) => (await db().selectFrom('users').select('auth_id').where('email', '=', email).executeTakeFirstOrThrow()).auth_id!;
    const graphCallsDuring = async <T>(work: () => Promise<T>) => {
      const from = graph.calls.length;
      const result = await work();
      return { result, calls: graph.calls.slice(from).map((c) => `${c.method} ${c.path.split('?')[0]}`) };
    };
    const create = (email: string) => callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/complete', payload: completePayload([siretCode], [roles.COMPTABLE!], { email }) });
    /** The same creation, its answer unchecked: a failed commit answers 500, which the contract does not list. */
    const createFailing = async (email: string) => {
      const answer = await t.app.inject({ method: 'POST', url: '/api/v2/users/complete', headers: { authorization: `Bearer ${await t.tokenFor(PERSONAS.backoffice)}` }, payload: completePayload([siretCode], [roles.COMPTABLE!], { email }) });
      return { status: answer.statusCode, body: answer.json() };
    };

    it("refuses (409) to create a user whose e-mail signs in to another portal user's identity, without touching or deleting it", async () => {
      const held = await subjectOf(PERSONAS.rhClinique);
      graph.answer(graphHolding(held));
      const before = await rowCounts(t);
      const { result, calls } = await graphCallsDuring(() => create(freshEmail('reprise')));
      expect(result.status).toBe(409);
      expect(result.body.message).toBe(IDENTITY_TAKEN_MESSAGE);
      expect(calls).toEqual(['POST /v1.0/users', 'GET /v1.0/users']);
      expect(await rowCounts(t)).toEqual(before);
      expect(await subjectOf(PERSONAS.rhClinique)).toBe(held);
    });

    it('refuses (409) to approve an administrator request in the same case, and leaves it pending', async () => {
      const held = await subjectOf(PERSONAS.rhClinique);
      graph.answer(graphHolding(held));
      const api = invitationsApi(t);
      const created = await api.create(PERSONAS.backoffice, { inviteeEmail: freshEmail('reprise'), roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinique.code, metadata: newPersonMetadata() });
      expect(created.status).toBe(201);
      const before = await traceCounts(t);
      const { result, calls } = await graphCallsDuring(() => api.approve(PERSONAS.backoffice, created.body.id));
      expect(result.status).toBe(409);
      expect(result.body.message).toBe(IDENTITY_TAKEN_MESSAGE);
      expect(calls).toEqual(['POST /v1.0/users', 'GET /v1.0/users']);
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.get(PERSONAS.backoffice, created.body.id)).body.status).toBe('PENDING');
    });

    it('reuses an identity no portal user holds (enabled and renamed), and never deletes it when the commit then fails', async () => {
      const orphan = randomUUID();
      graph.answer(graphHolding(orphan));
      const failed = await graphCallsDuring(() => failCommits.during(() => createFailing(freshEmail('revenant'))));
      expect(failed.result.status).toBe(500);
      // Issue 19: the reused identity's former sessions end too.
      expect(failed.calls).toEqual(['POST /v1.0/users', 'GET /v1.0/users', `PATCH /v1.0/users/${orphan}`, `POST /v1.0/users/${orphan}/revokeSignInSessions`]);

      const email = freshEmail('revenant');
      const done = await graphCallsDuring(() => create(email));
      expect(done.result.status).toBe(201);
      expect(await subjectOf(email)).toBe(orphan);
      expect(done.calls).toEqual(['POST /v1.0/users', 'GET /v1.0/users', `PATCH /v1.0/users/${orphan}`, `POST /v1.0/users/${orphan}/revokeSignInSessions`]);
    });

    it('deletes the account it created when the commit fails', async () => {
      const createdId = randomUUID();
      graph.answer((call) => (call.method === 'POST' ? { status: 201, body: { id: createdId } } : { status: 204 }));
      const { result, calls } = await graphCallsDuring(() => failCommits.during(() => createFailing(freshEmail('neuf'))));
      expect(result.status).toBe(500);
      expect(calls).toEqual(['POST /v1.0/users', `DELETE /v1.0/users/${createdId}`]);
    });
  });

  describe(`the local directory's account creation on ${backend.name}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(backend);
      await migrate(database.handle);
    });
    afterAll(async () => {
      await database?.dispose();
    });

    const directory = new LocalIdentityDirectory();
    const db = () => database.handle.db;
    const identity = async (email: string, holder: boolean) => {
      const subject = randomUUID();
      await db().insertInto('identity_accounts').values({ subject, email, display_name: 'Ancien Nom', password_hash: null, enabled: false }).execute();
      if (holder) {
        await db().insertInto('users').values({ auth_id: subject, email: freshEmail('titulaire'), first_name: 'Autre', last_name: 'Personne', user_type: 'ORGANIZATION' }).execute();
      }
      return subject;
    };

    it('reports a new account as created, and an identity nobody holds as reused (enabled, renamed)', async () => {
      const fresh = await db().transaction().execute((trx) => directory.createAccount(trx, { email: freshEmail('neuf'), displayName: 'Neuf Compte' }));
      expect(fresh.reused).toBe(false);
      const email = freshEmail('revenant');
      const orphan = await identity(email, false);
      const reused = await db().transaction().execute((trx) => directory.createAccount(trx, { email: email.toUpperCase(), displayName: 'Nouveau Nom' }));
      expect(reused).toEqual({ subject: orphan, reused: true });
      expect(await db().selectFrom('identity_accounts').select(['enabled', 'display_name']).where('subject', '=', orphan).executeTakeFirstOrThrow()).toEqual({ enabled: true, display_name: 'Nouveau Nom' });
    });

    it("refuses an identity a portal user holds, and leaves it as it was", async () => {
      const email = freshEmail('pris');
      const held = await identity(email, true);
      const error = await db()
        .transaction()
        .execute((trx) => directory.createAccount(trx, { email, displayName: 'Nouveau Nom' }))
        .then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(IdentityTakenError);
      expect(await db().selectFrom('identity_accounts').select(['enabled', 'display_name']).where('subject', '=', held).executeTakeFirstOrThrow()).toEqual({ enabled: false, display_name: 'Ancien Nom' });
    });
  });
}
