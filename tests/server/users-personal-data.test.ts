// A person's data on request (issue 23): the back office downloads everything the portal holds about a person
// (details, roles, requests made and received, journal entries, e-mails, sign-in data) as JSON or a French HTML
// summary; the person downloads their own; no set-up or confirmation link leaves; every value of the HTML is
// escaped; each download is a journal entry; an unknown id answers 404 and organization users are refused.
import { describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, PERSONAS, uniqueEmail, usersAppFor } from './support/users-api.ts';

const PERSONAL = '/api/v2/users/{id}/personal-data' as const;
const MINE = '/api/v2/users/me/personal-data' as const;
const HOSTILE = '<img src=x onerror=alert(1)>';

for (const backend of backends) {
  describe(`a person's data on request on ${backend.name}`, () => {
    const { app, db, freshUser } = usersAppFor(backend);
    const download = (as: string, id: string, format?: 'json' | 'html') => callApi(app.t, { as, method: 'GET', route: PERSONAL, params: { id }, query: { format } });

    /** A person with a role, a changed job title, a pending new address, a request made and one rejected for them. */
    async function personWithHistory() {
      const created = await freshUser();
      const id = created.user.id;
      const f = fixtures(db());
      const ehpad = await f.organization('EHPAD Les Glycines');
      const clinic = await f.organization('Clinique des Tilleuls');
      // Their own request, as if they had made it (sender_user_id is looked up by e-mail).
      const made = await f.pendingInvitation({ sirenId: ehpad.id, senderEmail: created.user.email, type: 'ROLE_ASSIGNMENT', roleCode: 'COMPTABLE' });
      // A request for them, rejected by the back office with a reason.
      const received = await f.pendingInvitation({ sirenId: clinic.id, inviteeEmail: created.user.email });
      const rejected = await callApi(app.t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/invitations/{id}/reject', params: { id: received.id }, payload: { rejectionReason: 'Dossier incomplet, merci de le compléter.' } });
      expect(rejected.status).toBe(200);
      const next = uniqueEmail('nouvelle');
      const renamed = await callApi(app.t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Marc', lastName: "L'Hôte", email: next, metadata: null } });
      expect(renamed.status).toBe(200);
      return { id, email: created.user.email, next, made, received };
    }

    it('gives the back office every detail, role, request, journal entry and e-mail of the person, links removed', async () => {
      const person = await personWithHistory();
      const { status, body, headers } = await download(PERSONAS.backoffice, person.id);
      expect(status).toBe(200);
      expect(headers['content-type']).toMatch(/^application\/json/);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['content-disposition']).toMatch(/^attachment; filename="donnees-personnelles-l-hote-marc-\d{4}-\d{2}-\d{2}\.json"$/);

      expect(body.person).toMatchObject({ id: person.id, email: person.email, pendingEmail: person.next, firstName: 'Marc', lastName: "L'Hôte", jobTitle: 'Comptable', phoneNumber: '0612345678', street: '3 place Bellecour', postalCode: '69002', city: 'Lyon', userType: 'ORGANIZATION', isActive: true });
      expect(body.signIn).toMatchObject({ lastLoginAt: null, createdAt: body.person.createdAt });
      expect(body.signIn.invitationSentAt).not.toBeNull();
      expect(body.organizations).toEqual([
        expect.objectContaining({ organizationName: expect.stringContaining('Clinique des Tilleuls'), organizationType: 'SIRET', roleCode: 'COMPTABLE', roleLabel: 'Comptable', inheritsToChildren: false }),
      ]);
      expect(body.permissions).toEqual([]);
      expect(body.requestsMade).toEqual([expect.objectContaining({ id: person.made.id, status: 'PENDING', organizationName: 'EHPAD Les Glycines', roleCode: 'COMPTABLE', requestedBy: person.email, decidedBy: null })]);
      expect(body.requestsReceived).toEqual([
        expect.objectContaining({ id: person.received.id, status: 'REJECTED', inviteeEmail: person.email, decidedBy: PERSONAS.backoffice, rejectionReason: 'Dossier incomplet, merci de le compléter.' }),
      ]);
      expect(body.requestsReceived[0].processedAt).not.toBeNull();

      // The journal as it reads: sentences, each change as before → after; newest first.
      const sentences = body.journal.map((e: { sentence: string }) => e.sentence);
      expect(sentences).toEqual([
        expect.stringMatching(/ a demandé le changement de l'adresse e-mail de Marc L'Hôte pour « .+ »\.$/),
        expect.stringMatching(/ a créé l'utilisateur Marc L'Hôte\.$/),
      ]);
      expect(body.journal[0]).toMatchObject({ action: 'user.email.request', actionLabel: "Changement d'adresse demandé", actorName: expect.any(String) });
      expect(body.journal[0].details).toContainEqual({ field: 'pendingEmail', label: 'Adresse en attente', before: null, after: person.next });

      // The e-mails to both addresses: the set-up link, the confirmation link and the notice, none of their links.
      const subjects = body.emails.map((m: { subject: string }) => m.subject);
      expect(subjects).toEqual(expect.arrayContaining(['Votre compte sur le Portail Habilitations', 'Confirmez votre nouvelle adresse de connexion']));
      expect(body.emails.length).toBeGreaterThanOrEqual(3);
      const stored = await db().selectFrom('outbox').select('body').where('recipient', 'in', [person.email, person.next]).execute();
      expect(stored.some((m) => /https:\/\/\S+token=|https:\/\/\S+\/compte\//.test(m.body))).toBe(true);
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/https?:\/\//);
      expect(text).not.toMatch(/token=/i);
      const setup = body.emails.find((m: { subject: string }) => m.subject === 'Votre compte sur le Portail Habilitations');
      expect(setup.body).toContain('ouvrez le lien ci-dessous :\n\n[lien retiré]\n');
      expect(setup).toMatchObject({ recipient: person.email, status: expect.stringMatching(/^(PENDING|SENT|FAILED)$/) });
    });

    it('writes a journal entry for each download, which the journal reads as a sentence', async () => {
      const created = await freshUser();
      const before = await db().selectFrom('audit_log').select('action').where('entity_id', '=', created.user.id).execute();
      expect((await download(PERSONAS.lecteur, created.user.id, 'html')).status).toBe(200);
      const entries = await db().selectFrom('audit_log').select(['action', 'actor_email', 'changes']).where('entity_id', '=', created.user.id).orderBy('id').execute();
      expect(entries).toHaveLength(before.length + 1);
      expect(entries.at(-1)).toMatchObject({ action: 'personal-data.exported', actor_email: PERSONAS.lecteur, changes: { format: 'html' } });
      const journal = await callApi(app.t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/audit', query: { userId: created.user.id, action: 'personal-data.exported' } });
      expect(journal.body.items).toHaveLength(1);
      expect(journal.body.items[0].sentence).toMatch(/ a téléchargé les données personnelles de Marc L'Hôte\.$/);
    });

    it('answers a readable French HTML summary whose every value is escaped', async () => {
      const created = await freshUser();
      await db().updateTable('users').set({ first_name: HOSTILE, job_title: '"><script>alert(2)</script>' }).where('id', '=', created.user.id).execute();
      const { status, body, headers } = await download(PERSONAS.backoffice, created.user.id, 'html');
      expect(status).toBe(200);
      expect(headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['content-disposition']).toMatch(/^attachment; filename="donnees-personnelles-l-hote-img-src-x-onerror-alert-1-\d{4}-\d{2}-\d{2}\.html"$/);
      const html = String(body);
      expect(html).toMatch(/^<!doctype html>\n<html lang="fr">/);
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
      for (const heading of ['Identité et coordonnées', 'Connexion', 'Organisations et rôles', 'Demandes faites par la personne', 'Demandes la concernant', 'Journal des modifications', 'E-mails envoyés']) {
        expect(html).toContain(`<h2>${heading}</h2>`);
      }
      // Inert: no element made of a value, only its text.
      expect(html).not.toMatch(/<img|<script/i);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(html).toContain('&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
      expect(html).toContain('[lien retiré]');
      expect(html).not.toMatch(/https?:\/\//);
      expect(html).toContain('Comptable');
      expect(html).toMatch(/a créé l&#39;utilisateur &lt;img src=x onerror=alert\(1\)&gt; L&#39;Hôte\./);
    });

    it("lets any active person download their own, told as 'ses données personnelles'", async () => {
      const created = await freshUser();
      // Their first visit records their sign-in.
      expect((await callApi(app.t, { as: created.user.email, method: 'GET', route: '/api/v2/users/me' })).status).toBe(200);
      const own = await callApi(app.t, { as: created.user.email, method: 'GET', route: MINE, query: { format: 'json' } });
      expect(own.status).toBe(200);
      expect(own.body.person).toMatchObject({ id: created.user.id, email: created.user.email });
      expect(own.body.signIn.lastLoginAt).not.toBeNull();
      const byId = await download(created.user.email, created.user.id);
      expect(byId.status).toBe(200);
      const journal = await callApi(app.t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/audit', query: { userId: created.user.id, action: 'personal-data.exported' } });
      expect(journal.body.items.map((e: { sentence: string }) => e.sentence)).toEqual(["Marc L'Hôte a téléchargé ses données personnelles.", "Marc L'Hôte a téléchargé ses données personnelles."]);
      const html = await callApi(app.t, { as: PERSONAS.rhClinique, method: 'GET', route: MINE, query: { format: 'html' } });
      expect(html.status).toBe(200);
      expect(String(html.body)).toContain('<h1>Données personnelles de ');
    });

    it('gives a back-office account its own permissions', async () => {
      const own = await callApi(app.t, { as: PERSONAS.backoffice, method: 'GET', route: MINE });
      expect(own.status).toBe(200);
      expect(own.body.person.userType).toBe('BACKOFFICE');
      expect(own.body.permissions).toEqual(expect.arrayContaining(['USER_LIST', 'USER_CREATE']));
    });

    it('answers 404 for an unknown id, 403 to organization users and inactive accounts, and writes nothing then', async () => {
      const created = await freshUser();
      const count = async () => (await db().selectFrom('audit_log').select('id').where('action', '=', 'personal-data.exported').execute()).length;
      const before = await count();
      const unknown = await download(PERSONAS.backoffice, '00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Utilisateur introuvable.');
      // The person's own employer administrator: their reach is one company's, the data spans every company.
      for (const as of [PERSONAS.adminClinique, PERSONAS.rhClinique, PERSONAS.adminEhpad]) {
        const refused = await download(as, created.user.id);
        expect(refused.status, as).toBe(403);
      }
      expect((await download(PERSONAS.inactif, created.user.id)).status).toBe(403);
      const inactiveOwn = await callApi(app.t, { as: PERSONAS.inactif, method: 'GET', route: MINE });
      expect(inactiveOwn.status).toBe(403);
      expect(inactiveOwn.body.message).toBe('Votre compte est désactivé.');
      const bad = await callApi(app.t, { as: PERSONAS.backoffice, method: 'GET', route: PERSONAL, params: { id: created.user.id }, query: { format: 'pdf' } });
      expect(bad.status).toBe(400);
      expect(await count()).toBe(before);
    });

    it("tells the profile who may download the person's data (allowedActions)", async () => {
      const created = await freshUser();
      const read = async (as: string) => (await callApi(app.t, { as, method: 'GET', route: '/api/v2/users/{id}', params: { id: created.user.id } })).body.allowedActions;
      expect(await read(PERSONAS.backoffice)).toContain('exportPersonalData');
      expect(await read(PERSONAS.lecteur)).toEqual(['exportPersonalData']);
      expect(await read(PERSONAS.adminClinique)).not.toContain('exportPersonalData');
      expect(await read(created.user.email)).toEqual(['exportPersonalData']);
    });
  });
}
