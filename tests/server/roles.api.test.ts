import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './db/test-databases.ts';
import { ROLES } from '../../server/seed/seed-data.ts';
import { expectMatchesContract } from './support/contract.ts';
import { getAs } from './support/requests.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const ROUTE = '/api/v2/roles';

interface Role {
  id: number;
  code: string;
  name: string;
  nomRole: string;
  type: 'INTERNAL' | 'EXTERNAL';
  metadata: { color: string } | null;
  permissions: { code: string }[];
}

const EXTERNAL_CODES = ROLES.filter((r) => r.type === 'EXTERNAL').map((r) => r.code);

for (const backend of backends) {
  describe(`GET ${ROUTE} on ${backend.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(backend);
      // A role without colour and an INTERNAL role of no known code, to see how each is answered.
      await t.database.handle.db
        .insertInto('roles')
        .values([
          { code: 'TEST_SANS_COULEUR', name: 'Rôle sans couleur', type: 'EXTERNAL', color: null },
          { code: 'TEST_INTERNE', name: 'Rôle interne de test', type: 'INTERNAL', color: '#123456' },
        ])
        .execute();
    });
    afterAll(async () => {
      await t?.close();
    });

    async function roles(email: string | null) {
      const answer = await getAs(t, email, ROUTE);
      expectMatchesContract('GET', ROUTE, answer.status, answer.body);
      return answer;
    }
    const codes = (list: Role[]) => list.map((r) => r.code);

    it('answers the back office every role, INTERNAL ones included, in id order', async () => {
      const { status, body } = await roles('backoffice@portail.test');
      expect(status).toBe(200);
      expect(codes(body)).toEqual([...ROLES.map((r) => r.code), 'TEST_SANS_COULEUR', 'TEST_INTERNE']);
      const ids = body.map((r: Role) => r.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    });

    it('answers each role with nomRole = name, its colour as metadata and its permissions', async () => {
      const { body } = await roles('lecteur@portail.test');
      const admin = body.find((r: Role) => r.code === 'ADMIN_ADHERENT');
      expect(admin).toEqual({
        id: expect.any(Number),
        code: 'ADMIN_ADHERENT',
        name: 'Administrateur adhérent ("Admin Adhérent")',
        nomRole: 'Administrateur adhérent ("Admin Adhérent")',
        type: 'INTERNAL',
        metadata: { color: '#7C3AED' },
        permissions: [{ code: 'ORG_LIST' }, { code: 'USER_CREATE' }, { code: 'USER_LIST' }],
      });
      expect(body.find((r: Role) => r.code === 'GESTIONNAIRE').permissions).toEqual([{ code: 'USER_LIST' }]);
      expect(body.find((r: Role) => r.code === 'COMPTABLE').permissions).toEqual([]);
      expect(body.every((r: Role) => r.nomRole === r.name)).toBe(true);
    });

    it('answers metadata null for a role without colour', async () => {
      const { body } = await roles('backoffice@portail.test');
      expect(body.find((r: Role) => r.code === 'TEST_SANS_COULEUR').metadata).toBeNull();
    });

    it.each(['admin.clinique@portail.test', 'admin.ehpad@portail.test', 'rh.clinique@portail.test'])(
      'answers %s the EXTERNAL roles and ADMIN_ADHERENT only: never ADMIN_OPCO nor another INTERNAL role',
      async (email) => {
        const { status, body } = await roles(email);
        expect(status).toBe(200);
        expect(codes(body).sort()).toEqual([...EXTERNAL_CODES, 'TEST_SANS_COULEUR', 'ADMIN_ADHERENT'].sort());
        expect(codes(body)).not.toContain('ADMIN_OPCO');
        expect(codes(body)).not.toContain('TEST_INTERNE');
      },
    );

    it('refuses an inactive account (403)', async () => {
      const { status, body } = await roles('inactif@portail.test');
      expect(status).toBe(403);
      expect(body.message).toBe('Votre compte est désactivé.');
    });

    it('refuses a call without a token (401)', async () => {
      expect((await roles(null)).status).toBe(401);
    });
  });
}
