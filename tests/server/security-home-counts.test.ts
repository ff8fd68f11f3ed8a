// Attacks on the Accueil's counts (GET /api/v2/home, issue 24; second security review): counting used to learn
// about another company. An organization user's counts never move with another company's people or the back
// office's accounts; a person holding a role in two companies counts only where they list users (permissions per
// organization, not their union); a back-office account given an organization role in the database is the back
// office, never an employer administrator; someone without USER_LIST has no users' count at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { callApi, PERSONAS } from './support/users-api.ts';

const DAY = 24 * 3600_000;
const DEUX = 'deux.societes@exemple-test.fr';
const BUREAU = 'bureau.role@exemple-test.fr';
const USER_ITEMS = ['setupLinkExpiredUsers', 'invitationNotAcceptedUsers', 'dormantUsers'];

for (const backend of backends) {
  describe(`the Accueil's counts and other companies, on ${backend.name}`, () => {
    let t: TestApp;
    let f: ReturnType<typeof fixtures>;
    let clinicSiret: { id: string };
    let ehpad: { id: string };
    beforeAll(async () => {
      t = await startTestApp(backend);
      f = fixtures(t.database.handle.db);
      const db = t.database.handle.db;
      const clinic = await f.organization('Clinique des Tilleuls');
      clinicSiret = (await f.siretsOf(clinic.id))[0]!;
      ehpad = await f.organization('EHPAD Les Glycines');
      // The matrix's personas: deux.societes administers the EHPAD and holds COMPTABLE (no permission) in the clinic;
      // bureau.role is a read-only back-office account given ADMIN_ADHERENT on the clinic in the database.
      const deux = await f.user({ organizationId: ehpad.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: DEUX });
      await db.insertInto('role_assignments').values({ user_id: deux.id, organization_id: clinicSiret.id, role_id: (await f.role('COMPTABLE')).id, inherits_to_children: false }).execute();
      const bureau = await f.user({ organizationId: clinic.id, roleCode: 'ADMIN_ADHERENT', inherits: true, email: BUREAU });
      await db.updateTable('users').set({ user_type: 'BACKOFFICE' }).where('id', '=', bureau.id).execute();
      await db.insertInto('user_permissions').values({ user_id: bureau.id, permission_code: 'USER_LIST' }).execute();
    });
    afterAll(async () => {
      await t?.close();
    });

    const home = async (as: string) => {
      const answer = await callApi(t, { as, method: 'GET', route: '/api/v2/home' });
      expect(answer.status).toBe(200);
      return answer.body as Record<string, number>;
    };
    const db = () => t.database.handle.db;
    /** One person of this organization in each account state: dormant, link not accepted, link expired. */
    async function inEveryState(organizationId: string) {
      const [dormant, invited, expired] = [await f.user({ organizationId, roleCode: 'COMPTABLE' }), await f.user({ organizationId, roleCode: 'COMPTABLE' }), await f.user({ organizationId, roleCode: 'COMPTABLE' })];
      await db().updateTable('users').set({ dormancy_warned_at: new Date(Date.now() - DAY), last_login_at: new Date(Date.now() - 400 * DAY) }).where('id', '=', dormant.id).execute();
      await db().updateTable('users').set({ invitation_sent_at: new Date(Date.now() - DAY), last_login_at: null }).where('id', '=', invited.id).execute();
      await db().updateTable('users').set({ invitation_sent_at: new Date(Date.now() - 30 * DAY), last_login_at: null }).where('id', '=', expired.id).execute();
    }
    const userCounts = (body: Record<string, number>) => Object.fromEntries(USER_ITEMS.filter((k) => k in body).map((k) => [k, body[k]]));

    it("moves an organization user's counts only with their own company's people, never another's nor the back office's", async () => {
      const as = [PERSONAS.adminClinique, PERSONAS.adminEhpad, DEUX, PERSONAS.rhClinique, BUREAU, PERSONAS.backoffice];
      const before = Object.fromEntries(await Promise.all(as.map(async (p) => [p, userCounts(await home(p))] as const)));
      // Another company's people for each organization user, and a back-office account dormant.
      await inEveryState(clinicSiret.id);
      await db().updateTable('users').set({ dormancy_warned_at: new Date(Date.now() - DAY) }).where('email', '=', PERSONAS.lecteur).execute();
      const clinicMoved = Object.fromEntries(await Promise.all(as.map(async (p) => [p, userCounts(await home(p))] as const)));
      expect(clinicMoved[PERSONAS.adminClinique]).toEqual({ invitationNotAcceptedUsers: before[PERSONAS.adminClinique]!.invitationNotAcceptedUsers! + 2, dormantUsers: before[PERSONAS.adminClinique]!.dormantUsers! + 1 });
      // Their COMPTABLE on the clinic lists nobody: the clinic's people are not counted.
      expect(clinicMoved[DEUX]).toEqual(before[DEUX]);
      expect(clinicMoved[PERSONAS.adminEhpad]).toEqual(before[PERSONAS.adminEhpad]);
      // No USER_LIST: no users' count at all.
      expect(clinicMoved[PERSONAS.rhClinique]).toEqual({});
      // The back office (bureau.role: a back-office account, whatever role it was given) counts everyone's.
      for (const p of [BUREAU, PERSONAS.backoffice]) {
        expect(clinicMoved[p]).toEqual({ setupLinkExpiredUsers: before[p]!.setupLinkExpiredUsers! + 1, dormantUsers: before[p]!.dormantUsers! + 2 });
      }

      await inEveryState(ehpad.id);
      const ehpadMoved = Object.fromEntries(await Promise.all(as.map(async (p) => [p, userCounts(await home(p))] as const)));
      expect(ehpadMoved[PERSONAS.adminClinique]).toEqual(clinicMoved[PERSONAS.adminClinique]);
      for (const p of [PERSONAS.adminEhpad, DEUX]) {
        expect(ehpadMoved[p]).toEqual({ invitationNotAcceptedUsers: clinicMoved[p]!.invitationNotAcceptedUsers! + 2, dormantUsers: clinicMoved[p]!.dormantUsers! + 1 });
      }
      // bureau.role is the back office: the requests' counts, never 'Mes demandes' nor an employer's items.
      const bureau = Object.keys(await home(BUREAU)).filter((k) => k !== 'reminderPendingDays' && k !== 'expiringWithinDays');
      expect(bureau.sort()).toEqual(['dormantUsers', 'expiringRequests', 'longPendingRequests', 'pendingRequests', 'setupLinkExpiredUsers']);
      await db().updateTable('users').set({ dormancy_warned_at: null }).where('email', '=', PERSONAS.lecteur).execute();
    });
  });
}
