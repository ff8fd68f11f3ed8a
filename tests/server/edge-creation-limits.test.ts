// Creations have a business limit per person (issue 19): at most USER_CREATIONS_PER_HOUR users and
// INVITATIONS_PER_HOUR requests in any hour (defaults 200 and 100), answered 429 with a French message and
// Retry-After; counted from the audit journal inside the creating transaction, so one limit for every node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { backends } from './db/test-databases.ts';
import { freshEmail, invitationsApi, newPersonMetadata, organizationByName } from './support/invitations.ts';
import { callApi, completePayload, PERSONAS, startUsersApp, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

describe('USER_CREATIONS_PER_HOUR and INVITATIONS_PER_HOUR', () => {
  it('are 200 and 100 by default, 0 for no limit, and refuse anything but a whole number', () => {
    expect(readConfig({}).creationLimits).toEqual({ usersPerHour: 200, invitationsPerHour: 100 });
    expect(readConfig({ USER_CREATIONS_PER_HOUR: '0', INVITATIONS_PER_HOUR: '15' }).creationLimits).toEqual({ usersPerHour: 0, invitationsPerHour: 15 });
    for (const value of ['-1', '2.5', 'beaucoup', '1e3', '99999999']) {
      expect(() => readConfig({ USER_CREATIONS_PER_HOUR: value })).toThrowError(`USER_CREATIONS_PER_HOUR must be a whole number of creations an hour, 0 for no limit (got '${value}')`);
      expect(() => readConfig({ INVITATIONS_PER_HOUR: value })).toThrowError(`INVITATIONS_PER_HOUR must be a whole number of creations an hour, 0 for no limit (got '${value}')`);
    }
  });
});

for (const backend of backends) {
  describe(`the creations of one person in an hour on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { env: { USER_CREATIONS_PER_HOUR: '3', INVITATIONS_PER_HOUR: '2' } }));
    });
    afterAll(() => t?.close());

    const createUser = (as: string, email = freshEmail('limite')) =>
      callApi(t, { as, method: 'POST', route: '/api/v2/users/complete', payload: completePayload([orgs.cliniqueSirets[0]!.code], [roles.COMPTABLE!], { email }) });
    const usersCalled = async (email: string) => (await t.database.handle.db.selectFrom('users').select('id').where('email', '=', email).execute()).length;
    /** Moves this person's creations of that kind more than an hour back. */
    const ageCreations = async (email: string, action: 'user.create' | 'invitation.create') =>
      t.database.handle.db
        .updateTable('audit_log')
        .set({ at: new Date(Date.now() - 61 * 60_000) })
        .where('actor_id', '=', await userIdOf(t, email))
        .where('action', '=', action)
        .execute();

    it('refuses the user creation past the limit with 429, Retry-After and a French message, writing nothing', async () => {
      for (let i = 0; i < 3; i += 1) expect((await createUser(PERSONAS.backoffice)).status).toBe(201);
      const email = freshEmail('refusee');
      const refused = await createUser(PERSONAS.backoffice, email);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Vous avez atteint la limite de 3 utilisateurs créés par heure\. Réessayez dans (\d+) minutes?\.$/);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(await usersCalled(email)).toBe(0);
      // The wizard's operation counts the same creations.
      const wizard = await callApi(t, {
        as: PERSONAS.backoffice,
        method: 'POST',
        route: '/api/v2/users',
        payload: { nom: 'Durand', prenom: 'Élodie', email: freshEmail('assistant'), sirets: [orgs.cliniqueSirets[0]!.code], roles: ['COMPTABLE'], phoneNumber: '04 72 00 00 00', jobTitle: 'Assistante RH', mobilePhone: '', street: '12 rue des Lilas', postalCode: '69003', city: 'Lyon', hasInternalRole: false },
      });
      expect(wizard.status).toBe(429);
    });

    it("counts each person apart, and only the last hour's creations", async () => {
      expect((await createUser(PERSONAS.adminClinique)).status).toBe(201);
      await ageCreations(PERSONAS.backoffice, 'user.create');
      expect((await createUser(PERSONAS.backoffice)).status).toBe(201);
    });

    it('refuses the request for administrator rights past the limit with 429 and a French message', async () => {
      const api = invitationsApi(t);
      const { code } = await organizationByName(t, 'Clinique des Tilleuls');
      const create = () => api.create(PERSONAS.backoffice, { inviteeEmail: freshEmail('demande'), roleCode: 'ADMIN_ADHERENT', invitationType: 'NEW_ADMIN', organizationCode: code, metadata: newPersonMetadata() });
      expect((await create()).status).toBe(201);
      expect((await create()).status).toBe(201);
      const refused = await create();
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Vous avez atteint la limite de 2 demandes créées par heure\. Réessayez dans \d+ minutes?\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await ageCreations(PERSONAS.backoffice, 'invitation.create');
      expect((await create()).status).toBe(201);
    });

    it('holds exactly when one person creates at the same moment through several connections (nodes)', async () => {
      await ageCreations(PERSONAS.backoffice, 'user.create');
      const statuses = (await Promise.all(Array.from({ length: 6 }, () => createUser(PERSONAS.backoffice)))).map((a) => a.status).sort();
      expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    });
  });
}
