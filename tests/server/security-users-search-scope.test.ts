// Issue 20, review: the users' search alone (searchPage: every user of the copy, no scope) is taken only without a
// scope, and an organization user's list filter always carries one (userFilterFor): whatever their roles, the
// permission their reach is read for, or a person in two companies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadActor } from '../../server/features/session/actor.repository.ts';
import { userFilterFor } from '../../server/features/users/users-read.service.ts';
import { backends } from './db/test-databases.ts';
import { fixtures } from './support/fixtures.ts';
import { PERSONAS, startUsersApp, type DemoOrganizations, type RoleIds } from './support/users-api.ts';
import type { TestApp } from './support/test-app.ts';

/** The account states' reference: none is filtered here. */
const WHEN = { now: new Date(), warnAfterDays: 365 };

for (const backend of backends.slice(0, 1)) {
  describe(`the users' search alone is never an organization user's on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const db = () => t.database.handle.db;
    const SHARED = 'zq.scope.partage@exemple-test.fr';

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend));
      const shared = await fixtures(db()).user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE', email: SHARED });
      await db().insertInto('role_assignments').values({ user_id: shared.id, organization_id: orgs.ehpadSirets[0]!.id, role_id: roles.GESTIONNAIRE!, inherits_to_children: false }).execute();
    });
    afterAll(() => t?.close());

    const actorOf = async (email: string) => {
      const { auth_id } = await db().selectFrom('users').select('auth_id').where('email', '=', email).executeTakeFirstOrThrow();
      return (await loadActor(db(), auth_id!))!;
    };

    it('gives every organization user allowed to list users a scope, with or without a search, and only the back office none', async () => {
      for (const email of [PERSONAS.adminClinique, PERSONAS.adminEhpad, SHARED]) {
        const actor = await actorOf(email);
        for (const search of ['e', 'qxvl', undefined]) {
          const filter = await userFilterFor(db(), actor, { search }, WHEN);
          expect(filter.scope, `${email} ${search}`).not.toBeNull();
          expect(filter.scope!.organizationIds.size, email).toBeGreaterThan(0);
        }
      }
      for (const email of [PERSONAS.backoffice, PERSONAS.lecteur]) expect((await userFilterFor(db(), await actorOf(email), { search: 'e' }, WHEN)).scope).toBeNull();
    });

    // An inactive account is refused every operation before any service (operations.policy.ts; the HTTP tests).
    it('refuses the list to an organization user without USER_LIST, before any search', async () => {
      for (const email of [PERSONAS.rhClinique]) await expect(userFilterFor(db(), await actorOf(email), { search: 'e' }, WHEN)).rejects.toMatchObject({ kind: 'forbidden' });
    });
  });
}
