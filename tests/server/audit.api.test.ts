import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { writeAudit } from '../../server/features/audit/audit.repository.ts';
import type { AuditAction } from '../../server/db/schema.ts';
import type { components } from '../../src/api/schema.gen.ts';
import { getChecked } from './support/requests.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const ROUTE = '/api/v2/audit';

type Entry = components['schemas']['AuditEntry'];

for (const backend of backends) {
  describe(`GET ${ROUTE} on ${backend.name}`, () => {
    let t: TestApp;
    let actor: { userId: string; email: string };
    let subject: string;
    let organizationId: string;
    /** Ids of the written entries, oldest first. */
    const written: number[] = [];

    beforeAll(async () => {
      t = await startTestApp(backend);
      const db = t.database.handle.db;
      const backoffice = await db.selectFrom('users').select(['id', 'email']).where('email', '=', 'backoffice@portail.test').executeTakeFirstOrThrow();
      actor = { userId: backoffice.id, email: backoffice.email };
      subject = (await db.selectFrom('users').select('id').where('email', '=', 'rh.clinique@portail.test').executeTakeFirstOrThrow()).id;
      organizationId = (await db.selectFrom('organizations').select('id').where('name', '=', 'Clinique des Tilleuls').executeTakeFirstOrThrow()).id;
      const entries: { action: AuditAction; entityType: 'user' | 'invitation'; entityId: string | number; organizationId?: string }[] = [
        { action: 'user.create', entityType: 'user', entityId: subject, organizationId },
        { action: 'user.update', entityType: 'user', entityId: subject, organizationId },
        { action: 'invitation.create', entityType: 'invitation', entityId: 41, organizationId },
        { action: 'user.update', entityType: 'user', entityId: randomUUID() },
        { action: 'user.deactivate', entityType: 'user', entityId: subject },
        { action: 'invitation.reject', entityType: 'invitation', entityId: 41, organizationId },
        // The subject acting on someone else: not an entry about the subject.
        { action: 'user.roles', entityType: 'user', entityId: actor.userId },
      ];
      for (const [index, entry] of entries.entries()) {
        const author = entry.action === 'user.roles' ? { userId: subject, email: 'rh.clinique@portail.test' } : actor;
        await writeAudit(db, { actor: author, ...entry, changes: { step: { before: index, after: index + 1 } } });
      }
      // Distinct, known times one minute apart (the entries were written within the same instant or so).
      const rows = await db.selectFrom('audit_log').select('id').orderBy('id').execute();
      for (const [index, row] of rows.entries()) {
        await db.updateTable('audit_log').set({ at: new Date(Date.UTC(2026, 10, 2, 9, index)) }).where('id', '=', row.id).execute();
        written.push(row.id);
      }
    });
    afterAll(async () => {
      await t?.close();
    });

    const audit = (email: string | null, query = '') => getChecked(t, email, ROUTE, `${ROUTE}${query}`);
    const ids = (items: Entry[]) => items.map((e) => e.id);
    const newestFirst = (list: number[]) => [...list].reverse();

    it('answers the back office every entry newest first, with exact totals', async () => {
      const { status, body } = await audit('backoffice@portail.test');
      expect(status).toBe(200);
      expect(body).toMatchObject({ total: 7, totalCount: 7, page: 1, pageSize: 10, totalPages: 1 });
      expect(ids(body.items)).toEqual(newestFirst(written));
    });

    it('answers each entry with who, what, about what, where and the changes', async () => {
      const { body } = await audit('backoffice@portail.test');
      const first = body.items.at(-1) as Entry;
      expect(first).toEqual({
        id: written[0],
        at: '2026-11-02T09:00:00.000Z',
        actorId: actor.userId,
        actorEmail: 'backoffice@portail.test',
        action: 'user.create',
        entityType: 'user',
        entityId: subject,
        organizationId,
        changes: { step: { before: 0, after: 1 } },
        sentence: "Béatrice Marchand a créé l'utilisateur Romain Garnier.",
        actorName: 'Béatrice Marchand',
        subject: { type: 'user', id: subject, label: 'Romain Garnier', exists: true },
        organization: { id: organizationId, code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' },
        details: [{ field: 'step', label: 'step', before: '0', after: '1' }],
      });
      expect(body.items.find((e: Entry) => e.entityType === 'invitation').entityId).toBe('41');
    });

    it('pages newest first without overlap, and answers an empty page past the last', async () => {
      const pages = await Promise.all([1, 2, 3, 4].map((page) => audit('backoffice@portail.test', `?pageSize=2&page=${page}`)));
      expect(pages.map((p) => p.body.totalPages)).toEqual([4, 4, 4, 4]);
      expect(pages.flatMap((p) => ids(p.body.items))).toEqual(newestFirst(written));
      const past = await audit('backoffice@portail.test', '?pageSize=2&page=5');
      expect(past.body).toMatchObject({ items: [], total: 7, page: 5 });
    });

    it('keeps with userId the entries about that user, not those where the user acted', async () => {
      const { body } = await audit('backoffice@portail.test', `?userId=${subject}`);
      expect(body.total).toBe(3);
      expect(ids(body.items)).toEqual(newestFirst([written[0]!, written[1]!, written[4]!]));
      expect(body.items.every((e: Entry) => e.entityType === 'user' && e.entityId === subject)).toBe(true);
    });

    it('keeps with organizationId the entries about that organization', async () => {
      const { body } = await audit('backoffice@portail.test', `?organizationId=${organizationId}`);
      expect(ids(body.items)).toEqual(newestFirst([written[0]!, written[1]!, written[2]!, written[5]!]));
    });

    it('keeps with action one kind of change, and combines filters', async () => {
      expect(ids((await audit('backoffice@portail.test', '?action=user.update')).body.items)).toEqual([written[3], written[1]]);
      const both = await audit('backoffice@portail.test', `?action=user.update&userId=${subject}&organizationId=${organizationId}`);
      expect(ids(both.body.items)).toEqual([written[1]]);
      expect((await audit('backoffice@portail.test', '?action=user.delete')).body).toMatchObject({ items: [], total: 0, totalPages: 0 });
    });

    it('answers the read-only back office (USER_LIST)', async () => {
      expect((await audit('lecteur@portail.test')).body.total).toBe(7);
    });

    it('refuses a back-office user without USER_LIST (403)', async () => {
      const db = t.database.handle.db;
      const email = `sans.droit.${randomUUID().slice(0, 8)}@exemple-test.fr`;
      const authId = randomUUID();
      await db.insertInto('identity_accounts').values({ subject: authId, email, display_name: 'Sans Droit', password_hash: null }).execute();
      await db.insertInto('users').values({ auth_id: authId, email, first_name: 'Sans', last_name: 'Droit', user_type: 'BACKOFFICE' }).execute();
      const { status, body } = await audit(email);
      expect(status).toBe(403);
      expect(body.message).toBe('Permission requise : USER_LIST.');
    });

    it("answers the clinic's administrator the clinic's entries only, without their changes (USER_LIST there)", async () => {
      const { status, body } = await audit('admin.clinique@portail.test');
      expect(status).toBe(200);
      expect(ids(body.items)).toEqual(newestFirst([written[0]!, written[1]!, written[2]!, written[5]!]));
      expect(body.items.every((e: Entry) => Object.keys(e.changes).length === 0)).toBe(true);
    });

    it('refuses an organization user without USER_LIST (403)', async () => {
      const { status, body } = await audit('rh.clinique@portail.test');
      expect(status).toBe(403);
      expect(body.message).toBe('Permission requise : USER_LIST.');
    });

    it('refuses an inactive account (403) and a call without a token (401)', async () => {
      expect((await audit('inactif@portail.test')).status).toBe(403);
      expect((await audit(null)).status).toBe(401);
    });

    it.each([
      ['?action=user.explode', 'query.action'],
      ['?action=user.update,user.explode', 'query.action'],
      ['?from=2026-11-02&to=2026-11-01', 'query.to'],
      ['?from=2026-02-30', 'query.from'],
      ['?actorId=nobody', 'query.actorId'],
      ['?userId=42', 'query.userId'],
      ['?organizationId=x', 'query.organizationId'],
      ['?pageSize=101', 'query.pageSize'],
      ['?page=0', 'query.page'],
    ])('refuses a malformed query %s (400 naming %s)', async (query, field) => {
      const { status, body } = await audit('backoffice@portail.test', query);
      expect(status).toBe(400);
      expect(body.fieldErrors.map((f: { field: string }) => f.field)).toContain(field);
    });
  });
}
