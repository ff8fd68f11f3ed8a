// The authorization matrix's attacks on deciding requests and on the paths of 2026-11-28 (a second reader's review):
// a decision in one statement (refusals roll back), the kept lifecycle answers (allowedActions), the author's name of
// the journal, the journal's pages walked or gathered (an organization caller's scope and authorKnown), the users'
// search by an address as ranges. Every persona: another company's administrator, the read-only back office, a person
// holding roles in two companies, an inactive account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAudits } from '../../server/features/audit/audit.repository.ts';
import { countEveryJournalEntry } from '../../server/features/audit/audit-list.repository.ts';
import { gathersPage } from '../../server/features/audit/audit.model.ts';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { freshEmail, invitationsApi, newPersonMetadata, traceCounts } from './support/invitations.ts';
import { callApi, PERSONAS, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

for (const backend of backends) {
  describe(`attacks on this session's changes on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    let api: ReturnType<typeof invitationsApi>;
    const db = () => t.database.handle.db;

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      api = invitationsApi(t);
    });
    afterAll(() => t?.close());

    /** A pending administrator request of the clinic for a new person, made by its administrator. */
    async function clinicRequest(sender: string = PERSONAS.adminClinique): Promise<number> {
      const { status, body } = await api.create(sender, { inviteeEmail: freshEmail('attaque'), roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: orgs.clinique.code, metadata: newPersonMetadata() });
      expect(status, JSON.stringify(body)).toBe(201);
      return body.id as number;
    }
    const stored = (id: number) => db().selectFrom('invitations').select(['status', 'validator_user_id', 'validator_email', 'processed_at', 'rejection_reason']).where('id', '=', id).executeTakeFirstOrThrow();
    const untouched = { status: 'PENDING', validator_user_id: null, validator_email: null, processed_at: null, rejection_reason: null };

    describe('decisions: one may not decide, and a refused decision leaves nothing', () => {
      it('refuses approve and reject to every caller without the right, the request left pending, nothing written', async () => {
        const id = await clinicRequest();
        const before = await traceCounts(t);
        for (const as of [PERSONAS.lecteur, PERSONAS.adminEhpad, PERSONAS.adminClinique, PERSONAS.rhClinique, PERSONAS.inactif]) {
          expect((await api.approve(as, id)).status, `approve as ${as}`).toBe(403);
          expect((await api.reject(as, id, 'Une raison suffisamment longue')).status, `reject as ${as}`).toBe(403);
          expect(await stored(id), as).toEqual(untouched);
        }
        expect(await traceCounts(t)).toEqual(before);
      });

      it('rolls back an approval and a rejection of a request past its period not yet marked by the job (409)', async () => {
        const id = await clinicRequest();
        await db().updateTable('invitations').set({ created_at: new Date(Date.now() - 400 * 86_400_000) }).where('id', '=', id).execute();
        const before = await traceCounts(t);
        expect((await api.approve(PERSONAS.backoffice, id)).status).toBe(409);
        expect((await api.reject(PERSONAS.backoffice, id, 'Une raison suffisamment longue')).status).toBe(409);
        expect(await stored(id)).toEqual(untouched);
        expect(await traceCounts(t)).toEqual(before);
      });

      it('rolls back an approval refused after the decision (closed organization, back-office invitee, sixth role)', async () => {
        // A closed establishment (only a SIRET closes): the request stays pending.
        const f = fixtures(db());
        const siret = orgs.cliniqueSirets.at(-1)!;
        const { id: closedId } = await f.pendingInvitation({ sirenId: siret.id, roleCode: 'COMPTABLE' });
        await db().updateTable('organizations').set({ closed: true }).where('id', '=', siret.id).execute();
        try {
          const before = await traceCounts(t);
          const refused = await api.approve(PERSONAS.backoffice, closedId);
          expect(refused.status, JSON.stringify(refused.body)).toBe(409);
          expect(await stored(closedId)).toEqual(untouched);
          expect(await traceCounts(t)).toEqual(before);
        } finally {
          await db().updateTable('organizations').set({ closed: false }).where('id', '=', siret.id).execute();
        }
        // A back-office invitee.
        const { id: toBackOffice } = await f.pendingInvitation({ sirenId: orgs.clinique.id, inviteeEmail: PERSONAS.lecteur });
        let before = await traceCounts(t);
        expect((await api.approve(PERSONAS.backoffice, toBackOffice)).status).toBe(409);
        expect(await stored(toBackOffice)).toEqual(untouched);
        expect(await traceCounts(t)).toEqual(before);
        // A sixth role: nothing given, still pending.
        const person = await f.user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
        const held = ['RESSOURCE_HUMAINE', 'CE_CSE_SIEGE', 'CABINET_COMPTABLE', 'GESTIONNAIRE_ALTERNANCE'].filter((code) => roles[code] !== undefined);
        for (const code of held) await db().insertInto('role_assignments').values({ user_id: person.id, organization_id: orgs.cliniqueSirets[0]!.id, role_id: roles[code]!, inherits_to_children: false }).execute();
        const count = (await db().selectFrom('role_assignments').select((eb) => eb.fn.count<number>('role_id').distinct().as('n')).where('user_id', '=', person.id).executeTakeFirstOrThrow()).n;
        expect(Number(count)).toBe(5);
        {
          const { id: sixth } = await f.pendingInvitation({ sirenId: orgs.clinique.id, inviteeEmail: person.email, type: 'ROLE_ASSIGNMENT' });
          before = await traceCounts(t);
          expect((await api.approve(PERSONAS.backoffice, sixth)).status).toBe(409);
          expect(await stored(sixth)).toEqual(untouched);
          expect(await traceCounts(t)).toEqual(before);
        }
      });

      it('refuses a decision on a cancelled request and keeps it cancelled', async () => {
        const id = await clinicRequest();
        expect((await api.cancel(PERSONAS.adminClinique, id)).status).toBe(200);
        const cancelled = await stored(id);
        expect((await api.approve(PERSONAS.backoffice, id)).status).toBe(409);
        expect((await api.reject(PERSONAS.backoffice, id, 'Une raison suffisamment longue')).status).toBe(409);
        expect(await stored(id)).toEqual(cancelled);
      });

      it('lets exactly one of two concurrent deciders win', async () => {
        const id = await clinicRequest();
        const answers = await Promise.all([api.approve(PERSONAS.backoffice, id), api.reject(PERSONAS.backoffice, id, 'Une raison suffisamment longue')]);
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
        const row = await stored(id);
        expect(row.status).toBe(answers[0]!.status === 200 ? 'APPROVED' : 'REJECTED');
      });
    });

    describe('allowedActions (memoized machine) match what the server does', () => {
      it('offers each caller exactly the moves the server then accepts, whatever order the memo was filled in', async () => {
        // The requester asks first (isRequester), then the back office, the read-only back office, then the requester again.
        const id = await clinicRequest();
        const mine = async () => ((await api.mine(PERSONAS.adminClinique)).body.items as { id: number; allowedActions: string[] }[]).find((i) => i.id === id)!.allowedActions;
        const listed = async (as: string) => ((await api.get(as, id)).body.allowedActions as string[] | undefined) ?? ((await api.list(as, 'pageSize=100')).body.items as { id: number; allowedActions: string[] }[]).find((i) => i.id === id)!.allowedActions;
        expect(await mine()).toEqual(['cancel']);
        expect([...(await listed(PERSONAS.backoffice))].sort()).toEqual(['approve', 'cancel', 'reject']);
        expect(await listed(PERSONAS.lecteur)).toEqual([]);
        expect(await mine()).toEqual(['cancel']);
        // What is not offered is refused.
        expect((await api.approve(PERSONAS.lecteur, id)).status).toBe(403);
        expect((await api.cancel(PERSONAS.lecteur, id)).status).not.toBe(200);
        expect((await api.approve(PERSONAS.adminClinique, id)).status).toBe(403);
        // A request the back office made itself: the back office is then also its requester.
        const own = await clinicRequest(PERSONAS.backoffice);
        expect([...(await listed(PERSONAS.backoffice))].sort()).toEqual(['approve', 'cancel', 'reject']);
        expect([...((await api.get(PERSONAS.backoffice, own)).body.allowedActions ?? ['approve', 'cancel', 'reject'])].sort()).toEqual(['approve', 'cancel', 'reject']);
        // Decided: nothing for anyone.
        expect((await api.approve(PERSONAS.backoffice, id)).status).toBe(200);
        expect(await mine()).toEqual([]);
        expect(await listed(PERSONAS.backoffice)).toEqual([]);
        expect((await api.cancel(PERSONAS.adminClinique, id)).status).toBe(409);
      });
    });

    describe("the journal author's name (Actor.name)", () => {
      it('records the deciding person as author, under their own name', async () => {
        const id = await clinicRequest();
        expect((await api.approve(PERSONAS.backoffice, id)).status).toBe(200);
        const entry = await db().selectFrom('audit_log').select(['actor_id', 'actor_email', 'actor_name']).where('entity_type', '=', 'invitation').where('entity_id', '=', String(id)).where('action', '=', 'invitation.approve').executeTakeFirstOrThrow();
        const me = await db().selectFrom('users').select(['id', 'first_name', 'last_name']).where('email', '=', PERSONAS.backoffice).executeTakeFirstOrThrow();
        expect(entry).toEqual({ actor_id: me.id, actor_email: PERSONAS.backoffice, actor_name: `${me.first_name} ${me.last_name}` });
      });

      it('refuses a change of one\'s own profile (so Actor.name cannot go stale within one\'s own request)', async () => {
        const id = await userIdOf(t, PERSONAS.backoffice);
        const me = await db().selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
        const renamed = await callApi(t, { as: PERSONAS.backoffice, method: 'PUT', route: '/api/v2/users/{id}', params: { id }, payload: { firstName: 'Renommée', lastName: me.last_name, email: me.email, metadata: null } });
        expect(renamed.status).toBe(403);
        expect((await db().selectFrom('users').select('first_name').where('id', '=', id).executeTakeFirstOrThrow()).first_name).toBe(me.first_name);
      });
    });

    describe("the journal's walked and gathered pages keep an organization caller's scope and authorKnown", () => {
      it("finds, page after page, exactly the EHPAD's entries holding the term, never the clinic's nor those found by a hidden author", async () => {
        const rh = await userIdOf(t, PERSONAS.rhClinique);
        const N = 1000;
        const mk = (organizationId: string, subject: string, actor: { userId: string | null; email: string | null; name?: string }) => ({
          actor,
          action: 'user.update' as const,
          entityType: 'user' as const,
          entityId: crypto.randomUUID(),
          organizationIds: [organizationId],
          subject: { name: subject, emails: [] },
          changes: {},
        });
        // Interleaved in time: the EHPAD's own (to be found), hidden-author entries in its scope, the clinic's.
        for (let batch = 0; batch < 10; batch++) {
          const entries = [];
          for (let i = batch * 100; i < (batch + 1) * 100; i++) {
            entries.push(mk(orgs.ehpad.id, `Qzorglub Ehpad ${i}`, { userId: null, email: null, name: 'Système' }));
            entries.push(mk(orgs.ehpad.id, `Personne ${i}`, { userId: rh, email: PERSONAS.rhClinique, name: 'Qzorglub Secret' }));
            entries.push(mk(orgs.clinique.id, `Qzorglub Clinique ${i}`, { userId: rh, email: PERSONAS.rhClinique, name: 'Qzorglub Secret' }));
          }
          await writeAudits(db(), entries);
        }
        const everyone = await countEveryJournalEntry(db());
        // Page 1 of 5 is walked newest first, pages of 100 gathered: both paths are exercised.
        expect(gathersPage({ total: N, everyone, reach: 5 })).toBe(false);
        expect(gathersPage({ total: N, everyone, reach: 100 })).toBe(true);
        const pages = async (pageSize: number, last: number) => {
          const items: string[] = [];
          let total = -1;
          for (let page = 1; page <= last; page++) {
            const answer = await callApi(t, { as: PERSONAS.adminEhpad, method: 'GET', route: '/api/v2/audit', query: { search: 'qzorglub', page, pageSize } });
            expect(answer.status).toBe(200);
            total = answer.body.total;
            for (const item of answer.body.items as object[]) {
              const text = JSON.stringify(item);
              expect(text, `page ${page} of ${pageSize}`).not.toContain('Clinique');
              expect(text).not.toContain('Secret');
              expect(text).not.toContain('Personne ');
              items.push(text);
            }
          }
          return { items, total };
        };
        const gathered = await pages(100, 10);
        expect(gathered.total).toBe(N);
        expect(new Set(gathered.items).size).toBe(N);
        const walked = await pages(5, 12);
        expect(walked.total).toBe(N);
        expect(walked.items).toEqual(gathered.items.slice(0, 60));
        // The hidden author cannot be found by their e-mail either, on either path.
        const byEmail = await callApi(t, { as: PERSONAS.adminEhpad, method: 'GET', route: '/api/v2/audit', query: { search: 'rh.clinique', pageSize: 5 } });
        expect(byEmail.body.items.filter((i: object) => JSON.stringify(i).includes('Personne '))).toEqual([]);
      });
    });

    describe("the users' search by an address (ranges of the e-mail parts)", () => {
      const ODD = ['pct%50@odd-test.fr', 'under_s@odd-test.fr', 'underxs@odd-test.fr', 'back\\slash@odd-test.fr', 'deux@arobases@odd-test.fr', 'maj.upper@odd-test.fr', 'zz.ehpad@odd-test.fr'];
      const made = new Set<string>();
      beforeAll(async () => {
        const f = fixtures(db());
        for (const email of ODD) {
          const onEhpad = email.startsWith('zz.ehpad');
          try {
            await f.user({ organizationId: (onEhpad ? orgs.ehpadSirets : orgs.cliniqueSirets)[0]!.id, roleCode: 'COMPTABLE', email });
            made.add(email);
          } catch {
            // an address the schema refuses: not searched
          }
        }
      });
      const found = async (as: string, search: string) => {
        const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { search, pageSize: 100, includeInactive: true } });
        expect(answer.status).toBe(200);
        const emails = (answer.body.items as { email: string }[]).map((u) => u.email.toLowerCase()).filter((e) => e.endsWith('@odd-test.fr') || e.endsWith('@portail.test'));
        expect(answer.body.total).toBeGreaterThanOrEqual(emails.length);
        return emails.sort();
      };
      const expected = (emails: string[]) => emails.filter((e) => made.has(e)).sort();

      it('takes %, _ and \\ literally, ignores case, and finds addresses with several @', async () => {
        const cases: [string, string[]][] = [
          ['pct%50@odd', ['pct%50@odd-test.fr']],
          ['%50@odd-test', ['pct%50@odd-test.fr']],
          ['%@odd-test.fr', []],
          ['_s@odd-test.fr', ['under_s@odd-test.fr']],
          ['s@odd-test.f', ['under_s@odd-test.fr', 'underxs@odd-test.fr', 'deux@arobases@odd-test.fr']],
          ['\\slash@odd', ['back\\slash@odd-test.fr']],
          ['\\@odd', []],
          ['x@arobases', ['deux@arobases@odd-test.fr']],
          ['arobases@odd-test', ['deux@arobases@odd-test.fr']],
          ['MAJ.UPPER@ODD-TEST.FR', ['maj.upper@odd-test.fr']],
          ['r@odd-test.fr', ['maj.upper@odd-test.fr']],
          ['e@odd-test.fr\u{10FFFF}', []],
          ['e@odd-test.f\u{10FFFF}', []],
        ];
        for (const [search, emails] of cases) expect(await found(PERSONAS.backoffice, search), search).toEqual(expected(emails));
        for (const [search, emails] of cases) expect(await found(PERSONAS.adminClinique, search), `clinic: ${search}`).toEqual(expected(emails));
      });

      it("never finds another company's users, nor a back-office account, for an organization user", async () => {
        for (const search of ['pct%50@odd', '_s@odd-test.fr', 'x@arobases', 'MAJ.UPPER@ODD-TEST.FR', 'admin.clinique@portail.test', 'rh.clinique@portail.test', 'e@portail.test', 'r@portail.test', 'e@p']) {
          const outside = new Set([...ODD.filter((e) => !e.startsWith('zz.ehpad')), PERSONAS.adminClinique, PERSONAS.rhClinique, PERSONAS.backoffice, PERSONAS.lecteur]);
          expect((await found(PERSONAS.adminEhpad, search)).filter((e) => outside.has(e)), search).toEqual([]);
        }
        for (const search of ['zz.ehpad@odd-test.fr', 'd@odd', 'admin.ehpad@portail.test', 'ice@portail.test', 'lecteur@portail.test', 'r@portail.test']) {
          const emails = await found(PERSONAS.adminClinique, search);
          expect(emails.filter((e) => e.includes('ehpad') || e === PERSONAS.lecteur || e === PERSONAS.backoffice), search).toEqual([]);
        }
      });
    });
  });
}
