// The journal ('Journal des modifications', GET /api/v2/audit) after real changes made through the API: each
// entry as a French sentence, a person's history, every filter combined with exact totals, the scope of an
// organization administrator, and the export's stream of the same entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from './db/test-databases.ts';
import { journalBatchAfter, listJournalPage } from '../../server/features/audit/audit-list.repository.ts';
import { auditService, streamJournalEntries } from '../../server/features/audit/audit.service.ts';
import { loadActor } from '../../server/features/session/actor.repository.ts';
import { capturing } from './support/plans.ts';
import { StatementCounter } from './support/statement-counter.ts';
import type { TestApp } from './support/test-app.ts';
import { callApi, createUserAs, PERSONAS, startUsersApp, uniqueEmail, userIdOf, type DemoOrganizations, type RoleIds } from './support/users-api.ts';

const ROUTE = '/api/v2/audit';
const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' }).format(new Date());
const spaced = (code: string) => `${code.slice(0, 3)} ${code.slice(3, 6)} ${code.slice(6, 9)} ${code.slice(9)}`;

interface Entry {
  id: number;
  action: string;
  sentence: string;
  changes: Record<string, unknown>;
  subject: { label: string; exists: boolean };
  organization: { name: string } | null;
  details: { field: string; label: string; before: string | null; after: string | null }[];
}

