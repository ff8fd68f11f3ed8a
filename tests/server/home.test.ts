// GET /api/v2/home (issue 24): the Accueil's counts of the work that waits, each the exact total of the list it links
// to, for every persona, on data made here with known counts; and the filters those lists gained (accountState, waiting).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, PERSONAS } from './support/users-api.ts';
import type { ApiRoute } from './support/api.ts';

const DAY = 24 * 3600_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

/** Each item of the Accueil, and the list (route and query) whose total it must be. */
const LIST_OF: Record<string, { route: ApiRoute; query: Record<string, string> }> = {
  pendingRequests: { route: '/api/v2/invitations', query: { status: 'pending' } },
  longPendingRequests: { route: '/api/v2/invitations', query: { status: 'pending', waiting: 'longPending' } },
  expiringRequests: { route: '/api/v2/invitations', query: { status: 'pending', waiting: 'expiringSoon' } },
  setupLinkExpiredUsers: { route: '/api/v2/users', query: { accountState: 'setupLinkExpired' } },
  myPendingRequests: { route: '/api/v2/invitations/mine', query: { status: 'pending' } },
  invitationNotAcceptedUsers: { route: '/api/v2/users', query: { accountState: 'invitationNotAccepted' } },
  dormantUsers: { route: '/api/v2/users', query: { accountState: 'dormant' } },
};

