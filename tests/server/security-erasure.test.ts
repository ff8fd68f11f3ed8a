// Attacker review of the erasure of a deleted person (issue 23): after a permanent delete, nothing of theirs is found
// anywhere, including under an address they no longer had; and nothing of anyone else's is touched, even someone
// whose address holds theirs or who shares their name.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import type { TestApp } from './support/test-app.ts';
import { freshEmail, invitationsApi, newPersonMetadata } from './support/invitations.ts';
import { callApi, confirmEmailChange, createUserAs, PERSONAS, startUsersApp, uniqueEmail, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

for (const backend of backends) {
  describe(`the erasure under attack on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const db = () => t.database.handle.db;
    const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', route: string, extra: { params?: Record<string, string>; query?: Record<string, unknown>; payload?: unknown } = {}) =>
      callApi(t, { as: who, method, route, ...extra } as Parameters<typeof callApi>[1]);
    const create = (person: Record<string, string>) => createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], person);
    async function deletePermanently(id: string) {
      expect((await as(PERSONAS.backoffice, 'POST', '/api/v2/users/{id}/deactivate', { params: { id } })).status).toBe(200);
      expect((await as(PERSONAS.backoffice, 'DELETE', '/api/v2/users/{id}', { params: { id }, query: { hardDelete: true } })).status).toBe(204);
    }
    /** Every row where a trace could remain, as lower-case text. */
    const everything = async () => {
      const { rows } = await sql<{ text: string }>`
        select lower(string_agg(x::text, ' ')) as text from (
          select a::text as x from audit_log a union all select i::text from invitations i union all select o::text from outbox o
          union all select b::text from bulk_action_targets b union all select s::text from user_search s union all select u::text from users u
          union all select ia::text from identity_accounts ia) as rows`.execute(db());
      return rows[0]!.text;
    };

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
    });
    afterAll(() => t?.close());

    it('erases the e-mails sent to an address the person had before a change, and their name in them', async () => {
      const old = uniqueEmail('philemon.vaxelaire');
      const created = await create({ firstName: 'Philémon', lastName: 'Vaxelaire', email: old });
      const next = uniqueEmail('pv.nouvelle');
      const renamed = await as(PERSONAS.backoffice, 'PUT', '/api/v2/users/{id}', { params: { id: created.user.id }, payload: { firstName: 'Philémon', lastName: 'Vaxelaire', email: next, metadata: null } });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect((await confirmEmailChange(t, next)).status).toBe(200);
      // The notice of the change went to the old address, naming the person.
      const notices = await db().selectFrom('outbox').select('body').where('recipient', '=', old).execute();
      expect(notices.some((m) => m.body.includes('Philémon'))).toBe(true);

      await deletePermanently(created.user.id);

      const rest = await everything();
      for (const trace of ['vaxelaire', 'philémon', old, next]) expect(rest.includes(trace), trace).toBe(false);
      // Nor the back office's own data on request (who created, changed and deleted them).
      const export_ = await as(PERSONAS.backoffice, 'GET', '/api/v2/users/me/personal-data', { query: { format: 'json' } });
      expect(export_.status).toBe(200);
      expect(JSON.stringify(export_.body).toLowerCase()).not.toContain('vaxelaire');
    });

    it('leaves alone the e-mails of another person who holds an address the deleted person had before', async () => {
      const old = uniqueEmail('sidonie.wattrelos');
      const created = await create({ firstName: 'Sidonie', lastName: 'Wattrelos', email: old });
      const next = uniqueEmail('sw.nouvelle');
      expect((await as(PERSONAS.backoffice, 'PUT', '/api/v2/users/{id}', { params: { id: created.user.id }, payload: { firstName: 'Sidonie', lastName: 'Wattrelos', email: next, metadata: null } })).status).toBe(200);
      expect((await confirmEmailChange(t, next)).status).toBe(200);
      const heir = await create({ firstName: 'Timothée', lastName: 'Heritier', email: old });
      const heirsMail = () => db().selectFrom('outbox').select(['recipient', 'status', 'body']).where('recipient', '=', old).where('body', 'like', '%Timothée%').orderBy('id').execute();
      const before = await heirsMail();
      expect(before.length).toBeGreaterThan(0);

      await deletePermanently(created.user.id);

      expect(await heirsMail()).toEqual(before);
      expect((await db().selectFrom('users').select('email').where('id', '=', heir.user.id).executeTakeFirstOrThrow()).email).toBe(old);
    });

    it("leaves alone another person's requests and e-mails at an address the deleted person only asked for", async () => {
      const target = freshEmail('victime');
      const request = await invitationsApi(t).create(PERSONAS.adminEhpad, { inviteeEmail: target, invitationType: 'ROLE_ASSIGNMENT', organizationCode: orgs.ehpadSirets[0]!.code, roleCode: 'COMPTABLE' });
      expect(request.status, JSON.stringify(request.body)).toBe(201);
      const requestId = (request.body as { id: number }).id;
      await db().insertInto('outbox').values({ kind: 'account.invitation', recipient: target, subject: 'Votre compte', body: 'Bonjour Victorine, à vous.', status: 'PENDING' }).execute();
      const created = await create({ firstName: 'Côme', lastName: 'Plice', email: uniqueEmail('come.plice') });
      const typed = await as(PERSONAS.backoffice, 'PUT', '/api/v2/users/{id}', { params: { id: created.user.id }, payload: { firstName: 'Côme', lastName: 'Plice', email: target, metadata: null } });
      expect(typed.status).toBe(200);
      const victims = async () => ({
        request: await db().selectFrom('invitations').select(['status', 'invitee_email', 'metadata']).where('id', '=', requestId).executeTakeFirstOrThrow(),
        mails: await db().selectFrom('outbox').select(['recipient', 'status', 'body']).where('recipient', '=', target).where('kind', '<>', 'email.change.confirm').execute(),
        journal: await db().selectFrom('audit_log').select(['subject_name', 'changes', 'search_text']).where('entity_type', '=', 'invitation').where('entity_id', '=', String(requestId)).orderBy('id').execute(),
      });
      const before = await victims();

      await deletePermanently(created.user.id);

      expect(await victims()).toEqual(before);
      expect(before.request.status).toBe('PENDING');
      // The confirmation link's e-mail the portal wrote for them to that address goes with them.
      expect(await db().selectFrom('outbox').select('id').where('recipient', '=', target).where('kind', '=', 'email.change.confirm').execute()).toEqual([]);
    });

    it("leaves alone another person's address that holds the deleted person's address", async () => {
      const longer = uniqueEmail('jean.ysambert');
      const shorter = longer.slice(1); // 'ean.ysambert.…@exemple.fr', within the other one
      const other = await create({ firstName: 'Jean', lastName: 'Ysambert', email: longer });
      const gone = await create({ firstName: 'Ean', lastName: 'Ysambert', email: shorter });
      await db().insertInto('outbox').values({ kind: 'invitation.pending.digest', recipient: PERSONAS.backoffice, subject: 'Demandes en attente', body: `Demandes pour ${longer}, ${shorter.toUpperCase()}.` }).execute();
      const othersRows = async () => ({
        user: await db().selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', other.user.id).executeTakeFirstOrThrow(),
        journal: await db().selectFrom('audit_log').select(['subject_name', 'changes', 'search_text']).where('entity_id', '=', other.user.id).orderBy('id').execute(),
        mails: await db().selectFrom('outbox').select(['recipient', 'body']).where('recipient', '=', longer).orderBy('id').execute(),
      });
      const before = await othersRows();

      await deletePermanently(gone.user.id);

      expect(await othersRows()).toEqual(before);
      const { number } = await db().selectFrom('erased_persons').select('number').where('user_id', '=', gone.user.id).executeTakeFirstOrThrow();
      const digest = await db().selectFrom('outbox').select('body').where('body', 'like', `%${longer}%`).where('kind', '=', 'invitation.pending.digest').executeTakeFirstOrThrow();
      expect(digest.body).toBe(`Demandes pour ${longer}, Utilisateur supprimé n° ${Number(number)}.`);
    });

    it('erases the searches of their name or address that exports recorded in the journal, and those only', async () => {
      const email = uniqueEmail('gwendal.yvinec');
      const created = await create({ firstName: 'Gwendal', lastName: 'Yvinec', email });
      for (const [route, search] of [['/api/v2/users/export', 'Yvinec'], ['/api/v2/audit/export', email.toUpperCase()], ['/api/v2/users/export', 'gwendal yvinec'], ['/api/v2/audit/export', 'Garnier']] as const) {
        expect((await as(PERSONAS.backoffice, 'GET', route, { query: { search } })).status).toBe(200);
      }
      const searches = () => db().selectFrom('audit_log').select(sql<string>`changes -> 'filters' ->> 'search'`.as('search')).where('entity_type', '=', 'export').where(sql<boolean>`changes -> 'filters' ? 'search'`).execute();
      expect((await searches()).map((r) => r.search)).toEqual(expect.arrayContaining(['Yvinec', 'gwendal yvinec', 'Garnier']));

      await deletePermanently(created.user.id);

      const rest = await everything();
      for (const trace of ['yvinec', email]) expect(rest.includes(trace), trace).toBe(false);
      expect((await searches()).map((r) => r.search)).toContain('Garnier');
      const journal = await as(PERSONAS.backoffice, 'GET', '/api/v2/audit', { query: { action: 'users.export', pageSize: 100 } });
      expect(JSON.stringify(journal.body).toLowerCase()).not.toContain('yvinec');
    });

    it("erases their address from the requests they made, the request's recorded sender included", async () => {
      const email = uniqueEmail('hortense.quemeneur');
      const created = await createUserAs(t, PERSONAS.backoffice, [orgs.cliniqueSirets[0]!.code], [roles.ADMIN_ADHERENT!], { firstName: 'Hortense', lastName: 'Quemeneur', email });
      const made = await invitationsApi(t).create(email, {
        inviteeEmail: freshEmail('nouvelle'), invitationType: 'ROLE_ASSIGNMENT', organizationCode: orgs.cliniqueSirets[0]!.code, roleCode: 'COMPTABLE',
        metadata: newPersonMetadata({ firstName: 'Nina', lastName: 'Nouvelle' }, email),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await deletePermanently(created.user.id);
      const rest = await everything();
      for (const trace of ['quemeneur', email]) expect(rest.includes(trace), trace).toBe(false);
      // The newcomer's profile, someone else's, stays.
      const row = await db().selectFrom('invitations').select('metadata').where('id', '=', (made.body as { id: number }).id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row.metadata)).toContain('Nina');
    });

    it('erases the request that made their account at an address they later left, and its journal entries', async () => {
      const first = freshEmail('rosalind.tivoli');
      const api = invitationsApi(t);
      const made = await api.create(PERSONAS.backoffice, { inviteeEmail: first, roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: orgs.clinique.code, metadata: newPersonMetadata({ firstName: 'Rosalind', lastName: 'Tivoli', phoneNumber: '0655443322' }) });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect((await api.approve(PERSONAS.backoffice, (made.body as { id: number }).id)).status).toBe(200);
      const id = (await db().selectFrom('users').select('id').where('email', '=', first).executeTakeFirstOrThrow()).id;
      const next = uniqueEmail('rt.nouvelle');
      expect((await as(PERSONAS.backoffice, 'PUT', '/api/v2/users/{id}', { params: { id }, payload: { firstName: 'Rosalind', lastName: 'Tivoli', email: next, metadata: null } })).status).toBe(200);
      expect((await confirmEmailChange(t, next)).status).toBe(200);

      await deletePermanently(id);

      const rest = await everything();
      for (const trace of ['tivoli', '0655443322', first, next]) expect(rest.includes(trace), trace).toBe(false);
    });

    it('leaves nothing half-done when a statement of the erasure fails part-way, and erases all once it can', async () => {
      const email = uniqueEmail('octave.ribalier');
      const created = await create({ firstName: 'Octave', lastName: 'Ribalier', email });
      await db().insertInto('outbox').values({ kind: 'account.invitation', recipient: email, subject: 'Votre compte', body: 'Bonjour Octave', status: 'SENT', sent_at: new Date() }).execute();
      expect((await as(PERSONAS.backoffice, 'POST', '/api/v2/users/{id}/deactivate', { params: { id: created.user.id } })).status).toBe(200);
      const snapshot = async () => ({
        journal: await db().selectFrom('audit_log').selectAll().orderBy('id').execute(),
        invitations: await db().selectFrom('invitations').selectAll().orderBy('id').execute(),
        outbox: await db().selectFrom('outbox').selectAll().orderBy('id').execute(),
        erased: await db().selectFrom('erased_persons').selectAll().execute(),
        user: await db().selectFrom('users').selectAll().where('id', '=', created.user.id).execute(),
        search: await db().selectFrom('user_search').selectAll().where('id', '=', created.user.id).execute(),
      });
      const before = await snapshot();
      // The outbox refuses every change: the erasure fails after the journal and the requests were rewritten.
      await sql`create function refuse_outbox_change() returns trigger language plpgsql as $$ begin raise exception 'panne simulée'; end $$`.execute(db());
      await sql`create trigger refuse_outbox_change before update or delete on outbox for each row execute function refuse_outbox_change()`.execute(db());
      try {
        const token = await t.tokenFor(PERSONAS.backoffice);
        const failed = await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${created.user.id}?hardDelete=true`, headers: { authorization: `Bearer ${token}` } });
        expect(failed.statusCode).toBe(500);
        expect(failed.body).not.toContain('panne');
      } finally {
        await sql`drop trigger refuse_outbox_change on outbox`.execute(db());
        await sql`drop function refuse_outbox_change()`.execute(db());
      }
      expect(await snapshot()).toEqual(before);
      expect((await as(PERSONAS.backoffice, 'DELETE', '/api/v2/users/{id}', { params: { id: created.user.id }, query: { hardDelete: true } })).status).toBe(204);
      expect((await everything()).includes('ribalier')).toBe(false);
    });

    it('pseudonymises the deleted person only, never another person of the same name', async () => {
      const twin = await create({ firstName: 'Ludivine', lastName: 'Zacharie', email: uniqueEmail('ludivine.zacharie') });
      const gone = await create({ firstName: 'Ludivine', lastName: 'Zacharie', email: uniqueEmail('ludivine.zacharie') });
      await deletePermanently(gone.user.id);
      const found = await as(PERSONAS.backoffice, 'GET', '/api/v2/audit', { query: { search: 'Ludivine Zacharie', pageSize: 100 } });
      const items = (found.body as { items: { subject: { label: string } }[]; total: number }).items;
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((e) => e.subject.label.includes('Ludivine Zacharie'))).toBe(true);
      const twinEntries = await db().selectFrom('audit_log').select('subject_name').where('entity_id', '=', twin.user.id).execute();
      expect(twinEntries.map((e) => e.subject_name)).toEqual(twinEntries.map(() => 'Ludivine Zacharie'));
    });
  });
}