for (const backend of backends) {
  describe(`the journal on ${backend.name}`, () => {
    let t: TestApp, orgs: DemoOrganizations, roles: RoleIds;
    const counter = new StatementCounter();
    let noel: string;
    let ehpadPerson: string;
    let claire: string;

    beforeAll(async () => {
      ({ t, orgs, roles } = await startUsersApp(backend, { wrapDatabase: counter.wrap }));
      claire = await userIdOf(t, PERSONAS.adminClinique);
      const lyon = orgs.cliniqueSirets[0]!;
      const created = await createUserAs(t, PERSONAS.backoffice, [lyon.code], [roles.COMPTABLE!], { firstName: 'Noël', lastName: 'Faure', jobTitle: 'Comptable', email: uniqueEmail('noel.faure') });
      noel = created.user.id;
      const edited = await callApi(t, {
        as: PERSONAS.adminClinique,
        method: 'PUT',
        route: '/api/v2/users/{id}/complete',
        params: { id: noel },
        payload: { firstName: 'Noël', lastName: 'Faure', email: created.user.email, jobTitle: 'Responsable RH', phoneNumber: '0612345678', mobilePhone: '', street: '3 place Bellecour', postalCode: '69002', city: 'Lyon', organizationCodes: [lyon.code], roleIds: [roles.COMPTABLE!] },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      const given = await callApi(t, { as: PERSONAS.adminClinique, method: 'POST', route: '/api/v2/users/{id}/roles', params: { id: noel }, payload: { organizationId: orgs.cliniqueSirets[1]!.id, roleIds: [roles.RESSOURCE_HUMAINE!] } });
      expect(given.status, JSON.stringify(given.body)).toBe(200);
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/deactivate', params: { id: noel } })).status).toBe(200);
      ehpadPerson = (await createUserAs(t, PERSONAS.backoffice, [orgs.ehpadSirets[0]!.code], [roles.COMPTABLE!], { firstName: 'Gaëtan', lastName: 'Œillet', email: uniqueEmail('gaetan') })).user.id;
    }, 120_000);
    afterAll(() => t?.close());

    const journal = async (as: string, query: Record<string, string | number> = {}) => {
      const answer = await callApi(t, { as, method: 'GET', route: ROUTE, query });
      return answer as { status: number; body: { items: Entry[]; total: number; totalPages: number; message?: string; fieldErrors?: { field: string }[] } };
    };
    const sentences = (items: Entry[]) => items.map((e) => e.sentence);

    it("reads a person's history as sentences, newest first, each change with its French label", async () => {
      const { status, body } = await journal(PERSONAS.backoffice, { userId: noel });
      expect(status).toBe(200);
      const lyon = orgs.cliniqueSirets[0]!;
      const villeurbanne = orgs.cliniqueSirets[1]!;
      expect(sentences(body.items)).toEqual([
        'Béatrice Marchand a désactivé Noël Faure.',
        `Claire Vasseur a attribué le rôle Ressources humaines à Noël Faure sur ${villeurbanne.name} (SIRET ${spaced(villeurbanne.code)}).`,
        'Claire Vasseur a modifié Noël Faure : Fonction « Comptable » → « Responsable RH ».',
        "Béatrice Marchand a créé l'utilisateur Noël Faure.",
      ]);
      expect(body.total).toBe(4);
      expect(body.items[0]!.details).toEqual([{ field: 'isActive', label: 'Statut', before: 'Actif', after: 'Inactif' }]);
      expect(body.items[1]!.details).toEqual([
        { field: 'roles', label: 'Rôles', before: `Comptable sur ${lyon.name} (SIRET ${spaced(lyon.code)})`, after: `Comptable sur ${lyon.name} (SIRET ${spaced(lyon.code)}) ; Ressources humaines sur ${villeurbanne.name} (SIRET ${spaced(villeurbanne.code)})` },
      ]);
      expect(body.items[0]!.subject).toMatchObject({ label: 'Noël Faure', exists: true });
      expect(body.items[0]!.changes).toEqual({ isActive: { before: true, after: false } });
    });

    it("lets the clinic's administrator read that history within their scope, without the recorded changes", async () => {
      const { status, body } = await journal(PERSONAS.adminClinique, { userId: noel });
      expect(status).toBe(200);
      expect(body.total).toBe(4);
      expect(body.items.every((e) => Object.keys(e.changes).length === 0)).toBe(true);
      expect(body.items[3]!.details.find((d) => d.field === 'jobTitle')).toEqual({ field: 'jobTitle', label: 'Fonction', before: null, after: 'Comptable' });
      expect(body.items.every((e) => e.subject.exists)).toBe(true);
    });

    it("shows the EHPAD's administrator none of the clinic's entries, and the clinic's none of the EHPAD's", async () => {
      expect((await journal(PERSONAS.adminEhpad, { userId: noel })).body.total).toBe(0);
      const ehpad = await journal(PERSONAS.adminEhpad);
      expect(ehpad.body.items.map((e) => e.sentence)).toEqual(["Béatrice Marchand a créé l'utilisateur Gaëtan Œillet."]);
      expect((await journal(PERSONAS.adminClinique, { userId: ehpadPerson })).body.total).toBe(0);
      expect((await journal(PERSONAS.adminClinique)).body.total).toBe(4);
      expect((await journal(PERSONAS.backoffice)).body.total).toBe(5);
    });

    it('combines the filters: actions, author, period, organization (a SIREN finds its SIRETs), with exact totals', async () => {
      expect((await journal(PERSONAS.backoffice, { action: 'user.roles,user.deactivate' })).body.total).toBe(2);
      expect((await journal(PERSONAS.backoffice, { actorId: claire })).body.items.map((e) => e.action)).toEqual(['user.roles', 'user.update']);
      expect((await journal(PERSONAS.backoffice, { actorId: claire, action: 'user.update' })).body.total).toBe(1);
      expect((await journal(PERSONAS.backoffice, { from: today(), to: today() })).body.total).toBe(5);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      expect((await journal(PERSONAS.backoffice, { from: tomorrow > today() ? tomorrow : today(), to: '2099-12-31', action: 'user.create' })).body.total).toBe(tomorrow > today() ? 0 : 2);
      expect((await journal(PERSONAS.backoffice, { to: '2020-01-01' })).body.total).toBe(0);
      expect((await journal(PERSONAS.backoffice, { organizationId: orgs.clinique.id })).body.total).toBe(4);
      // Villeurbanne: Noël belongs there since the role was given.
      expect((await journal(PERSONAS.backoffice, { organizationId: orgs.cliniqueSirets[1]!.id })).body.items.map((e) => e.action)).toEqual(['user.deactivate', 'user.roles']);
      expect((await journal(PERSONAS.backoffice, { organizationId: orgs.ehpad.id })).body.total).toBe(1);
    });

    it('searches the names and e-mails of the author and the person, whatever the case and the accents', async () => {
      expect((await journal(PERSONAS.backoffice, { search: 'NOEL faure' })).body.total).toBe(4);
      expect((await journal(PERSONAS.backoffice, { search: 'oeillet' })).body.total).toBe(1);
      expect((await journal(PERSONAS.backoffice, { search: 'Vasseur' })).body.total).toBe(2);
      expect((await journal(PERSONAS.backoffice, { search: 'admin.clinique@' })).body.total).toBe(2);
      expect((await journal(PERSONAS.backoffice, { search: '100%' })).body.total).toBe(0);
      expect((await journal(PERSONAS.adminClinique, { search: 'oeillet' })).body.total).toBe(0);
    });

    it('finds by any term exactly the entries whose text holds it, the index asked for its rarest strings only', async () => {
      const db = t.database.handle.db;
      const noelEmail = (await db.selectFrom('users').select('email').where('id', '=', noel).executeTakeFirstOrThrow()).email;
      const terms = [noelEmail, noelEmail.toUpperCase(), 'noel faure', 'faure', 'clinique', 'admin.clinique@portail.test', 'portail.test', 'tilleuls', 'beatrice', 'zzzqqq', 'fa'];
      for (const term of terms) {
        const pattern = `%${term.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')}%`;
        const { rows } = await sql<{ n: string }>`select count(*) as n from audit_log where search_text like ${pattern}`.execute(db);
        const answer = await journal(PERSONAS.backoffice, { search: term, pageSize: 100 });
        expect(answer.body.total, term).toBe(Number(rows[0]!.n));
        expect(answer.body.items.length, term).toBe(Math.min(100, Number(rows[0]!.n)));
      }
    });

    it('pages newest first without overlap, and keeps totals exact after a new change', async () => {
      const pages = await Promise.all([1, 2, 3].map((page) => journal(PERSONAS.backoffice, { pageSize: 2, page })));
      const all = (await journal(PERSONAS.backoffice)).body.items.map((e) => e.id);
      expect(pages.flatMap((p) => p.body.items.map((e) => e.id))).toEqual(all);
      expect(pages[0]!.body.totalPages).toBe(3);
      const before = (await journal(PERSONAS.backoffice, { search: 'faure' })).body.total;
      expect((await callApi(t, { as: PERSONAS.backoffice, method: 'POST', route: '/api/v2/users/{id}/reactivate', params: { id: noel } })).status).toBe(200);
      expect((await journal(PERSONAS.backoffice, { search: 'faure' })).body.total).toBe(before + 1);
      expect((await journal(PERSONAS.backoffice)).body.total).toBe(6);
    });

    it('refuses an unknown action, a period that ends before it starts (400 naming each field), and an organization out of reach (404)', async () => {
      const bad = await journal(PERSONAS.backoffice, { action: 'user.create,user.explode', from: '2026-11-02', to: '2026-11-01' });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors!.map((f) => f.field).sort()).toEqual(['query.action', 'query.to']);
      const out = await journal(PERSONAS.adminClinique, { organizationId: orgs.ehpad.id });
      expect(out.status).toBe(404);
      expect(out.body.message).toBe('Organisation introuvable.');
      expect((await journal(PERSONAS.adminClinique, { organizationId: orgs.ehpadSirets[0]!.id })).status).toBe(404);
    });

    it('reads the same pages and export batches whether it gathers the few matches or walks the journal newest first', async () => {
      const db = t.database.handle.db;
      const clinicScope = [orgs.clinique.id, ...orgs.cliniqueSirets.map((o) => o.id)];
      const wheres = [
        { scope: null },
        { scope: null, search: 'faure' },
        // Narrowed to two of its strings (audit.model.ts searchNarrowing): the index asked for those, the term checked on them.
        { scope: null, search: 'noel faure', searchGrams: ['noe', 'fau'] },
        { scope: clinicScope, search: 'noel faure', searchGrams: ['aur'] },
        { scope: clinicScope },
        { scope: clinicScope, since: new Date(Date.now() - 86_400_000) },
        { scope: null, organization: { id: orgs.clinique.id, type: 'SIREN' as const } },
        { scope: null, organization: { id: orgs.cliniqueSirets[1]!.id, type: 'SIRET' as const } },
      ];
      for (const where of wheres) {
        for (const page of [1, 2, 3]) {
          const walked = await listJournalPage(db, where, { page, pageSize: 2 });
          const gathered = await listJournalPage(db, where, { page, pageSize: 2 }, { gather: true });
          expect(gathered.map((r) => r.id)).toEqual(walked.map((r) => r.id));
        }
        const after = (await listJournalPage(db, where, { page: 1, pageSize: 2 })).at(-1)!;
        const key = { at: after.at, id: after.id };
        expect((await journalBatchAfter(db, where, key, 3, { gather: true })).map((r) => r.id)).toEqual((await journalBatchAfter(db, where, key, 3)).map((r) => r.id));
        expect((await journalBatchAfter(db, where, key, 3)).map((r) => r.id)).toEqual((await listJournalPage(db, where, { page: 1, pageSize: 5 })).slice(2).map((r) => r.id));
      }
    });

    it("merges an organization caller's page from each organization's index: the entries of the scope, newest first, each once", async () => {
      const db = t.database.handle.db;
      const clinicScope = [orgs.clinique.id, ...orgs.cliniqueSirets.map((o) => o.id)];
      const day = new Date(Date.now() - 86_400_000);
      const wheres = [{ scope: clinicScope }, { scope: clinicScope, since: day }, { scope: clinicScope, actions: ['user.roles' as const] }, { scope: clinicScope.slice(1) }];
      for (const where of wheres) {
        const { rows } = await sql<{ id: string }>`select a.id from audit_log a
          where exists (select 1 from audit_log_organizations o where o.audit_id = a.id and o.organization_id = any(${where.scope}::uuid[]))
            and (${where.since ?? null}::timestamptz is null or a.at >= ${where.since ?? null}::timestamptz)
            and (${where.actions?.[0] ?? null}::text is null or a.action = ${where.actions?.[0] ?? null}::text)
          order by a.at desc, a.id desc`.execute(db);
        const expected = rows.map((r) => Number(r.id));
        expect(expected.length, JSON.stringify(where)).toBeGreaterThan(0);
        for (const page of [1, 2, 3]) {
          const ids = (await listJournalPage(db, where, { page, pageSize: 2 })).map((r) => r.id);
          expect(ids, `${JSON.stringify(where)} page ${page}`).toEqual(expected.slice((page - 1) * 2, page * 2));
        }
      }
    });

    it('reads a page in the same number of statements whatever its size', async () => {
      const small = await counter.during(() => journal(PERSONAS.adminClinique, { pageSize: 1 }));
      const large = await counter.during(() => journal(PERSONAS.adminClinique, { pageSize: 100 }));
      expect(large).toBe(small);
    });

    it('streams every entry the caller may read, in keyset batches, in the order of the pages', async () => {
      const db = t.database.handle.db;
      const { auth_id: subject } = await db.selectFrom('users').select('auth_id').where('email', '=', PERSONAS.adminClinique).executeTakeFirstOrThrow();
      const actor = (await loadActor(db, subject!))!;
      const streamed = [];
      for await (const entry of streamJournalEntries({ db }, actor, {}, { batchSize: 2 })) streamed.push(entry);
      const paged = (await journal(PERSONAS.adminClinique, { pageSize: 100 })).body.items;
      expect(streamed.map((e) => e.sentence)).toEqual(paged.map((e) => e.sentence));
      expect(streamed.every((e) => Object.keys(e.changes).length === 0)).toBe(true);
      await expect(streamJournalEntries({ db }, actor, { organizationId: orgs.ehpad.id }).next()).rejects.toThrow('Organisation introuvable.');
    });

    // Last: its entries stay in the journal (the back office's only: they concern no organization).
    it("walks newest first a page of a term many entries hold, and gathers a rare term's page or a far page (audit.model.ts gathersPage)", async () => {
      const db = t.database.handle.db;
      await sql`insert into audit_log (actor_email, action, entity_type, entity_id, changes, search_text)
        select 'ops@exemple.fr', 'user.update', 'user', 'densite-' || i, '{}'::jsonb,
          case when i % 2 = 0 then 'zephyrine marchal' when i % 100 = 1 then 'kervella' else 'une autre personne' end
        from generate_series(1, 400) as i`.execute(db);
      const { auth_id: subject } = await db.selectFrom('users').select('auth_id').where('email', '=', PERSONAS.backoffice).executeTakeFirstOrThrow();
      const actor = (await loadActor(db, subject!))!;
      const { db: recording, statements } = capturing(db);
      const service = auditService({ db: recording });
      const everyone = Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(db)).rows[0]!.n);
      const cases = [
        // 200 of about 450 entries: page 1 is found within its first 20 or so entries newest first (200² > 4 × 10 × everyone).
        { search: 'zephyrine', page: 1, walked: true },
        // Its page 10 ends at the 100th match: gathering its 200 reads less than walking 225 entries, within the margin.
        { search: 'zephyrine', page: 10, walked: false },
        { search: 'kervella', page: 1, walked: false },
      ];
      for (const { search, page, walked } of cases) {
        statements.length = 0;
        const { total, items } = await service.list(actor, { search }, { page, pageSize: 10 });
        expect(total * total > 4 * page * 10 * everyone, `${search} page ${page}`).toBe(walked);
        const pageStatement = statements.find((s) => s.sql.includes(`(search_text || '') like`) && s.sql.includes('order by'));
        expect(pageStatement, `${search} page ${page}`).toBeDefined();
        expect(/\) as "m"/.test(pageStatement!.sql), `${search} page ${page}: gathered\n${pageStatement!.sql}`).toBe(!walked);
        const gathered = await listJournalPage(db, { scope: null, search }, { page, pageSize: 10 }, { gather: true });
        expect(items.map((e) => e.id)).toEqual(gathered.map((r) => r.id));
        expect(items.length).toBe(Math.min(10, total - (page - 1) * 10));
      }
    });
  });
}