for (const backend of backends) {
  describe(`GET /api/v2/home on ${backend.name}`, () => {
    let t: TestApp;
    let f: ReturnType<typeof fixtures>;
    let clinic: { id: string };
    let clinicSiret: { id: string };
    let ehpad: { id: string };
    beforeAll(async () => {
      t = await startTestApp(backend);
      f = fixtures(t.database.handle.db);
      clinic = await f.organization('Clinique des Tilleuls');
      clinicSiret = (await f.siretsOf(clinic.id))[0]!;
      ehpad = await f.organization('EHPAD Les Glycines');
    });
    afterAll(async () => {
      await t?.close();
    });

    const db = () => t.database.handle.db;
    const home = async (as: string) => {
      const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/home' });
      expect(answer.status).toBe(200);
      return answer.body as Record<string, number>;
    };
    const listTotal = async (as: string, item: string) => {
      const { route, query } = LIST_OF[item]!;
      const answer = await callApi(t, { as, method: 'GET', route, query: { ...query, pageSize: 100 } });
      expect(answer.status).toBe(200);
      return answer.body as { total: number; items?: { email: string }[]; invitations?: { id: number }[] };
    };
    /** A user of this organization sent a set-up link `sentDaysAgo` days ago, signed in since or not. */
    const invited = async (organizationId: string, sentDaysAgo: number, options: { signedIn?: boolean; active?: boolean } = {}) => {
      const user = await f.user({ organizationId, roleCode: 'COMPTABLE', active: options.active ?? true });
      await db()
        .updateTable('users')
        .set({ invitation_sent_at: ago(sentDaysAgo), last_login_at: options.signedIn ? ago(0) : null })
        .where('id', '=', user.id)
        .execute();
      return user;
    };
    const pendingMade = async (daysAgo: number, sirenId = clinic.id) => {
      const { id } = await f.pendingInvitation({ sirenId, roleCode: 'ADMIN_ADHERENT' });
      await db().updateTable('invitations').set({ created_at: ago(daysAgo) }).where('id', '=', id).execute();
      return id;
    };

    it('gives each persona the items of the lists they may open, each equal to that list’s total', async () => {
      const expected: Record<string, string[]> = {
        [PERSONAS.backoffice]: ['pendingRequests', 'longPendingRequests', 'expiringRequests', 'setupLinkExpiredUsers', 'dormantUsers'],
        // Read-only back office: the requests' list is the back office's, the users list needs USER_LIST (held).
        [PERSONAS.lecteur]: ['pendingRequests', 'longPendingRequests', 'expiringRequests', 'setupLinkExpiredUsers', 'dormantUsers'],
        [PERSONAS.adminClinique]: ['myPendingRequests', 'invitationNotAcceptedUsers', 'dormantUsers'],
        [PERSONAS.adminEhpad]: ['myPendingRequests', 'invitationNotAcceptedUsers', 'dormantUsers'],
        // No USER_LIST, no USER_CREATE: nothing waits for them.
        [PERSONAS.rhClinique]: [],
      };
      await invited(clinicSiret.id, 10);
      await pendingMade(10);
      for (const [as, items] of Object.entries(expected)) {
        const body = await home(as);
        expect(Object.keys(body).filter((k) => k in LIST_OF).sort(), as).toEqual([...items].sort());
        expect(body).toMatchObject({ reminderPendingDays: 7, expiringWithinDays: 7 });
        for (const item of items) expect(body[item], `${as} ${item}`).toBe((await listTotal(as, item)).total);
      }
    });

    it('counts the requests pending, those pending for more than 7 days and those expiring within 7 days', async () => {
      const before = await home(PERSONAS.backoffice);
      const fresh = await pendingMade(1);
      const old = await pendingMade(10);
      const expiring = await pendingMade(25);
      const after = await home(PERSONAS.backoffice);
      expect(after.pendingRequests! - before.pendingRequests!).toBe(3);
      expect(after.longPendingRequests! - before.longPendingRequests!).toBe(2);
      expect(after.expiringRequests! - before.expiringRequests!).toBe(1);
      const long = (await listTotal(PERSONAS.backoffice, 'longPendingRequests')).invitations!.map((i) => i.id);
      expect(long).toEqual(expect.arrayContaining([old, expiring]));
      expect(long).not.toContain(fresh);
      const soon = (await listTotal(PERSONAS.backoffice, 'expiringRequests')).invitations!.map((i) => i.id);
      expect(soon).toContain(expiring);
      expect(soon).not.toContain(old);
      // A decision takes it out of every count at once.
      const rejected = await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/invitations/{id}/reject', params: { id: expiring }, payload: { rejectionReason: 'Refusée pour le test.' } });
      expect(rejected.status).toBe(200);
      const decided = await home(PERSONAS.backoffice);
      expect([decided.pendingRequests, decided.longPendingRequests, decided.expiringRequests]).toEqual([after.pendingRequests! - 1, after.longPendingRequests! - 1, after.expiringRequests! - 1]);
    });

    it('counts the users who never signed in since their link, within the administrator’s organizations, and those whose link expired', async () => {
      const clinicBefore = await home(PERSONAS.adminClinique);
      const ehpadBefore = await home(PERSONAS.adminEhpad);
      const backOfficeBefore = await home(PERSONAS.backoffice);
      const recent = await invited(clinicSiret.id, 1);
      const expired = await invited(clinicSiret.id, 8);
      await invited(clinicSiret.id, 8, { signedIn: true });
      await invited(clinicSiret.id, 8, { active: false });
      await invited(ehpad.id, 30);
      // Never signed in, but no link known to have been sent (made before migration 0016): in neither list.
      await f.user({ organizationId: clinicSiret.id, roleCode: 'COMPTABLE' });

      const clinicAfter = await home(PERSONAS.adminClinique);
      expect(clinicAfter.invitationNotAcceptedUsers! - clinicBefore.invitationNotAcceptedUsers!).toBe(2);
      expect((await home(PERSONAS.adminEhpad)).invitationNotAcceptedUsers! - ehpadBefore.invitationNotAcceptedUsers!).toBe(1);
      expect((await home(PERSONAS.backoffice)).setupLinkExpiredUsers! - backOfficeBefore.setupLinkExpiredUsers!).toBe(2);
      const listed = (await listTotal(PERSONAS.adminClinique, 'invitationNotAcceptedUsers')).items!.map((u) => u.email);
      expect(listed).toEqual(expect.arrayContaining([recent.email, expired.email]));
      const expiredList = (await listTotal(PERSONAS.backoffice, 'setupLinkExpiredUsers')).items!.map((u) => u.email);
      expect(expiredList).toContain(expired.email);
      expect(expiredList).not.toContain(recent.email);
      // The screen lists inactive users too: a deactivated account is in no account state all the same.
      const withInactive = await callApi(t, { as: PERSONAS.adminClinique, method: 'GET', route: '/api/v2/users', query: { accountState: 'invitationNotAccepted', includeInactive: true } });
      expect(withInactive.body.total).toBe(clinicAfter.invitationNotAcceptedUsers);

      // Their first sign-in takes them out of the list and of the count (the list's kept total is not reused).
      await db().updateTable('users').set({ last_login_at: new Date() }).where('id', '=', expired.id).execute();
      expect((await home(PERSONAS.adminClinique)).invitationNotAcceptedUsers).toBe(clinicAfter.invitationNotAcceptedUsers! - 1);
      expect((await listTotal(PERSONAS.adminClinique, 'invitationNotAcceptedUsers')).total).toBe(clinicAfter.invitationNotAcceptedUsers! - 1);
      // A link sent again moves them out of the expired ones.
      const ehpadUser = await invited(ehpad.id, 9);
      const withIt = (await home(PERSONAS.backoffice)).setupLinkExpiredUsers!;
      await db().updateTable('users').set({ invitation_sent_at: new Date() }).where('id', '=', ehpadUser.id).execute();
      expect((await home(PERSONAS.backoffice)).setupLinkExpiredUsers).toBe(withIt - 1);
    });

    it('counts the administrator’s own pending requests as their ‘Mes demandes’ list does', async () => {
      const before = await home(PERSONAS.adminClinique);
      const made = await callApi(t, {
        as: PERSONAS.adminClinique,
        method: 'POST',
        route: '/api/v2/invitations',
        query: { organizationId: clinicSiret.id },
        payload: { inviteeEmail: `demande.${Date.now()}@exemple-test.fr`, roleCode: 'COMPTABLE', invitationType: 'ROLE_ASSIGNMENT' },
      });
      expect(made.status).toBe(201);
      const after = await home(PERSONAS.adminClinique);
      expect(after.myPendingRequests).toBe(before.myPendingRequests! + 1);
      expect(after.myPendingRequests).toBe((await listTotal(PERSONAS.adminClinique, 'myPendingRequests')).total);
      // Another administrator's request is not theirs.
      expect((await home(PERSONAS.adminEhpad)).myPendingRequests).toBe((await listTotal(PERSONAS.adminEhpad, 'myPendingRequests')).total);
    });

    it('refuses an unknown account state or waiting filter, naming the parameter', async () => {
      const users = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { accountState: 'dormant-ish' } });
      expect(users.status).toBe(400);
      expect(JSON.stringify(users.body.fieldErrors)).toContain('accountState');
      const requests = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/invitations', query: { waiting: 'soon' } });
      expect(requests.status).toBe(400);
      expect(JSON.stringify(requests.body.fieldErrors)).toContain('waiting');
    });

    it('keeps an organization user’s account-state list within their scope', async () => {
      const outside = await invited(ehpad.id, 2);
      const listed = (await listTotal(PERSONAS.adminClinique, 'invitationNotAcceptedUsers')).items!.map((u) => u.email);
      expect(listed).not.toContain(outside.email);
      expect((await listTotal(PERSONAS.backoffice, 'invitationNotAcceptedUsers')).items!.map((u) => u.email)).toContain(outside.email);
    });
  });
}
