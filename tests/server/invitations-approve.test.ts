import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { StatementCounter } from './support/statement-counter.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { firstSiretOf, freshEmail, invitationsApi, newPersonMetadata, organizationByName, traceCounts } from './support/invitations.ts';
import { IdentityDirectoryError, LocalIdentityDirectory } from '../../server/identity/directory.ts';

for (const backend of backends) {
  describe(`approving invitations on ${backend.name}`, () => {
    let t: TestApp;
    let api: ReturnType<typeof invitationsApi>;
    let clinique: { id: string; code: string; name: string };
    let cliniqueSiret: { id: string; code: string };
    const counter = new StatementCounter();

    beforeAll(async () => {
      t = await startTestApp(backend, { wrapDatabase: counter.wrap });
      api = invitationsApi(t);
      clinique = await organizationByName(t, 'Clinique des Tilleuls');
      cliniqueSiret = await firstSiretOf(t, clinique.id);
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.database.handle.db;

    async function adminRequestFor(email: string, sender = 'admin.clinique@portail.test', metadata: object | undefined = newPersonMetadata()) {
      const { status, body } = await api.create(sender, { inviteeEmail: email, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinique.code, metadata });
      expect(status).toBe(201);
      return body.id as number;
    }

    const outboxFor = (recipient: string) => db().selectFrom('outbox').selectAll().where('recipient', '=', recipient).orderBy('id').execute();
    const auditOf = (entityType: 'user' | 'invitation', entityId: string | number) =>
      db().selectFrom('audit_log').selectAll().where('entity_type', '=', entityType).where('entity_id', '=', String(entityId)).orderBy('id').execute();

    it('approves a NEW_ADMIN for a new email: user, identity account, ADMIN_ADHERENT on the SIREN with inheritance, e-mails, audit', async () => {
      const email = freshEmail('nouvel.admin');
      const id = await adminRequestFor(email);
      const sentBefore = (await outboxFor('admin.clinique@portail.test')).length;
      const { status, body } = await api.approve('backoffice@portail.test', id);
      expect(status).toBe(200);
      expect(body).toMatchObject({ id, status: 'APPROVED', validatorEmail: 'backoffice@portail.test', rejectionReason: null });
      expect(new Date(body.processedAt).getTime()).toBeGreaterThanOrEqual(new Date(body.createdAt).getTime());

      const user = await db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ user_type: 'ORGANIZATION', first_name: 'Camille', last_name: "N'Diaye-Léger", job_title: 'Directrice des soins', city: 'Lyon', postal_code: '69003', is_active: true });
      expect(user.auth_id).not.toBeNull();
      const identity = await db().selectFrom('identity_accounts').selectAll().where('subject', '=', user.auth_id!).executeTakeFirstOrThrow();
      expect(identity).toMatchObject({ email, enabled: true, password_hash: null });
      const assignments = await db().selectFrom('role_assignments').innerJoin('roles', 'roles.id', 'role_assignments.role_id').select(['organization_id', 'code', 'inherits_to_children']).where('user_id', '=', user.id).execute();
      expect(assignments).toEqual([{ organization_id: clinique.id, code: 'ADMIN_ADHERENT', inherits_to_children: true }]);

      const stored = await db().selectFrom('invitations').select(['validator_user_id', 'validator_email', 'processed_at']).where('id', '=', id).executeTakeFirstOrThrow();
      const backoffice = await db().selectFrom('users').select('id').where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ validator_user_id: backoffice.id, validator_email: 'backoffice@portail.test' });

      const [invitationMail] = await outboxFor(email);
      expect(invitationMail).toMatchObject({ kind: 'account.invitation', status: 'PENDING', subject: 'Votre compte sur le Portail Habilitations' });
      expect(invitationMail!.body).toContain('Bonjour Camille');
      expect(invitationMail!.body).toMatch(/https:\/\/localhost:8443\/oidc\/account\/setup\?token=[\w.-]+/);
      const toSender = (await outboxFor('admin.clinique@portail.test')).slice(sentBefore);
      expect(toSender.map((m) => m.kind)).toEqual(['invitation.approved']);
      expect(toSender[0]!.body).toContain(email);

      expect((await auditOf('invitation', id)).map((a) => a.action)).toEqual(['invitation.create', 'invitation.approve']);
      const userAudit = await auditOf('user', user.id);
      expect(userAudit.map((a) => a.action)).toEqual(['user.create']);
      expect(userAudit[0]).toMatchObject({ actor_email: 'backoffice@portail.test', organization_id: clinique.id });
    });

    it('lets the new administrator use the portal for the SIREN and its SIRETs', async () => {
      const email = freshEmail('admin.actif');
      await api.approve('backoffice@portail.test', await adminRequestFor(email));
      const me = await t.app.inject({ method: 'GET', url: '/api/v2/users/me', headers: { authorization: `Bearer ${await t.tokenFor(email)}` } });
      expect(me.statusCode).toBe(200);
      expect(me.json().organizations).toEqual([expect.objectContaining({ code: clinique.code, inheritsToChildren: true, role: expect.objectContaining({ code: 'ADMIN_ADHERENT' }) })]);
    });

    it('adds the role to an existing account without creating anything else', async () => {
      const rh = await db().selectFrom('users').select(['id', 'version']).where('email', '=', 'rh.clinique@portail.test').executeTakeFirstOrThrow();
      const id = await adminRequestFor('RH.Clinique@portail.test', 'backoffice@portail.test', undefined);
      const before = await traceCounts(t);
      const { status } = await api.approve('backoffice@portail.test', id);
      expect(status).toBe(200);
      const after = await traceCounts(t);
      expect(after).toEqual({ ...before, audit: before.audit + 2, outbox: before.outbox + 1, assignments: before.assignments + 1 });
      const held = await db().selectFrom('role_assignments').innerJoin('roles', 'roles.id', 'role_assignments.role_id').select(['code', 'organization_id', 'inherits_to_children']).where('user_id', '=', rh.id).execute();
      expect(held).toContainEqual({ code: 'ADMIN_ADHERENT', organization_id: clinique.id, inherits_to_children: true });
      expect((await auditOf('user', rh.id)).map((a) => a.action)).toEqual(['user.roles']);
      expect((await outboxFor('rh.clinique@portail.test')).filter((m) => m.kind === 'account.invitation')).toHaveLength(0);
      const updated = await db().selectFrom('users').select('version').where('id', '=', rh.id).executeTakeFirstOrThrow();
      expect(updated.version).toBe(rh.version + 1);
    });

    it('approves a ROLE_ASSIGNMENT: the role on the SIRET for the existing user, not inherited', async () => {
      const created = await api.create('admin.clinique@portail.test', { inviteeEmail: 'rh.clinique@portail.test', roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT', organizationCode: cliniqueSiret.code });
      const { status, body } = await api.approve('backoffice@portail.test', created.body.id);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'APPROVED', invitationType: 'ROLE_ASSIGNMENT' });
      const rh = await db().selectFrom('users').select('id').where('email', '=', 'rh.clinique@portail.test').executeTakeFirstOrThrow();
      const held = await db().selectFrom('role_assignments').innerJoin('roles', 'roles.id', 'role_assignments.role_id').select(['code', 'organization_id', 'inherits_to_children']).where('user_id', '=', rh.id).execute();
      expect(held).toContainEqual({ code: 'COMPTABLE', organization_id: cliniqueSiret.id, inherits_to_children: false });
    });

    it('approves a role for an existing account in six statements: the rate limit, the caller, the decision, the grant, the journal, the e-mail', async () => {
      const created = await api.create('admin.clinique@portail.test', { inviteeEmail: 'rh.clinique@portail.test', roleCode: 'ADHESION', invitationType: 'ROLE_ASSIGNMENT', organizationCode: cliniqueSiret.code });
      expect(created.status).toBe(201);
      const rh = await db().selectFrom('users').select(['id', 'first_name', 'last_name']).where('email', '=', 'rh.clinique@portail.test').executeTakeFirstOrThrow();
      const held = await db().selectFrom('role_assignments').select('organization_id').distinct().where('user_id', '=', rh.id).execute();
      expect(held.length).toBeGreaterThan(0);
      const statements = await counter.during(async () => expect((await api.approve('backoffice@portail.test', created.body.id)).status).toBe(200));
      expect(statements).toBe(6);
      // The journal's entries as before: named after their author, the person's concerning every organization they belong to.
      const staff = await db().selectFrom('users').select(['id', 'first_name', 'last_name']).where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
      const [roles, approval] = [(await auditOf('user', rh.id)).at(-1)!, (await auditOf('invitation', created.body.id)).at(-1)!];
      expect([roles.action, approval.action]).toEqual(['user.roles', 'invitation.approve']);
      for (const entry of [roles, approval]) expect([entry.actor_id, entry.actor_name]).toEqual([staff.id, `${staff.first_name} ${staff.last_name}`]);
      expect(roles.organization_id).toBe(cliniqueSiret.id);
      const concerned = (id: number) => db().selectFrom('audit_log_organizations').select('organization_id').where('audit_id', '=', id).execute();
      expect((await concerned(roles.id)).map((c) => c.organization_id).sort()).toEqual([...new Set([cliniqueSiret.id, ...held.map((h) => h.organization_id)])].sort());
      expect((await concerned(approval.id)).map((c) => c.organization_id)).toEqual([cliniqueSiret.id]);
    });

    it('refuses a ROLE_ASSIGNMENT for an email without an account (409) and changes nothing', async () => {
      const email = freshEmail('sans.compte');
      const created = await api.create('backoffice@portail.test', { inviteeEmail: email, roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT', organizationCode: cliniqueSiret.code });
      const before = await traceCounts(t);
      const { status, body } = await api.approve('backoffice@portail.test', created.body.id);
      expect(status).toBe(409);
      expect(body.message).toContain(`Aucun compte n'existe pour « ${email} »`);
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.get('backoffice@portail.test', created.body.id)).body.status).toBe('PENDING');
    });

    it('answers 409 to a second decision and changes nothing', async () => {
      const id = await adminRequestFor(freshEmail());
      expect((await api.approve('backoffice@portail.test', id)).status).toBe(200);
      const decided = (await api.get('backoffice@portail.test', id)).body;
      const before = await traceCounts(t);
      for (const second of [await api.approve('backoffice@portail.test', id), await api.reject('backoffice@portail.test', id, 'Motif suffisamment long')]) {
        expect(second.status).toBe(409);
        expect(second.body.message).toBe('Cette demande a déjà été traitée.');
      }
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.get('backoffice@portail.test', id)).body).toEqual(decided);
    });

    it('gives exactly one of 20 simultaneous approvals of one invitation', async () => {
      const email = freshEmail('course');
      const id = await adminRequestFor(email);
      const answers = await Promise.all(Array.from({ length: 20 }, () => api.approve('backoffice@portail.test', id)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
      expect(await db().selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
      expect(await db().selectFrom('identity_accounts').select('subject').where('email', '=', email).execute()).toHaveLength(1);
      expect((await auditOf('invitation', id)).filter((a) => a.action === 'invitation.approve')).toHaveLength(1);
      expect(await outboxFor(email)).toHaveLength(1);
    });

    it('keeps decisions to the back office with USER_CREATE: lecteur and organization users get 403', async () => {
      const id = await adminRequestFor(freshEmail());
      for (const email of ['lecteur@portail.test', 'admin.clinique@portail.test', 'inactif@portail.test']) {
        expect((await api.approve(email, id)).status).toBe(403);
      }
      expect((await api.approve('lecteur@portail.test', id)).body.message).toContain('USER_CREATE');
      expect((await api.get('backoffice@portail.test', id)).body.status).toBe('PENDING');
    });

    it('answers 404 for an unknown invitation', async () => {
      const { status, body } = await api.approve('backoffice@portail.test', 987654321);
      expect(status).toBe(404);
      expect(body.message).toBe('Aucune invitation trouvée.');
    });
  });

  describe(`a failed approval on ${backend.name}`, () => {
    let t: TestApp;
    let failing = true;

    /** The local directory, but its account creation fails while `failing` is set (an identity provider that is down). */
    class FlakyDirectory extends LocalIdentityDirectory {
      override async createAccount(...args: Parameters<LocalIdentityDirectory['createAccount']>) {
        if (failing) throw new IdentityDirectoryError('identity provider unreachable');
        return super.createAccount(...args);
      }
    }

    beforeAll(async () => {
      t = await startTestApp(backend, { directory: new FlakyDirectory() });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('leaves no trace when the identity provider fails, and succeeds once it is back', async () => {
      const api = invitationsApi(t);
      const clinique = await organizationByName(t, 'Clinique des Tilleuls');
      const email = freshEmail('panne');
      const created = await api.create('backoffice@portail.test', { inviteeEmail: email, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: clinique.code, metadata: newPersonMetadata() });
      const before = await traceCounts(t);
      const { status, body } = await api.approve('backoffice@portail.test', created.body.id);
      expect(status).toBe(503);
      expect(body.message).toContain("service d'identité");
      expect(await traceCounts(t)).toEqual(before);
      expect((await api.get('backoffice@portail.test', created.body.id)).body).toEqual(created.body);

      failing = false;
      expect((await api.approve('backoffice@portail.test', created.body.id)).status).toBe(200);
      const after = await traceCounts(t);
      expect(after).toEqual({ audit: before.audit + 2, outbox: before.outbox + 2, users: before.users + 1, assignments: before.assignments + 1, identities: before.identities + 1 });
    });
  });
}
